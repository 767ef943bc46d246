// A TCP proxy that holds every chunk for a fixed time in each direction: a database on another
// host, `oneWayMs` away, for a bench that runs everything on one machine. Chunks keep their order
// (each direction is a queue released by one timer at a time).
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface DelayProxy {
  /** 127.0.0.1 port to connect to instead of the target's. */
  port: number;
  close(): Promise<void>;
}

export async function startDelayProxy(target: { host: string; port: number }, oneWayMs: number): Promise<DelayProxy> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(target);
    // Each held chunk is written as soon as it is due (Nagle's algorithm would hold it further for
    // the peer's delayed ACK).
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    sockets.add(client).add(upstream);
    const done = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', done).on('close', done);
    upstream.on('error', done).on('close', done);
    client.on('data', delayed(upstream, oneWayMs));
    upstream.on('data', delayed(client, oneWayMs));
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

/** A writer to `to` that delivers each chunk `ms` after it arrived, in arrival order. */
function delayed(to: Socket, ms: number): (chunk: Buffer) => void {
  const queue: Array<{ due: number; chunk: Buffer }> = [];
  let armed = false;
  const release = () => {
    const now = performance.now();
    while (queue.length > 0 && queue[0]!.due <= now) to.write(queue.shift()!.chunk);
    armed = queue.length > 0;
    if (armed) setTimeout(release, queue[0]!.due - now);
  };
  return (chunk) => {
    queue.push({ due: performance.now() + ms, chunk });
    if (armed) return;
    armed = true;
    setTimeout(release, ms);
  };
}
