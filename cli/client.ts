// The CLI's gRPC client: calls any RPC of proto/ by service and method name, with the API key in
// metadata, and turns a gRPC error (with its google.rpc.ErrorInfo) into a CliError.
import * as grpc from '@grpc/grpc-js';
import type protobuf from 'protobufjs';
import { loadProtos } from '../server/rpc/proto.ts';
import { decodeStatusDetails } from '../server/grpc/status-details.ts';
import { messageToJson } from '../server/gateway/json.ts';
import { CliError } from './output.ts';

export interface ServerOptions {
  server: string;
  apiKey?: string;
  timeoutMs?: number;
}

const clients = new Map<string, grpc.Client>();

function clientFor(service: string, address: string): grpc.Client {
  const k = `${service}@${address}`;
  let c = clients.get(k);
  if (!c) {
    const def = loadProtos().packageDefinition[service] as grpc.ServiceDefinition;
    const Ctor = grpc.makeGenericClientConstructor(def, service);
    c = new Ctor(address, grpc.credentials.createInsecure());
    clients.set(k, c);
  }
  return c;
}

export function closeClients(): void {
  for (const c of clients.values()) c.close();
  clients.clear();
}

export function responseType(service: string, method: string): protobuf.Type {
  const m = loadProtos().methods.find((x) => x.service === `gatehouse.v1.${service}` && x.name === method);
  if (!m) throw new Error(`unknown RPC ${service}.${method}`);
  return m.responseType;
}

/** Calls gatehouse.v1.{service}/{method}; resolves with the response as proto3 JSON. */
export async function callRpc(opts: ServerOptions, service: string, method: string, request: object): Promise<Record<string, unknown>> {
  const full = `gatehouse.v1.${service}`;
  const client = clientFor(full, opts.server) as unknown as Record<string, (req: object, md: grpc.Metadata, o: grpc.CallOptions, cb: grpc.requestCallback<Record<string, unknown>>) => void>;
  const md = new grpc.Metadata();
  if (opts.apiKey) md.set('authorization', `Bearer ${opts.apiKey}`);
  const fn = client[method];
  if (!fn) throw new Error(`unknown RPC ${service}.${method}`);
  const res = await new Promise<Record<string, unknown>>((resolve, reject) => {
    fn.call(client, request, md, { deadline: Date.now() + (opts.timeoutMs ?? 30_000) }, (err, value) => (err ? reject(err) : resolve(value ?? {})));
  }).catch((err: grpc.ServiceError) => {
    throw toCliError(err, opts.server);
  });
  return messageToJson(responseType(service, method), res);
}

export function toCliError(err: grpc.ServiceError, server: string): CliError {
  if (err.code === grpc.status.UNAVAILABLE && !err.metadata?.get('grpc-status-details-bin').length) {
    return new CliError(`cannot reach gatehouse at ${server} (${err.details}); start it with 'gatehouse serve' or pass --server`, 1, 'unavailable');
  }
  if (err.code === grpc.status.DEADLINE_EXCEEDED) return new CliError(`gatehouse at ${server} did not answer in time`, 1, 'timeout');
  const raw = err.metadata?.get('grpc-status-details-bin')[0];
  if (raw) {
    const s = decodeStatusDetails(Buffer.from(raw as Buffer));
    if (s.errorInfo) return new CliError(s.message, 1, s.errorInfo.reason, s.errorInfo.metadata);
  }
  return new CliError(err.details || err.message, 1, grpc.status[err.code]?.toLowerCase());
}
