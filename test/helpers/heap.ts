// The live heap of this process (where a test's in-process server runs), for the tests that show
// the webhook queue keeps nothing per attempt in memory: the heap after full collections, and the
// share of it the test itself grows (the server's log, kept as one string).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** The characters of the server's log so far, which the test helper keeps as one string (grown
 *  line by line). Searching it makes V8 flatten it into one string of a byte per character, so
 *  after a GC it takes its length in heap. */
export const logChars = (logs: string) => (logs.indexOf('\u0000'), logs.length);

/** Heap in use after full collections, in MiB. */
export function liveHeapMiB(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
}
