// The few HTTP requests gatehouse makes to an identity provider (its JWKS, Apple's token and
// revocation endpoints), on node:http and node:https. Not node's fetch: it is undici, which parses
// HTTP in WebAssembly, and compiling that at a server's first request raised its peak RSS by ~40 MiB
// and kept ~12 MiB more for the life of the process (README, Benchmarks). Webhook deliveries have
// their own client (webhooks/http1.ts).
// - Redirects are never followed: a 3xx is an answer like any other, and the caller's to refuse.
// - A GET whose kept-alive connection was closed under it is sent once more (below).
// - The timeout covers the whole exchange, connection to the body's last byte.
// - A body over `maxBytes` is refused without being read: a declared content-length up front, an
//   undeclared (chunked) one as soon as the bytes read pass it.
// - Failures keep node's system error (`code`: ECONNREFUSED, ENOTFOUND, a TLS verification code);
//   a timeout is an error named TimeoutError, as an AbortSignal.timeout abort is.
import { type ClientRequest, type IncomingMessage, request as plainRequest } from 'node:http';
import { request as tlsRequest } from 'node:https';

export interface HttpRequest {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  timeoutMs: number;
  maxBytes: number;
  /** Whether to read the body of an answer with this status (default: every status); an unread
   *  body is drained and its text is ''. */
  readBody?: (status: number) => boolean;
}

export interface HttpAnswer {
  status: number;
  /** The body as UTF-8. */
  text: string;
}

/** Sends one request; its answer, or a rejection (see above). */
export type HttpClient = (url: string, req: HttpRequest) => Promise<HttpAnswer>;

export class HttpTimeout extends Error {
  override name = 'TimeoutError';
}

export class HttpBodyTooLarge extends Error {
  constructor(maxBytes: number) {
    super(`answer body over ${maxBytes} bytes`);
  }
}

export const httpRequest: HttpClient = (url, r) =>
  new Promise<HttpAnswer>((resolve, reject) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch (e) {
      return reject(e);
    }
    const send = target.protocol === 'https:' ? tlsRequest : target.protocol === 'http:' ? plainRequest : null;
    if (!send) return reject(new Error(`not an http(s) URL: ${target.protocol}`));
    const headers: Record<string, string> = { ...r.headers };
    if (r.body !== undefined) headers['content-length'] = String(Buffer.byteLength(r.body));
    let settled = false;
    let current: { req: ClientRequest; answer: IncomingMessage | null } | null = null;
    const settle = (error: Error | null, value?: HttpAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) {
        // Ends the exchange whichever part is still going: the request, or the answer's body.
        if (current) (current.answer ?? current.req).destroy();
        reject(error);
      } else resolve(value!);
    };
    const timer = setTimeout(() => settle(new HttpTimeout(`no whole answer within ${r.timeoutMs} ms`)), r.timeoutMs);
    const method = r.method ?? 'GET';
    const attempt = (again: boolean) => {
      // Sent again, on a connection of its own: the agent's next idle one may be closed too.
      const req = send(target, { method, headers, ...(again ? { agent: false } : {}) });
      const exchange: { req: ClientRequest; answer: IncomingMessage | null } = { req, answer: null };
      current = exchange;
      req.on('error', (e: NodeJS.ErrnoException) => {
        // A kept-alive connection the server closed as this request went out on it: a GET, being
        // idempotent, is sent once more (RFC 9112 §9.3.1, RFC 9110 §9.2.2); a POST is not (an
        // authorization code is good once).
        if (method === 'GET' && !again && !settled && req.reusedSocket && exchange.answer === null && e.code === 'ECONNRESET') return attempt(true);
        settle(e);
      });
      req.on('response', (res) => {
        exchange.answer = res;
        const status = res.statusCode ?? 0;
        res.on('error', (e) => settle(e));
        if (r.readBody && !r.readBody(status)) {
          res.on('end', () => settle(null, { status, text: '' }));
          res.on('close', () => settle(null, { status, text: '' }));
          res.resume();
          return;
        }
        const declared = res.headers['content-length'];
        if (declared !== undefined && !(Number(declared) <= r.maxBytes)) return settle(new HttpBodyTooLarge(r.maxBytes));
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > r.maxBytes) return settle(new HttpBodyTooLarge(r.maxBytes));
          chunks.push(chunk);
        });
        res.on('end', () => settle(null, { status, text: Buffer.concat(chunks, size).toString('utf8') }));
        // The connection ended before the body did (no 'end' came first).
        res.on('close', () => settle(new Error('the connection closed before the answer ended')));
      });
      req.end(r.body);
    };
    attempt(false);
  });
