// `npm test`: every *.test.ts under test/, server/ and cli/, through Node's test runner, a folder's
// files in one process (a long folder's in a few) rather than one process per file. A process per file paid node's and tsx's
// start (~0.3 CPU-second) and, for an end-to-end file, loading the whole server again (~1 more):
// about a third of the suite's CPU, which on two cores is its time. In a folder's process the files
// run one after another, each as it would alone: its `describe`s, their hooks and its servers are
// its own (a hook at a file's top level would belong to the whole process, running before every
// file of the folder or after all of them: test/spine/test-files.test.ts refuses one). Three
// processes run at a time on two cores (a few files wait on real time with the CPU idle: a lease
// running out, a receiver's timeout), the longest first so that the last ones to finish are short.
//   npm test [-- <node --test options>]      e.g. npm test -- --test-name-pattern=refund
// One file alone, as before: node --import tsx --test test/points/holds-api.test.ts
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { filesUnder } from './helpers/files.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TEST_ROOTS = ['test', 'server', 'cli'];

/** Seconds the slowest files took alone (one sitting of the whole suite, file by file, on two
 *  cores): what the plan balances the processes by. Any other file counts DEFAULT_SECONDS, or
 *  UNIT_SECONDS beside the code (server/, cli/). A file missing here costs balance, nothing else. */
const SECONDS: Readonly<Record<string, number>> = {
  'test/events/webhook-waits.test.ts': 142,
  'test/events/webhook-replicas.test.ts': 42,
  'test/points/consume-model.test.ts': 32,
  'test/points/cli.test.ts': 30,
  'test/cli/first-use.test.ts': 29,
  'test/auth/account-deletion-purge.test.ts': 28,
  'test/cli/operator-cli.test.ts': 27,
  'test/pages/user-points.test.ts': 26,
  'test/security/transport-attacks.test.ts': 26,
  'test/pages/console.test.ts': 24,
  'test/reliability/workers.test.ts': 24,
  'test/cli/db-copy-live.test.ts': 20,
  'test/reliability/crash-safety.test.ts': 20,
  'test/billing/app-store.test.ts': 18,
  'test/events/webhook-outage.test.ts': 16,
  'test/cli/db-copy.test.ts': 14,
  'test/store/backends.test.ts': 14,
  'test/cli/webhooks-cli.test.ts': 13,
  'test/points/alerts-cli.test.ts': 13,
  'test/security/database-password.postgres.test.ts': 13,
  'test/points/concurrency.test.ts': 12,
  'test/spine/serve.test.ts': 12,
  'test/cli/admin-cli.test.ts': 11,
  'test/reliability/jwks-faults.test.ts': 11,
  'test/spine/process-lifecycle.test.ts': 11,
  'test/events/webhooks.test.ts': 10,
  'test/points/ledger-concurrency.test.ts': 10,
  'test/reliability/user-lock.postgres.test.ts': 10,
  'test/security/validation-attacks.test.ts': 10,
  'test/auth/deletion-races.test.ts': 9,
  'test/cli/billing.test.ts': 9,
  'test/security/secrets-at-rest.test.ts': 8,
  'test/events/webhook-misbehaving-memory.test.ts': 7,
  'test/points/idempotency-retention.test.ts': 6,
};
const DEFAULT_SECONDS = 3;
const UNIT_SECONDS = 0.5;
/** A folder's files are split into processes of about this many seconds. */
const PROCESS_SECONDS = 40;

const secondsOf = (f: string) => SECONDS[f] ?? (f.startsWith('test/') ? DEFAULT_SECONDS : UNIT_SECONDS);

/** Every test file under `dir` (relative to the repository), sorted. */
export const testFiles = (dir: string): string[] => filesUnder(ROOT, dir, (p) => p.endsWith('.test.ts'));

/** The processes of a run, each a list of test files, in the order they start (longest first, so
 *  the last to finish are short): a folder of test/ per process, the unit tests beside the code
 *  (server/…, cli/…) in one; a folder longer than PROCESS_SECONDS split into processes of about
 *  that, its longest files dealt first, each to the shortest process so far; every file once. */
export function plan(files: readonly string[]): string[][] {
  const folders = new Map<string, string[]>();
  for (const f of files) {
    const key = f.startsWith('test/') ? f.slice(0, f.lastIndexOf('/')) : 'unit';
    folders.set(key, [...(folders.get(key) ?? []), f]);
  }
  const processes: Array<{ files: string[]; seconds: number }> = [];
  for (const own of folders.values()) {
    const total = own.reduce((t, f) => t + secondsOf(f), 0);
    const split = Array.from({ length: Math.max(1, Math.round(total / PROCESS_SECONDS)) }, () => ({ files: [] as string[], seconds: 0 }));
    for (const f of [...own].sort((a, b) => secondsOf(b) - secondsOf(a))) {
      const p = split.reduce((min, q) => (q.seconds < min.seconds ? q : min));
      p.files.push(f);
      p.seconds += secondsOf(f);
    }
    for (const p of split) p.files.sort();
    processes.push(...split);
  }
  return processes
    .filter((p) => p.files.length > 0)
    .sort((a, b) => b.seconds - a.seconds)
    .map((p) => p.files);
}

async function main(): Promise<number> {
  const files = TEST_ROOTS.flatMap((r) => testFiles(r));
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-test-run-'));
  try {
    // Each process is a module importing its files in order (the runner takes files, not lists).
    const entries = plan(files).map((list, i) => {
      const name = list[0]!.startsWith('test/') ? list[0]!.split('/').slice(0, -1).join('-') : 'unit';
      const entry = join(dir, `${String(i + 1).padStart(2, '0')}-${name}.mjs`);
      writeFileSync(entry, `${list.map((f) => `await import(${JSON.stringify(pathToFileURL(join(ROOT, f)).href)});`).join('\n')}\n`);
      return entry;
    });
    const args = ['--import', 'tsx', '--test', '--test-concurrency=3', ...process.argv.slice(2), ...entries];
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: 'inherit' });
    // Ctrl-C reaches node's runner too: this process waits for it to end, then removes the folder.
    process.on('SIGINT', () => {});
    return await new Promise<number>((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && relative(ROOT, process.argv[1]) === join('test', 'run.ts')) process.exitCode = await main();
