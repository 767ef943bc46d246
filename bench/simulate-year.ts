// The simulator's speed (a simulated year of one call a minute should finish in seconds),
// measured as operators run it: the real CLI as a child process, 525 601 consumes on the real
// engine over an in-memory database. Checked here, in the bench, not by a timed test.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../test/helpers/server.ts';

export interface SimulateYearResult {
  seconds: number;
  requests: number;
  consumesPerSecond: number;
}

export function simulateYear(): SimulateYearResult {
  const started = performance.now();
  const r = spawnSync(
    process.execPath,
    [
      join(ROOT, 'bin', 'gatehouse'),
      'simulate',
      '--window',
      '5h=100',
      '--window',
      '1w=2000',
      '--pool',
      'topup=100000',
      '--every',
      '1m',
      '--duration',
      '1y',
      '--json',
    ],
    {
      cwd: ROOT,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      timeout: 180_000,
    },
  );
  const seconds = (performance.now() - started) / 1000;
  if (r.status !== 0) throw new Error(`simulate failed (${r.status}): ${r.stderr}`);
  const out = JSON.parse(r.stdout) as { requests: number };
  return { seconds: Math.round(seconds * 100) / 100, requests: out.requests, consumesPerSecond: Math.round(out.requests / seconds) };
}

if (process.argv[1] && process.argv[1].endsWith('simulate-year.ts')) {
  const res = simulateYear();
  process.stdout.write(`simulate: a year of one call a minute (${res.requests} calls) in ${res.seconds} s (${res.consumesPerSecond}/s)\n`);
}
