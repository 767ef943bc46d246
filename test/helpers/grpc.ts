// A gRPC caller for tests, built from proto/ like any outside client would be.
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { decodeStatusDetails } from '../../server/grpc/status-details.ts';
import { apiProtoFiles, LOADER_OPTIONS } from '../../server/rpc/proto.ts';

const pkg = grpc.loadPackageDefinition(protoLoader.loadSync(apiProtoFiles(), LOADER_OPTIONS)) as any;

export interface GrpcFailure {
  code: grpc.status;
  message: string;
  reason: string | null;
  metadata: Record<string, string>;
}

export type GrpcResult<T = any> = { ok: true; value: T } | { ok: false; error: GrpcFailure };

const clients = new Map<string, grpc.Client>();

export function grpcClient(addr: string, service: string): any {
  const k = `${addr}/${service}`;
  let c = clients.get(k);
  if (!c) {
    c = new pkg.gatehouse.v1[service](addr, grpc.credentials.createInsecure());
    clients.set(k, c!);
  }
  return c;
}

export function closeGrpcClients(): void {
  for (const c of clients.values()) c.close();
  clients.clear();
}

/** Calls gatehouse.v1.{service}.{method}; never throws for a gRPC error status. */
export function grpcCall<T = any>(
  addr: string,
  service: string,
  method: string,
  req: object,
  auth?: string,
  extraMd: Record<string, string> = {},
): Promise<GrpcResult<T>> {
  const client = grpcClient(addr, service);
  const md = new grpc.Metadata();
  if (auth) md.set('authorization', `Bearer ${auth}`);
  for (const [k, v] of Object.entries(extraMd)) md.set(k, v);
  return new Promise((resolve) => {
    // No deadline: the test waits for the answer however slow the machine; a server that never
    // answers shows as a test that never ends, not as a DEADLINE_EXCEEDED it did not earn.
    client[method](req, md, (err: grpc.ServiceError | null, value: T) => {
      if (!err) return resolve({ ok: true, value });
      const raw = err.metadata?.get('grpc-status-details-bin')[0];
      const info = raw ? decodeStatusDetails(Buffer.from(raw as Buffer)).errorInfo : null;
      resolve({ ok: false, error: { code: err.code, message: err.details, reason: info?.reason ?? null, metadata: info?.metadata ?? {} } });
    });
  });
}
