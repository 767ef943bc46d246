// The node options a worker thread of ours starts with: the process's, less the module loaders
// (`--import`, `--require`, `--loader`, `--experimental-loader`). The threads run plain JavaScript
// and need no tsx, which a process under `node --import tsx` would load again in each of them;
// the rest (a CPU profile's `--cpu-prof`, heap options) applies to them as to the process.
const LOADERS = new Set(['--import', '--require', '-r', '--loader', '--experimental-loader']);

export function threadExecArgv(argv: readonly string[] = process.execArgv): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const eq = a.indexOf('=');
    if (LOADERS.has(eq === -1 ? a : a.slice(0, eq))) {
      if (eq === -1) i++; // its value is the next argument
      continue;
    }
    out.push(a);
  }
  return out;
}
