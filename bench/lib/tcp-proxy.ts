// A TCP proxy on 127.0.0.1 in front of `target`: each connection accepted is paired with one of its
// own to the target, and `pipe` decides what passes between them. The bench's proxies in front of
// PostgreSQL (pg-wire.ts counts, delay-proxy.ts delays) share this plumbing.
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  /** 127.0.0.1 port to connect to instead of the target's. */
  port: number;
  close(): Promise<void>;
}

/** `pipe(client, upstream)` wires one accepted connection to its own connection to the target;
 *  either side closing or failing closes both. */
export async function startTcpProxy(target: { host: string; port: number }, pipe: (client: Socket, upstream: Socket) => void): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(target);
    sockets.add(client).add(upstream);
    const done = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', done).on('close', done);
    upstream.on('error', done).on('close', done);
    pipe(client, upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
