// The queue over a real SQLite job store: jobs a feed hands (written held by the queue's own hold,
// as the outbox relay writes its deliveries) run first, as claims of this process, and what is due
// is claimed after them; a fed job is never claimed again while its lease lasts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { freshSqliteStores } from '../../test/helpers/stores.ts';
import type { StoreFixture } from '../../test/store/contract.ts';
import { T0 } from '../../test/store/contract.ts';
import { ManualClock } from '../lib/clock.ts';
import { createLogger } from '../lib/log.ts';
import type { Job, JobPolicy } from './model.ts';
import { CLAIM_BATCH, type ClaimContext, type ClaimedResult, createJobQueue } from './queue.ts';
import { newJob } from './retry.ts';

const KIND = 'test.kind';
const POLICY: JobPolicy = { baseDelayMs: 1000, maxDelayMs: 10_000, leaseMs: 60_000, lifetimeMs: 3_600_000, auditOutcome: false };

describe('the job queue fed jobs it holds', () => {
  let s: StoreFixture;
  before(async () => {
    s = await freshSqliteStores();
  });
  after(() => s.close());

  it('runs what the feed hands first, a claim at a time as this process holds it, until it hands none; then claims what is due', async () => {
    const clock = new ManualClock(T0);
    const runs: Array<{ ids: string[]; held: boolean[] }> = [];
    const queue = createJobQueue({
      store: s.jobs,
      clock,
      log: createLogger({ level: 'error', write: () => {} }),
      handlers: new Map([
        [
          KIND,
          {
            policy: POLICY,
            async runClaim(jobs: Job[], claim: ClaimContext): Promise<ClaimedResult[]> {
              runs.push({ ids: jobs.map((j) => j.id), held: jobs.map((j) => j.status === 'running' && j.leaseOwner === claim.owner && j.attempts === 1) });
              claim.attempted();
              return Promise.all(
                jobs.map(async (job) => ({
                  result: { kind: 'done' } as const,
                  finished: await s.jobs.finish(job.id, claim.owner, (j) => claim.decide(j, { kind: 'done' })),
                })),
              );
            },
          },
        ],
      ]),
    });
    const due = newJob(KIND, 'realm', { n: 'due' }, null, T0 - 1, POLICY);
    await s.jobs.enqueue(due);
    // Two batches, the first a full claim's worth, then nothing.
    const batches = [CLAIM_BATCH, 3];
    const fed: string[][] = [];
    let asked = 0;
    const feed = async (): Promise<Job[]> => {
      asked++;
      const n = batches.shift();
      if (n === undefined) return [];
      const held = Array.from({ length: n }, (_, i) => queue.hold(newJob(KIND, 'realm', { n: i }, null, T0, POLICY), T0));
      for (const job of held) await s.jobs.enqueue(job);
      fed.push(held.map((j) => j.id));
      return held;
    };

    assert.equal(await queue.runOnce(feed), CLAIM_BATCH + 3 + 1);
    assert.equal(asked, 3, 'asked until it handed none, not again');
    assert.deepEqual(
      runs.map((r) => r.ids),
      [...fed, [due.id]],
    );
    assert.ok(
      runs.slice(0, 2).every((r) => r.held.every(Boolean)),
      'each fed job run once, as held',
    );
    for (const id of [...fed.flat(), due.id]) assert.deepEqual([(await s.jobs.get(id))?.status, (await s.jobs.get(id))?.attempts], ['done', 1]);
    await queue.stop();
  });
});
