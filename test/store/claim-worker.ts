// A process claiming every due job of a kind from the database at argv[2] (a SQLite file or a
// postgres:// URL), one at a time, until none is left; prints the ids it claimed as JSON. It says
// "ready" once its stores are open and starts claiming when a line arrives on stdin, so the test
// starts two such processes claiming together.
import { claimed } from '../../server/jobs/retry.ts';
import { openStoresAt } from '../helpers/stores.ts';

const [db, owner, kind, at] = process.argv.slice(2) as [string, string, string, string];
const now = Number(at);
const policy = { baseDelayMs: 1000, maxDelayMs: 1000, leaseMs: 3_600_000, lifetimeMs: 3_600_000, auditOutcome: false };
const stores = await openStoresAt(db);
const ids: string[] = [];
process.stdout.write('ready\n');
await new Promise((r) => process.stdin.once('data', r));
process.stdin.destroy();
try {
  for (;;) {
    const jobs = await stores.jobs.claim(now, 1, [kind], (j) => claimed(j, owner, now, policy));
    if (jobs.length === 0) break;
    ids.push(...jobs.map((j) => j.id));
  }
} finally {
  await stores.close();
}
process.stdout.write(JSON.stringify(ids) + '\n');
