import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import * as clock from './clock.ts';
import { moduleLoader } from './load-module.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

describe('moduleLoader', () => {
  it('loads a module relative to its importer, the very module a static import gave (ES modules, as the tests run)', async () => {
    const load = moduleLoader(import.meta.url);
    const loaded = await load<typeof import('./clock.ts')>('./clock.ts');
    assert.equal(loaded.systemClock, clock.systemClock);
    const fromElsewhere = moduleLoader(new URL('../points/state.ts', import.meta.url).href);
    assert.equal((await fromElsewhere<typeof import('./clock.ts')>('../lib/clock.ts')).systemClock, clock.systemClock);
    await assert.rejects(load('./no-such-module.ts'));
  });

  it('loads through require when the code runs as CommonJS (bin/gatehouse): the module the require hook gave, once', async () => {
    // A child process as bin/gatehouse starts: tsx's require hook alone, no module hooks.
    const script = `
      require('tsx/cjs/api').register();
      const { moduleLoader } = require('./server/lib/load-module.ts');
      const direct = require('./server/lib/clock.ts');
      moduleLoader(require('node:url').pathToFileURL(require('node:path').resolve('server/lib/x.ts')).href)('./clock.ts').then(
        (m) => process.stdout.write(JSON.stringify({ same: m.systemClock === direct.systemClock })),
        (e) => process.stdout.write(JSON.stringify({ error: e.message })),
      );`;
    const { stdout } = await promisify(execFile)(process.execPath, ['-e', script], { cwd: ROOT });
    assert.deepEqual(JSON.parse(stdout), { same: true });
  });
});
