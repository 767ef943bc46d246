// One webhook POST (CONTRACT §12): to the address the URL rules allowed (the connection goes to
// that address, not to a second resolution), no redirect followed, at most MAX_ANSWER_BYTES of the
// answer read, everything within the timeout.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { MAX_ANSWER_BYTES } from './model.ts';

export interface SendResult {
  /** The answer's status; null when none came. */
  httpStatus: number | null;
  /** Why the attempt is not a delivery; null for a 2xx within the timeout. */
  error: string | null;
}

export function send(
  url: URL,
  address: { address: string; family: number },
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<SendResult> {
  // The checked address, whatever the name resolves to now (no DNS rebinding between check and use).
  const lookup: LookupFunction = (_host, opts, cb) => {
    if ((opts as { all?: boolean }).all) (cb as unknown as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [address]);
    else cb(null, address.address, address.family);
  };
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    let status: number | null = null;
    const finish = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(result);
    };
    const req = request(url, {
      method: 'POST',
      lookup,
      headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'gatehouse-webhooks' },
    });
    const timer = setTimeout(() => finish({ httpStatus: status, error: `no answer within ${timeoutMs} ms` }), timeoutMs);
    req.on('error', (e) => finish({ httpStatus: status, error: e.message || 'connection failed' }));
    req.on('response', (res: IncomingMessage) => {
      status = res.statusCode ?? null;
      let read = 0;
      const outcome = (): SendResult => {
        if (status !== null && status >= 200 && status < 300) return { httpStatus: status, error: null };
        // A redirect is an answer like any other non-2xx: never followed (the target was not checked).
        return { httpStatus: status, error: status !== null && status >= 300 && status < 400 ? `redirect (HTTP ${status}) not followed` : `HTTP ${status}` };
      };
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read >= MAX_ANSWER_BYTES) finish(outcome()); // the rest of the answer is not read
      });
      res.on('end', () => finish(outcome()));
      res.on('error', (e) => finish({ httpStatus: status, error: e.message }));
    });
    req.end(body);
  });
}
