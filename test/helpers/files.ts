// The repository's files under a folder, for the tests that read the tree and for the test runner.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The files under `dir` (relative to `root`, as returned) that `keep` takes, sorted; node_modules
 *  is not entered. */
export function filesUnder(root: string, dir: string, keep: (path: string) => boolean): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(join(root, d), { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'node_modules') walk(p);
      } else if (keep(p)) out.push(p);
    }
  };
  walk(dir);
  return out.sort();
}
