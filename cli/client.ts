// The CLI's gRPC client: calls any RPC of proto/ by service and method name, with the API key in
// metadata, and turns a gRPC error (with its google.rpc.ErrorInfo) into a CliError.
import * as grpc from '@grpc/grpc-js';
import type protobuf from 'protobufjs';
import { GatehouseError, isErrorCode } from '../server/errors.ts';
import { decodeStatusDetails } from '../server/grpc/status-details.ts';
import { messageToJson } from '../server/rpc/json.ts';
import { loadProtos } from '../server/rpc/proto.ts';
import { httpStatusOf } from '../server/rpc/status.ts';
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
  const client = clientFor(full, opts.server) as unknown as Record<
    string,
    (req: object, md: grpc.Metadata, o: grpc.CallOptions, cb: grpc.requestCallback<Record<string, unknown>>) => void
  >;
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
    return new CliError(
      `cannot reach the server at ${server} (${transportReason(err.details)}); start it with 'gatehouse serve' or pass --server`,
      1,
      'unavailable',
    );
  }
  if (err.code === grpc.status.DEADLINE_EXCEEDED) return new CliError(`the server at ${server} did not answer in time`, 1, 'timeout');
  const raw = err.metadata?.get('grpc-status-details-bin')[0];
  if (raw) {
    const s = decodeStatusDetails(Buffer.from(raw as Buffer));
    if (s.errorInfo) {
      const reason = s.errorInfo.reason;
      const status = isErrorCode(reason) ? httpStatusOf(new GatehouseError(reason, '')) : undefined;
      const { requestId, ...rest } = typedMetadata(s.errorInfo.metadata);
      return new CliError(s.message, 1, reason, { status, requestId, ...rest });
    }
  }
  return new CliError(err.details || err.message, 1, grpc.status[err.code]?.toLowerCase());
}

/** What went wrong with the connection, without grpc-js's own wording around it ("No connection
 *  established. Last error: Error: connect ECONNREFUSED …. Resolution note: "). */
export function transportReason(details: string): string {
  if (/ECONNREFUSED/.test(details)) return 'connection refused';
  if (/ENOTFOUND|EAI_AGAIN|Name resolution failed/i.test(details)) return 'host name not found';
  if (/ETIMEDOUT/.test(details)) return 'connection timed out';
  if (/EHOSTUNREACH|ENETUNREACH/.test(details)) return 'host unreachable';
  if (/ECONNRESET|EPIPE/.test(details)) return 'connection reset';
  const rest = details
    .replace(/\s*Resolution note:.*$/s, '')
    .replace(/^No connection established\.\s*(Last error:\s*)?(Error:\s*)?/i, '')
    .replace(/[.\s]+$/, '');
  return rest || 'no connection';
}

/** ErrorInfo metadata is a string map; the HTTP error body has numbers for counts (`have`, `need`,
 *  `activeSubscriptions`, `retryAfter`). Decimal integers become numbers again, except under the
 *  names of identifiers and keys (`mappingId`, `idempotencyKey`, `requestId`…), whose digits are text. */
function typedMetadata(metadata: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(metadata)) {
    const textual = /(Id|Key)$/.test(k) || k === 'field';
    out[k] = !textual && /^-?(0|[1-9]\d*)$/.test(v) && Number.isSafeInteger(Number(v)) ? Number(v) : v;
  }
  return out;
}
