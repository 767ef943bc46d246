// Two processes claiming from one queue at once (on a SQLite file, and on PostgreSQL): every job is claimed, and by one process only, while its lease holds.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { newJob } from '../../server/jobs/retry.ts';
import { describeEachBackend } from '../helpers/backends.ts';
import { newDatabase, ROOT, tempDir } from '../helpers/server.ts';
import { withStores } from '../helpers/stores.ts';
import { T0 } from './contract.ts';

const KIND = 'test.claims';
const JOBS = 400;

describeEachBackend('the job queue claimed by two processes', (backend) => {
  const dir = tempDir();
  let db: Awaited<ReturnType<typeof newDatabase>>;
  const ids: string[] = [];
  before(async () => {
    db = await newDatabase(dir, backend);
    await withStores(db.dbPath, async (s) => {
      assert.equal(await s.admin.createRealm({ id: 'q', name: 'q', createdAt: T0 }), true);
      for (let i = 0; i < JOBS; i++) {
        const j = newJob(KIND, 'q', { i }, null, T0, { baseDelayMs: 1, maxDelayMs: 1, leaseMs: 1, lifetimeMs: 1, auditOutcome: false });
        await s.jobs.enqueue(j);
        ids.push(j.id);
      }
    });
  });
  after(async () => {
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('claims every job once: no job is held by both', async () => {
    const worker = join(ROOT, 'test', 'store', 'claim-worker.ts');
    const workers = ['a', 'b'].map((owner) => {
      const proc = spawn(process.execPath, ['--import', 'tsx', worker, db.dbPath, owner, KIND, String(T0 + 1000)], {
        cwd: ROOT,
        env: process.env,
        stdio: ['pipe', 'pipe', 'inherit'],
      });
      let out = '';
      proc.stdout.setEncoding('utf8');
      const ready = new Promise<void>((resolve) => {
        proc.stdout.on('data', (chunk: string) => {
          out += chunk;
          if (out.startsWith('ready\n')) resolve();
        });
      });
      // 'close': its output has all been read.
      const closed = once(proc, 'close');
      return { proc, ready: Promise.race([ready, closed.then(() => assert.fail(`worker ${owner} ended before it was ready`))]), closed, out: () => out };
    });
    // Both start claiming together, once each has loaded and opened its stores.
    await Promise.all(workers.map((w) => w.ready));
    for (const w of workers) w.proc.stdin.end('go\n');
    const [a, b] = await Promise.all(
      workers.map(async (w) => {
        const [code] = await w.closed;
        assert.equal(code, 0);
        return JSON.parse(w.out().slice('ready\n'.length)) as string[];
      }),
    );
    // How the jobs split between the two is the scheduler's; what must hold is below.
    assert.equal(new Set([...a!, ...b!]).size, a!.length + b!.length, 'no job claimed twice');
    assert.deepEqual([...a!, ...b!].sort(), [...ids].sort(), 'every job claimed');
    await withStores(db.dbPath, async (s) => {
      for (const id of a!.slice(0, 5)) assert.equal((await s.jobs.get(id))?.leaseOwner, 'a');
      for (const id of b!.slice(0, 5)) assert.equal((await s.jobs.get(id))?.leaseOwner, 'b');
    });
  });
});
