// A TCP port on 127.0.0.1 nothing listens on now, for a process the test starts with a port of its
// own choosing (a PostgreSQL cluster, a documented example that reads PORT).
import { createServer } from 'node:net';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}
