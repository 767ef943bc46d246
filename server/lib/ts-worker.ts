// Worker threads run TypeScript modules of ours through tsx, as bin/gatehouse runs the CLI. A worker
// does not inherit the main thread's module hooks, so a two-line bootstrap registers tsx there
// first; both are passed as absolute URLs, so workers start from any working directory.
import { Worker } from 'node:worker_threads';

const TSX_API = import.meta.resolve('tsx/esm/api');
const BOOTSTRAP = `const { workerData } = require('node:worker_threads');
import(workerData.tsx).then((tsx) => { tsx.register(); return import(workerData.entry); });`;

/** A worker running the module at `entry` (a file URL); `data` reaches it as workerData.data. */
export function startTsWorker(entry: URL, data?: unknown): Worker {
  return new Worker(BOOTSTRAP, { eval: true, workerData: { tsx: TSX_API, entry: entry.href, data } });
}
