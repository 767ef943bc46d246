// A small HTTP caller for tests: JSON in, status + parsed body + headers out.
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
