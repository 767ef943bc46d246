// Operational endpoints for operators and orchestrators, not API RPCs: a fixed table the HTTP
// adapter checks before the proto routes. No credential.
//   GET /healthz  alive: 200 {"status":"ok"} as long as the process serves
//   GET /readyz   ready: 200 {"status":"ok"}, or 503 service_unavailable when the database cannot
//                 serve or once shutdown has begun (a load balancer stops sending work here)
//   GET /metrics  the Prometheus text exposition format (absent with --metrics off)
import type { ServerResponse } from 'node:http';
import type { Registry } from 'prom-client';
import { GatehouseError } from '../errors.ts';

export interface Operational {
  /** The registry /metrics exposes; null: no /metrics. */
  metrics: Registry | null;
  /** null when ready, else the 503 to answer. */
  ready(): GatehouseError | null | Promise<GatehouseError | null>;
}

/** Answers the request (or throws the error to answer). */
export type OperationalHandler = (method: string, res: ServerResponse, requestId: string) => Promise<void>;

type Answer = { contentType: string; body: string };
const JSON_TYPE = 'application/json; charset=utf-8';
const OK: Answer = { contentType: JSON_TYPE, body: JSON.stringify({ status: 'ok' }) };

function answerOf(ops: Operational, path: string): (() => Promise<Answer>) | null {
  switch (path) {
    case '/healthz':
      return async () => OK;
    case '/readyz':
      return async () => {
        const err = await ops.ready();
        if (err) throw err;
        return OK;
      };
    case '/metrics': {
      const registry = ops.metrics;
      return registry ? async () => ({ contentType: registry.contentType, body: await registry.metrics() }) : null;
    }
    default:
      return null;
  }
}

/** The handler of an operational path, or null for every other path. */
export function operationalEndpoint(ops: Operational, path: string): OperationalHandler | null {
  const answer = answerOf(ops, path);
  if (!answer) return null;
  return async (method, res, requestId) => {
    if (method !== 'GET' && method !== 'HEAD')
      throw new GatehouseError('method_not_allowed', `Method ${method} is not allowed here`, { headers: { allow: 'GET' } });
    const { contentType, body } = await answer();
    res.writeHead(200, {
      'content-type': contentType,
      'content-length': String(Buffer.byteLength(body)),
      'cache-control': 'no-store',
      'x-request-id': requestId,
    });
    res.end(method === 'HEAD' ? undefined : body);
  };
}
