// A TCP proxy that holds every chunk for a fixed time in each direction: a database on another
// host, `oneWayMs` away, for a bench that runs everything on one machine. Chunks keep their order
// (each direction is a queue released by one timer at a time).
import type { Socket } from 'node:net';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.ts';

export function startDelayProxy(target: { host: string; port: number }, oneWayMs: number): Promise<TcpProxy> {
  return startTcpProxy(target, (client, upstream) => {
    // Each held chunk is written as soon as it is due (Nagle's algorithm would hold it further for
    // the peer's delayed ACK).
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    client.on('data', delayed(upstream, oneWayMs));
    upstream.on('data', delayed(client, oneWayMs));
  });
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
