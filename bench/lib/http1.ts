// A lean HTTP/1.1 load client (what wrk or autocannon do, in a few lines): keep-alive sockets, one
// request in flight per socket, responses framed by Content-Length. node:http's client costs
// ~150 µs of this machine's CPU per request — as much as half a login — and the load generator
// shares the machine with the server it measures; this one costs a fraction of that, so the
// benchmark measures the server rather than its client. Responses must carry Content-Length
// (gatehouse's and the baselines' do); anything else fails the call.
import { connect, type Socket } from 'node:net';
import { type LoadResult, runLoad } from './load.ts';

export interface Http1Conn {
  /** POSTs `body` (JSON) to `path`; resolves with the status code. */
  post(path: string, body: string): Promise<number>;
  close(): void;
}

const CRLF2 = Buffer.from('\r\n\r\n');

export async function http1Connect(base: string): Promise<Http1Conn> {
  const u = new URL(base);
  const socket: Socket = await new Promise((resolve, reject) => {
    const s = connect({ host: u.hostname, port: Number(u.port), noDelay: true }, () => resolve(s));
    s.once('error', reject);
  });
  let pending: { resolve(status: number): void; reject(e: Error): void } | null = null;
  let buf: Buffer = Buffer.alloc(0);
  const fail = (e: Error) => {
    const p = pending;
    pending = null;
    p?.reject(e);
  };
  socket.on('error', fail);
  socket.on('close', () => fail(new Error('connection closed')));
  socket.on('data', (chunk: Buffer) => {
    buf = buf.length === 0 ? chunk : Buffer.concat([buf, chunk]);
    const end = buf.indexOf(CRLF2);
    if (end < 0) return;
    const head = buf.toString('latin1', 0, end);
    const status = Number(head.slice(9, 12));
    const m = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    if (!m) return fail(new Error(`response without Content-Length: ${head.split('\r\n')[0]}`));
    const total = end + 4 + Number(m[1]);
    if (buf.length < total) return;
    buf = buf.subarray(total);
    const p = pending;
    pending = null;
    p?.resolve(status);
  });
  return {
    post(path, body) {
      if (pending) return Promise.reject(new Error('one request at a time per connection'));
      return new Promise<number>((resolve, reject) => {
        pending = { resolve, reject };
        socket.write(`POST ${path} HTTP/1.1\r\nHost: ${u.host}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      });
    },
    close() {
      socket.destroy();
    },
  };
}

/** `count` POSTs of `body(i)` to `path` over `concurrency` fresh keep-alive connections (closed
 *  loop, runLoad's accounting); a call succeeds when the status is `want`. Several bases (replicas
 *  of one service) share the connections evenly. */
export async function http1Load(
  base: string | string[],
  path: string,
  count: number,
  concurrency: number,
  body: (i: number) => string,
  want = 200,
): Promise<LoadResult> {
  const bases = Array.isArray(base) ? base : [base];
  const free = await Promise.all(Array.from({ length: concurrency }, (_, i) => http1Connect(bases[i % bases.length]!)));
  const all = [...free];
  try {
    return await runLoad(count, concurrency, async (i) => {
      const c = free.pop()!;
      try {
        return (await c.post(path, body(i))) === want;
      } finally {
        free.push(c);
      }
    });
  } finally {
    for (const c of all) c.close();
  }
}
