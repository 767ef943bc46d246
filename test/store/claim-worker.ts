// A process claiming every due job of a kind from the database at argv[2] (a SQLite file or a
// postgres:// URL), one at a time from the instant argv[6] on (so two such processes start
// together), until none is left; prints the ids it claimed as JSON.
import { claimed } from '../../server/jobs/retry.ts';
import { openStoresAt } from '../helpers/stores.ts';

const [db, owner, kind, at, startAt] = process.argv.slice(2) as [string, string, string, string, string];
const now = Number(at);
const policy = { baseDelayMs: 1000, maxDelayMs: 1000, leaseMs: 3_600_000, lifetimeMs: 3_600_000, auditOutcome: false };
const stores = await openStoresAt(db);
const ids: string[] = [];
await new Promise((r) => setTimeout(r, Math.max(0, Number(startAt) - Date.now())));
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
