// Two processes claiming from one queue at once (on a SQLite file, or on PostgreSQL in
// job-claims.postgres.test.ts): every job is claimed, and by one process only, while its lease holds.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { newJob } from '../../server/jobs/retry.ts';
import { newDatabase, ROOT, tempDir } from '../helpers/server.ts';
import { withStores } from '../helpers/stores.ts';
import { T0 } from './contract.ts';

const run = promisify(execFile);
const KIND = 'test.claims';
const JOBS = 400;

describe('the job queue claimed by two processes', () => {
  const dir = tempDir();
  let db: Awaited<ReturnType<typeof newDatabase>>;
  const ids: string[] = [];
  before(async () => {
    db = await newDatabase(dir);
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
    // Both start claiming at the same instant, once each has loaded.
    const startAt = String(Date.now() + 8000);
    const outs = await Promise.all(
      ['a', 'b'].map((owner) =>
        run(process.execPath, ['--import', 'tsx', worker, db.dbPath, owner, KIND, String(T0 + 1000), startAt], { cwd: ROOT, env: process.env }),
      ),
    );
    const [a, b] = outs.map((o) => JSON.parse(o.stdout) as string[]);
    assert.ok(a!.length > 0 && b!.length > 0, `both claimed (${a!.length} and ${b!.length})`);
    assert.equal(new Set([...a!, ...b!]).size, a!.length + b!.length, 'no job claimed twice');
    assert.deepEqual([...a!, ...b!].sort(), [...ids].sort(), 'every job claimed');
    await withStores(db.dbPath, async (s) => {
      for (const id of a!.slice(0, 5)) assert.equal((await s.jobs.get(id))?.leaseOwner, 'a');
      for (const id of b!.slice(0, 5)) assert.equal((await s.jobs.get(id))?.leaseOwner, 'b');
    });
  });
});
