// What every command shares: the global options and one way to call the server and print.
import type { Command } from 'commander';
import { moduleLoader } from '../server/lib/load-module.ts';
import type { MethodName, ProtoJson, RequestIn, ResponseOut, ServiceName } from '../server/rpc/types.ts';
import { parseDuration } from './duration.ts';
import { printJson, printLine, usageError } from './output.ts';

// Loaded when first needed (server/lib/load-module.ts).
const load = moduleLoader(import.meta.url);

export interface Globals {
  server: string;
  /** Where `server` came from, to name it in an error. */
  serverFrom: '--server' | 'GATEHOUSE_SERVER' | 'default';
  apiKey?: string;
  realm?: string;
  json: boolean;
}

export function globals(cmd: Command): Globals {
  const o = cmd.optsWithGlobals() as Partial<Globals>;
  return {
    server: o.server ?? (process.env.GATEHOUSE_SERVER || '127.0.0.1:50051'),
    serverFrom: o.server !== undefined ? '--server' : process.env.GATEHOUSE_SERVER ? 'GATEHOUSE_SERVER' : 'default',
    apiKey: o.apiKey ?? process.env.GATEHOUSE_API_KEY,
    realm: o.realm ?? process.env.GATEHOUSE_REALM,
    json: Boolean(o.json),
  };
}

export function realmOf(g: Globals): string {
  if (!g.realm) throw usageError('no realm: pass --realm or set GATEHOUSE_REALM');
  return g.realm;
}

type ShortName<S> = S extends `gatehouse.v1.${infer N}` ? N : never;
/** The services the CLI may call, by short name (PointsService). Not AuthService: its OAuth answers
 *  carry RFC names (json_name), which ProtoJson does not model. */
export type CliService = ShortName<Exclude<ServiceName, 'gatehouse.v1.AuthService'>>;
type Full<S extends CliService> = `gatehouse.v1.${S}` & ServiceName;
export type CliMethod<S extends CliService> = MethodName<Full<S>>;
/** A request as the gRPC client sends it (the input shape: every field optional). */
export type CliRequest<S extends CliService, M extends CliMethod<S>> = RequestIn<Full<S>, M>;
/** An answer as rpc() resolves with it: proto3 JSON, as --json prints it. */
export type CliAnswer<S extends CliService, M extends CliMethod<S>> = ProtoJson<ResponseOut<Full<S>, M>>;

/** Calls an RPC of gatehouse.v1.{service}. The gRPC client loads lazily so `--help` stays fast. */
let clientModule: typeof import('./client.ts') | null = null;

export async function rpc<S extends CliService, M extends CliMethod<S>>(
  g: Globals,
  service: S,
  method: M,
  request: CliRequest<S, M>,
): Promise<CliAnswer<S, M>> {
  // The HTTP adapter's URL is the usual mistake: gRPC wants the other listener's host:port.
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(g.server)) {
    throw usageError(
      `${g.serverFrom === 'GATEHOUSE_SERVER' ? 'GATEHOUSE_SERVER=' : '--server '}${g.server}: expected HOST:PORT of gatehouse's gRPC listener (e.g. 127.0.0.1:50051), not a URL`,
    );
  }
  clientModule ??= await load<typeof import('./client.ts')>('./client.ts');
  // callRpc writes the answer as the JSON of the method's response type, which CliAnswer describes.
  return (await clientModule.callRpc({ server: g.server, apiKey: g.apiKey }, service, method, request)) as CliAnswer<S, M>;
}

/** Closes the gRPC channels a command opened, so the process can exit. */
export function closeConnections(): void {
  clientModule?.closeClients();
}

/** Prints a result: JSON with --json, else the human rendering. */
export function show(g: Globals, value: unknown, human: () => string): void {
  if (g.json) printJson(value);
  else printLine(human());
}

export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

export function parseIntArg(name: string, min = 0) {
  return (v: string): number => {
    if (!/^-?\d+$/.test(v) || !Number.isSafeInteger(Number(v)) || Number(v) < min) throw usageError(`${name}: expected a whole number ≥ ${min}, got ${v}`);
    return Number(v);
  };
}

/** A length of time in seconds: 15m, 12h, 30d, 1w, or plain seconds. */
export function parseSecondsArg(name: string) {
  return (v: string): number => {
    const s = parseDuration(v);
    if (typeof s === 'string') throw usageError(`${name} ${v}: ${s}`);
    return s;
  };
}

export function parseBool(name: string) {
  return (v: string): boolean => {
    if (/^(true|yes|on|1)$/i.test(v)) return true;
    if (/^(false|no|off|0)$/i.test(v)) return false;
    throw usageError(`${name}: expected true or false, got ${v}`);
  };
}
