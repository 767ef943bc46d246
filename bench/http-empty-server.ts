// A bare node:http server in its own process (as gatehouse runs in its own process): it reads the
// request body and answers 200 with a fixed JSON body of the size given in argv[2]. The login
// benchmark's transport floor — what one loopback HTTP exchange costs with no work behind it.
// Prints {"port":N} when ready; exits on SIGTERM.
import { createServer } from 'node:http';

const size = Number(process.argv[2] ?? 600);
const body = JSON.stringify({ pad: 'x'.repeat(Math.max(0, size - 10)) });
const server = createServer((req, res) => {
  req.on('data', () => {});
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(body)), 'cache-control': 'no-store' });
    res.end(body);
  });
});
server.keepAliveTimeout = 5_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(JSON.stringify({ port: (server.address() as { port: number }).port }) + '\n');
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
