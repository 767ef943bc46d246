// How many calls the process is serving, whichever transport carried them (the call chain counts
// them: rpc/chain.ts). One event loop serves them all, so this says whether calls compete for it:
// what decides whether moving a signature to the signature thread frees the loop for another call
// or only adds the thread's hop (crypto/offload.ts).
let count = 0;
let lastOverlap = -Infinity;

/** How long after two calls last overlapped the loop still counts as shared: calls that come in
 *  turns (a client with two in flight) leave moments with one call in flight, which are not quiet. */
const QUIET_AFTER_MS = 100;

/** `now`: performance.now() (the tests give it), read only when calls overlap. */
export function callStarted(now?: number): void {
  if (++count > 1) lastOverlap = now ?? performance.now();
}

export function callEnded(): void {
  count--;
}

export const callsInFlight = (): number => count;

/** Whether calls have been served one at a time for the last QUIET_AFTER_MS: nothing else waits
 *  for the event loop, nor is likely to in the next few milliseconds. */
export function oneCallAtATime(now?: number): boolean {
  return count <= 1 && (now ?? performance.now()) - lastOverlap > QUIET_AFTER_MS;
}
