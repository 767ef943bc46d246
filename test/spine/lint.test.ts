// The formatter and linter (biome.json) over the whole tree, so `npm test` — what CI runs — fails
// on code that `npm run lint` would refuse. `npm run format` applies the formatting and safe fixes.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT } from '../helpers/server.ts';

test('the tree passes biome check (format and lint)', async () => {
  const biome = join(ROOT, 'node_modules', '.bin', 'biome');
  const out = await new Promise<{ code: number; text: string }>((resolve) =>
    execFile(biome, ['check', '--colors=off', '.'], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, text: `${stdout}${stderr}` }),
    ),
  );
  assert.equal(out.code, 0, `npm run lint finds problems (npm run format fixes the formatting):\n${out.text.slice(0, 8000)}`);
});
