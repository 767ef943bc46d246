// SQLite implementation of JobStore. A claim is one BEGIN IMMEDIATE unit (immediate()): the write
// lock is taken before the due jobs are read, so two processes on one file never claim the same
// job, and the lease keeps it theirs until it runs out.
import type { SecretBox } from '../../crypto/secrets.ts';
import type { Job, JobStatus } from '../../jobs/model.ts';
import { type AttemptOutcome, isDue } from '../../jobs/retry.ts';
import type { JobStore } from '../../jobs/store.ts';
import { perObject } from '../../lib/memo.ts';
import {
  DUE_AT_SQL,
  dueSql,
  insertSql,
  JOB_COLUMNS,
  JOB_STATE_COLUMNS,
  type JobRow,
  jobStateValues,
  jobValues,
  pruneFinishedJobsSql,
  toJob,
  updateJobStateSql,
} from '../record-rows.ts';
import { type Db, immediate } from './open.ts';
import { recordWriter } from './records.ts';

const finishStatementsOf = perObject((db: Db) => ({
  get: db.prepare('SELECT * FROM jobs WHERE id = ?'),
  // The new states as a JSON array of [id, …JOB_STATE_COLUMNS], each job found by its primary key;
  // written only over the claim that decided it (a later claim of the same owner counts one more
  // attempt).
  updateHeld: db
    .prepare(
      `UPDATE jobs SET ${JOB_STATE_COLUMNS.map((c, i) => `${c} = u.value ->> ${i + 1}`).join(', ')} FROM json_each(?) AS u
      WHERE jobs.id = u.value ->> 0 AND jobs.status = 'running' AND jobs.lease_owner = ?
        AND jobs.attempts = u.value ->> ${JOB_STATE_COLUMNS.indexOf('attempts') + 1} RETURNING jobs.id`,
    )
    .pluck(),
}));

/** Applies `decide(job)` to a job `owner` still holds, with the audit record of its end, inside the
 *  caller's transaction (immediate()); false (nothing written) when the lease was lost. */
function finishHeldJob(db: Db, secrets: SecretBox, id: string, owner: string, decide: (job: Job) => AttemptOutcome): boolean {
  const row = finishStatementsOf(db).get.get(id) as JobRow | undefined;
  if (!row || row.status !== 'running' || row.lease_owner !== owner) return false;
  return finishHeldJobs(db, secrets, owner, [decide(toJob(row, secrets))])[0]!;
}

/** Writes each outcome, decided on its job as `owner` holds it, where `owner` still does, with the
 *  audit records of those it wrote, in one statement inside the caller's transaction; per outcome,
 *  whether it was written (false: the lease was lost, the job as another replica left it). */
export function finishHeldJobs(db: Db, secrets: SecretBox, owner: string, outcomes: readonly AttemptOutcome[]): boolean[] {
  if (outcomes.length === 0) return [];
  const states = outcomes.map((o) => [o.job.id, ...jobStateValues(o.job)]);
  const written = new Set(finishStatementsOf(db).updateHeld.all(JSON.stringify(states), owner) as string[]);
  const audit = outcomes.flatMap((o) => (o.audit && written.has(o.job.id) ? [o.audit] : []));
  if (audit.length > 0) recordWriter(db, secrets)({ events: [], audit, jobs: [] });
  return outcomes.map((o) => written.has(o.job.id));
}

export class SqliteJobStore implements JobStore {
  private readonly s;

  constructor(
    private readonly db: Db,
    private readonly secrets: SecretBox,
  ) {
    this.s = {
      insert: db.prepare(insertSql('jobs', JOB_COLUMNS, () => '?')),
      anyDue: db.prepare(`SELECT 1 FROM jobs WHERE ${dueSql('@now')} AND kind IN (SELECT value FROM json_each(@kinds)) LIMIT 1`).pluck(),
      due: db.prepare(`SELECT * FROM jobs WHERE ${dueSql('@now')} AND kind IN (SELECT value FROM json_each(@kinds)) ORDER BY ${DUE_AT_SQL}, id LIMIT @limit`),
      dueOne: db.prepare(`SELECT * FROM jobs WHERE id = @id AND ${dueSql('@now')} AND kind IN (SELECT value FROM json_each(@kinds))`),
      get: db.prepare('SELECT * FROM jobs WHERE id = ?'),
      update: db.prepare(updateJobStateSql(() => '?')),
      pruneFinished: db.prepare(pruneFinishedJobsSql(() => '?')),
      list: db.prepare(`SELECT * FROM jobs WHERE realm_id = @realm AND (@kind IS NULL OR kind = @kind)
        AND (@status IS NULL OR status = @status) ORDER BY created_at DESC, id DESC LIMIT @limit`),
    };
  }

  async enqueue(job: Job): Promise<void> {
    await immediate(this.db, () => this.s.insert.run(...jobValues(job, this.secrets)));
  }

  async anyDue(now: number, kinds: readonly string[]): Promise<boolean> {
    return this.s.anyDue.get({ now, kinds: JSON.stringify(kinds) }) !== undefined;
  }

  claim(now: number, limit: number, kinds: readonly string[], claim: (job: Job) => Job, onlyId?: string): Promise<Job[]> {
    const k = JSON.stringify(kinds);
    return immediate(this.db, () => {
      const rows = (onlyId === undefined ? this.s.due.all({ now, limit, kinds: k }) : this.s.dueOne.all({ id: onlyId, now, kinds: k })) as JobRow[];
      return rows
        .map((r) => toJob(r, this.secrets))
        .filter((j) => isDue(j, now))
        .map((j) => {
          const held = claim(j);
          this.s.update.run(...jobStateValues(held), held.id);
          return held;
        });
    });
  }

  finish(id: string, owner: string, decide: (job: Job) => AttemptOutcome): Promise<boolean> {
    return immediate(this.db, () => finishHeldJob(this.db, this.secrets, id, owner, decide));
  }

  async get(id: string): Promise<Job | null> {
    const r = this.s.get.get(id) as JobRow | undefined;
    return r ? toJob(r, this.secrets) : null;
  }

  pruneFinished(before: number, limit: number): Promise<number> {
    return immediate(this.db, () => this.s.pruneFinished.run(before, limit).changes);
  }

  async list(realmId: string, opts: { kind?: string; status?: JobStatus; limit: number }): Promise<Job[]> {
    const rows = this.s.list.all({ realm: realmId, kind: opts.kind ?? null, status: opts.status ?? null, limit: opts.limit }) as JobRow[];
    return rows.map((r) => toJob(r, this.secrets));
  }
}
