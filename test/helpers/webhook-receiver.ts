// A webhook receiver on loopback for tests: it keeps every request it is sent and answers as its
// mode says (a 204, at once or after a delay, a 500, nothing, a redirect, 10 MiB, a reset connection).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Mode = 'ok' | '500' | 'hang' | 'redirect' | 'huge' | 'reset';
export interface Received {
  headers: Record<string, string>;
  body: string;
}

/** A receiver on loopback answering as its mode says, keeping what it was sent. */
export async function receiver(): Promise<{
  url: string;
  mode: Mode;
  received: Received[];
  /** Where and with which 3xx status the `redirect` mode sends the sender (a link-local address
   *  and 302 unless told). */
  redirect: { location: string; status: number };
  /** How long the `ok` mode waits before its 204, in ms (0 unless told). */
  delayMs: number;
  /** Resolves once `n` requests have been received in all (answered or not). */
  receivedCount(n: number): Promise<void>;
  close(): Promise<void>;
}> {
  const state = { mode: 'ok' as Mode, delayMs: 0, received: [] as Received[], redirect: { location: 'http://169.254.169.254/', status: 302 } };
  let waiters: Array<{ n: number; resolve: () => void }> = [];
  const receivedCount = (n: number) => (state.received.length >= n ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ n, resolve })));
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.setEncoding('utf8').on('data', (d: string) => (body += d));
    req.on('end', () => {
      state.received.push({ headers: req.headers as Record<string, string>, body });
      for (const w of waiters) if (state.received.length >= w.n) w.resolve();
      waiters = waiters.filter((w) => state.received.length < w.n);
      switch (state.mode) {
        case 'ok':
          if (state.delayMs > 0) return void setTimeout(() => res.writeHead(204).end(), state.delayMs);
          return void res.writeHead(204).end();
        case '500':
          return void res.writeHead(500).end('down');
        case 'hang':
          return; // never answers
        case 'redirect':
          return void res.writeHead(state.redirect.status, { location: state.redirect.location }).end();
        case 'huge': {
          res.writeHead(500, { 'content-type': 'text/plain' });
          const chunk = Buffer.alloc(1024 * 1024, 'x');
          for (let i = 0; i < 10; i++) res.write(chunk);
          return void res.end();
        }
        case 'reset':
          return void req.socket.destroy();
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    get mode() {
      return state.mode;
    },
    set mode(m: Mode) {
      state.mode = m;
    },
    get delayMs() {
      return state.delayMs;
    },
    set delayMs(ms: number) {
      state.delayMs = ms;
    },
    received: state.received,
    redirect: state.redirect,
    receivedCount,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
