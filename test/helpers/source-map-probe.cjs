// Preloaded into a `gatehouse serve` by test/spine/source-maps.test.ts (node --require): once the
// server has loaded its modules, prints which source maps node kept and a stack thrown in
// TypeScript, then ends the process.
const { findSourceMap } = require('node:module');
const { join } = require('node:path');

const root = join(__dirname, '..', '..');
const timer = setInterval(() => {
  const grpc = Object.keys(require.cache).find((f) => /[\\/]node_modules[\\/]@grpc[\\/]grpc-js[\\/]build[\\/]src[\\/]server\.js$/.test(f));
  const ours = join(root, 'server', 'lib', 'http-request.ts');
  if (!grpc || !require.cache[ours]) return; // not loaded yet
  clearInterval(timer);
  require(ours)
    .httpRequest('ftp://example.invalid/')
    .catch((e) => {
      process.stdout.write(
        `${JSON.stringify({ ours: findSourceMap(ours) !== undefined, grpc: findSourceMap(grpc) !== undefined, frame: e.stack.split('\n')[1].trim() })}\n`,
      );
      process.exit(0);
    });
}, 20);
