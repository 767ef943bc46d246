// An opt-in span timer for choosing the next optimisation from data. With
// GATEHOUSE_PROFILE=1 the server adds each span's wall time (performance.now) to a per-name total
// and, when the process exits (SIGTERM → clean shutdown → 'exit'), writes one stderr line
// `{"profile":{name:{count,totalMs,meanUs}}}`. Off (the default), `spanStart` returns 0 and
// `spanEnd` returns at its first test: one branch on a module constant per span, no allocation.
// Spans belong to the layers every call crosses, never to handlers or domain code:
//   `http <method path>`, `grpc <method path>`  each call, from the moment its transport took it to
//       its outcome (rpc/chain.ts); the bench derives "transport" as the client's latency at
//       concurrency 1 minus this span
//   `access.api_key`, `access.user_token`      the credential check of a call
//   `db.transaction`, `db.commit`              a group-commit batch, BEGIN to COMMIT, and its COMMIT
//   `crypto.verify`, `crypto.sign`             a signature job, from submission to its answer
// SIGUSR2 writes the totals so far (the same line) and resets them: the bench sends it between phases.
import { writeSync } from 'node:fs';

export const PROFILING = process.env.GATEHOUSE_PROFILE === '1';

const totals = new Map<string, { count: number; total: number }>();

export function spanStart(): number {
  return PROFILING ? performance.now() : 0;
}

export function spanEnd(name: string, start: number): void {
  if (!PROFILING) return;
  const d = performance.now() - start;
  const t = totals.get(name);
  if (t) {
    t.count++;
    t.total += d;
  } else totals.set(name, { count: 1, total: d });
}

/** Times a synchronous function as one span (profiling on) or just calls it (off). */
export function span<T>(name: string, fn: () => T): T {
  if (!PROFILING) return fn();
  const s = performance.now();
  try {
    return fn();
  } finally {
    spanEnd(name, s);
  }
}

export function profileSnapshot(): Record<string, { count: number; totalMs: number; meanUs: number }> {
  const out: Record<string, { count: number; totalMs: number; meanUs: number }> = {};
  for (const [k, v] of totals)
    out[k] = { count: v.count, totalMs: Math.round(v.total * 1000) / 1000, meanUs: Math.round((v.total / v.count) * 1000 * 10) / 10 };
  return out;
}

const writeTotals = () => writeSync(2, JSON.stringify({ profile: profileSnapshot() }) + '\n');
if (PROFILING) {
  process.on('SIGUSR2', () => {
    writeTotals();
    totals.clear();
  });
  process.once('exit', writeTotals);
}
