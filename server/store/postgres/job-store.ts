// PostgreSQL implementation of JobStore, the twin of store/job-store.ts. A claim locks the due rows
// it takes with FOR UPDATE SKIP LOCKED: replicas claiming together each take other jobs instead of
// waiting for one another, and the lease keeps a job theirs once the claim commits.
import type { SecretBox } from '../../crypto/secrets.ts';
import type { Job, JobStatus } from '../../jobs/model.ts';
import { type AttemptOutcome, isDue } from '../../jobs/retry.ts';
import type { JobStore } from '../../jobs/store.ts';
import { dueSql, insertSql, JOB_COLUMNS, type JobRow, jobStateValues, jobValues, toJob, updateJobStateSql } from '../record-rows.ts';
import { writeEmitted } from './records.ts';
import { inTransaction, query, type TxContext } from './tx.ts';

const dollar = (n: number) => `$${n}`;

const SQL = {
  insert: insertSql('jobs', JOB_COLUMNS, dollar),
  anyDue: `SELECT 1 FROM jobs WHERE ${dueSql('$1')} AND kind = ANY($2::text[]) LIMIT 1`,
  due: `SELECT * FROM jobs WHERE ${dueSql('$1')} AND kind = ANY($3::text[]) ORDER BY coalesce(lease_until, run_at), id COLLATE "C" LIMIT $2
    FOR UPDATE SKIP LOCKED`,
  dueOne: `SELECT * FROM jobs WHERE id = $2 AND ${dueSql('$1')} AND kind = ANY($3::text[]) FOR UPDATE SKIP LOCKED`,
  get: 'SELECT * FROM jobs WHERE id = $1',
  lock: 'SELECT * FROM jobs WHERE id = $1 FOR UPDATE',
  update: updateJobStateSql(dollar),
  list: `SELECT * FROM jobs WHERE realm_id = $1 AND ($2::text IS NULL OR kind = $2) AND ($3::text IS NULL OR status = $3)
    ORDER BY created_at DESC, id COLLATE "C" DESC LIMIT $4`,
};

export class PostgresJobStore implements JobStore {
  constructor(
    private readonly ctx: TxContext,
    private readonly secrets: SecretBox,
  ) {}

  async enqueue(job: Job): Promise<void> {
    await inTransaction(this.ctx, 'enqueueJob', (tx) => tx.run(SQL.insert, jobValues(job, this.secrets)));
  }

  async anyDue(now: number, kinds: readonly string[]): Promise<boolean> {
    return (await query(this.ctx.pool, SQL.anyDue, [now, kinds])).length > 0;
  }

  claim(now: number, limit: number, kinds: readonly string[], claim: (job: Job) => Job, onlyId?: string): Promise<Job[]> {
    return inTransaction(this.ctx, 'claimJobs', async (tx) => {
      const rows = onlyId === undefined ? await tx.rows<JobRow>(SQL.due, [now, limit, kinds]) : await tx.rows<JobRow>(SQL.dueOne, [now, onlyId, kinds]);
      return rows
        .map((r) => toJob(r, this.secrets))
        .filter((j) => isDue(j, now))
        .map((j) => {
          const held = claim(j);
          tx.run(SQL.update, [...jobStateValues(held), held.id]);
          return held;
        });
    });
  }

  finish(id: string, owner: string, decide: (job: Job) => AttemptOutcome): Promise<boolean> {
    return inTransaction(this.ctx, 'finishJob', async (tx) => {
      const row = await tx.row<JobRow>(SQL.lock, [id]);
      if (!row || row.status !== 'running' || row.lease_owner !== owner) return false;
      const outcome = decide(toJob(row, this.secrets));
      tx.run(SQL.update, [...jobStateValues(outcome.job), id]);
      writeEmitted(tx, { events: [], audit: outcome.audit ? [outcome.audit] : [], jobs: [] }, this.secrets);
      return true;
    });
  }

  async get(id: string): Promise<Job | null> {
    const [r] = await query<JobRow>(this.ctx.pool, SQL.get, [id]);
    return r ? toJob(r, this.secrets) : null;
  }

  async list(realmId: string, opts: { kind?: string; status?: JobStatus; limit: number }): Promise<Job[]> {
    const rows = await query<JobRow>(this.ctx.pool, SQL.list, [realmId, opts.kind ?? null, opts.status ?? null, opts.limit]);
    return rows.map((r) => toJob(r, this.secrets));
  }
}
