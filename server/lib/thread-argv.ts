// The node options a worker thread of ours starts with: the process's diagnostic ones (a CPU or heap
// profile, warnings, source maps), which apply to the threads as to the process, and nothing else.
// Not the module loaders (`--import tsx`: the threads run plain JavaScript, and tsx would load again
// in each of them), and not V8's or the process's own options (`--max-old-space-size`, `--trace-gc`,
// `--title`): `new Worker` refuses those (ERR_WORKER_INVALID_EXEC_ARGV, nodejs.org/api/worker_threads.html
// "execArgv"), which would stop a server started as `node --max-old-space-size=512 bin/gatehouse serve`.
const KEPT = new Set(['--cpu-prof', '--heap-prof', '--enable-source-maps', '--no-warnings', '--trace-warnings', '--trace-uncaught']);
/** Kept options whose value may follow as the next argument. */
const KEPT_WITH_VALUE = new Set([
  '--cpu-prof-dir',
  '--cpu-prof-name',
  '--cpu-prof-interval',
  '--heap-prof-dir',
  '--heap-prof-name',
  '--heap-prof-interval',
  '--diagnostic-dir',
]);

export function threadExecArgv(argv: readonly string[] = process.execArgv): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const eq = a.indexOf('=');
    const name = eq === -1 ? a : a.slice(0, eq);
    if (KEPT.has(name)) out.push(a);
    else if (KEPT_WITH_VALUE.has(name)) {
      out.push(a);
      if (eq === -1 && i + 1 < argv.length) out.push(argv[++i]!);
    }
    // Anything else is dropped, and a value of its own that follows it (not an option) with it.
  }
  return out;
}
