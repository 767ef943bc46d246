// A small HTTP caller for tests: JSON in, status + parsed body + headers out.
import { request as httpRequest } from 'node:http';

export interface HttpResult<T = Record<string, any>> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

export async function http<T = Record<string, any>>(
  base: string,
  method: string,
  path: string,
  opts: { body?: unknown; key?: string; token?: string; headers?: Record<string, string>; form?: Record<string, string>; raw?: string | Buffer } = {},
): Promise<HttpResult<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  let body: string | Buffer | undefined;
  if (opts.form) {
    headers['content-type'] ??= 'application/x-www-form-urlencoded';
    body = new URLSearchParams(opts.form).toString();
  } else if (opts.raw !== undefined) {
    body = opts.raw;
  } else if (opts.body !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = JSON.stringify(opts.body);
  }
  if (opts.key) headers['authorization'] = `Bearer ${opts.key}`;
  if (opts.token) headers['authorization'] = `Bearer ${opts.token}`;
  const res = await fetch(base + path, { method, headers, body: body as BodyInit | undefined, redirect: 'manual' });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : {};
  } catch {
    /* not JSON: keep the text */
  }
  return { status: res.status, body: parsed as T, text, headers: res.headers };
}

/** A client bound to one server and key. */
export function api(base: string, key?: string) {
  const call =
    (method: string) =>
    (path: string, body?: unknown, extra: { key?: string; headers?: Record<string, string> } = {}) =>
      http(base, method, path, { body, key: extra.key ?? key, headers: extra.headers });
  return { get: call('GET'), post: call('POST'), put: call('PUT'), patch: call('PATCH'), delete: call('DELETE') };
}

/** A request the server is known to hold: sent with `Expect: 100-continue`, its body goes only
 *  when the server says continue (RFC 9110 §10.1.1), and `received` resolves then. A test awaits
 *  `received` to know the request is in flight, rather than sleeping and hoping. */
export function requestInFlight(
  base: string,
  method: string,
  path: string,
  opts: { body?: unknown; key?: string; headers?: Record<string, string> } = {},
): { received: Promise<void>; answer: Promise<{ status: number; text: string }> } {
  let received!: () => void;
  const receivedPromise = new Promise<void>((resolve) => (received = resolve));
  const payload = opts.body === undefined ? '' : JSON.stringify(opts.body);
  const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
    const headers: Record<string, string> = {
      ...opts.headers,
      expect: '100-continue',
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(payload)),
    };
    if (opts.key) headers.authorization = `Bearer ${opts.key}`;
    const req = httpRequest(`${base}${path}`, { method, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, text }));
    });
    req.on('error', reject);
    req.flushHeaders();
    req.once('continue', () => {
      received();
      req.end(payload);
    });
  });
  return { received: receivedPromise, answer };
}
