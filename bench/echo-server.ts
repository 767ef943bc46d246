// A bare grpc-js echo server in its own process (as gatehouse runs in its own process), for the
// consume benchmark's baseline. Prints {"port":N} when ready; exits on SIGTERM.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';

const pkg = grpc.loadPackageDefinition(protoLoader.loadSync(join(dirname(fileURLToPath(import.meta.url)), 'echo.proto'))) as any;
const server = new grpc.Server();
server.addService(pkg.bench.Echo.service, {
  Echo: (call: grpc.ServerUnaryCall<unknown, unknown>, cb: grpc.sendUnaryData<unknown>) => cb(null, call.request),
});
server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, port) => {
  if (err) throw err;
  process.stdout.write(JSON.stringify({ port }) + '\n');
});
process.once('SIGTERM', () => server.tryShutdown(() => process.exit(0)));
