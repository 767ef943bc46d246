// PostgreSQL implementation of JobStore, the twin of sqlite/job-store.ts. A claim locks the due rows
// it takes with FOR UPDATE SKIP LOCKED: replicas claiming together each take other jobs instead of
// waiting for one another, and the lease keeps a job theirs once the claim commits. The rows a
// claim or a claim's outcomes write go in one statement (one array per column, unnest), whatever
// their number.
import type { SecretBox } from '../../crypto/secrets.ts';
import type { Job, JobStatus } from '../../jobs/model.ts';
import { type AttemptOutcome, isDue } from '../../jobs/retry.ts';
import type { JobStore } from '../../jobs/store.ts';
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
} from '../record-rows.ts';
import { writeEmitted } from './records.ts';
import { inTransaction, query, type Tx, type TxContext } from './tx.ts';

const dollar = (n: number) => `$${n}`;

/** The SQL type of each column of the jobs table (migration 010). */
const JOB_COLUMN_TYPES: Record<(typeof JOB_COLUMNS)[number], string> = {
  id: 'text',
  kind: 'text',
  realm_id: 'text',
  payload: 'text',
  secret: 'text',
  status: 'text',
  attempts: 'int',
  run_at: 'bigint',
  lease_owner: 'text',
  lease_until: 'bigint',
  give_up_at: 'bigint',
  last_error: 'text',
  created_at: 'bigint',
  updated_at: 'bigint',
};

/** `INSERT INTO table (columns) SELECT * FROM unnest($1::type[], …)`: any number of rows in one
 *  statement of one text (prepared once), the values given as columnArrays(rows). */
export function insertRowsSql(table: string, columns: readonly string[], types: readonly string[]): string {
  return `INSERT INTO ${table} (${columns.join(', ')}) SELECT * FROM unnest(${types.map((t, i) => `$${i + 1}::${t}[]`).join(', ')})`;
}

/** Rows of values as one array per column. */
export function columnArrays(rows: readonly unknown[][], width: number): unknown[][] {
  return Array.from({ length: width }, (_, c) => rows.map((r) => r[c]));
}

/** The rows of `table` whose ids are the text array `$n`, as a FROM item `alias`: each found by
 *  its primary key, one index lookup per id (`lock`: locked as found, in the order given). Every
 *  statement is planned once per connection, on the table's size then (connect.ts: generic plans):
 *  `id = ANY($n)` planned while the table was small scanned it whole, and went on doing so as it
 *  grew (10 to 25 ms per claim at 20 000 rows); a lateral subquery that cannot be flattened is
 *  planned per id, and one row by primary key is an index lookup at any size. */
export function rowsByIdSql(table: string, n: number, alias: string, opts: { lock?: boolean } = {}): string {
  return `unnest($${n}::text[]) AS ${alias}_ids(id) CROSS JOIN LATERAL (SELECT * FROM ${table} WHERE ${table}.id = ${alias}_ids.id ${opts.lock ? 'FOR UPDATE' : 'OFFSET 0'}) ${alias}`;
}

/** `UPDATE table SET (each of columns from u) FROM …`: the rows whose ids are `$1`, set to the values
 *  of the arrays `$2…` (one per column, typed `types`) at the same index. The rows are found as in
 *  rowsByIdSql and updated by their physical address (a TID scan), so the update reads no more
 *  than them at any table size (`found`: a further condition on a row, asked as it is found). A row
 *  another transaction updates meanwhile is found again at its new version, on which the update's
 *  other conditions (appended by the caller) are asked again. */
export function updateRowsByIdSql(table: string, columns: readonly string[], types: readonly string[], found = ''): string {
  return `UPDATE ${table} SET ${columns.map((c) => `${c} = u.${c}`).join(', ')}
    FROM (SELECT found.ctid AS row_id, v.* FROM unnest($1::text[], ${types.map((t, i) => `$${i + 2}::${t}[]`).join(', ')}) AS v(id, ${columns.join(', ')})
      CROSS JOIN LATERAL (SELECT ctid FROM ${table} WHERE ${table}.id = v.id ${found} OFFSET 0) found) u
    WHERE ${table}.ctid = u.row_id`;
}

/** The statements (exported for the test asking PostgreSQL for their plans). */
export const JOB_SQL = {
  insert: insertSql('jobs', JOB_COLUMNS, dollar),
  insertMany: insertRowsSql(
    'jobs',
    JOB_COLUMNS,
    JOB_COLUMNS.map((c) => JOB_COLUMN_TYPES[c]),
  ),
  // In the index's order: planned on a small table, the plan without it scanned the whole table
  // from its oldest (long done) jobs.
  anyDue: `SELECT 1 FROM jobs WHERE ${dueSql('$1')} AND kind = ANY($2::text[]) ORDER BY ${DUE_AT_SQL} LIMIT 1`,
  due: `SELECT * FROM jobs WHERE ${dueSql('$1')} AND kind = ANY($3::text[]) ORDER BY ${DUE_AT_SQL}, id COLLATE "C" LIMIT $2
    FOR UPDATE SKIP LOCKED`,
  dueOne: `SELECT * FROM jobs WHERE id = $2 AND ${dueSql('$1')} AND kind = ANY($3::text[]) FOR UPDATE SKIP LOCKED`,
  get: 'SELECT * FROM jobs WHERE id = $1',
  pruneFinished: pruneFinishedJobsSql(dollar),
  // The ids sorted (lockJobs): every transaction locks jobs in one order, so two that lock the same
  // jobs queue, never deadlock.
  lock: `SELECT j.* FROM ${rowsByIdSql('jobs', 1, 'j', { lock: true })}`,
  // The state columns of many jobs, by id: `$1` the ids, then one array per state column.
  updateStates: updateRowsByIdSql(
    'jobs',
    JOB_STATE_COLUMNS,
    JOB_STATE_COLUMNS.map((c) => JOB_COLUMN_TYPES[c]),
  ),
  // The same, of the jobs among them the owner after the state columns still holds under the claim
  // that decided them (a later claim of the same owner counts one more attempt); the ids written.
  // The attempts are asked in the lookup by id: beside the owner's condition PostgreSQL planned a
  // join on them that read every running job.
  finishHeld: `${updateRowsByIdSql(
    'jobs',
    JOB_STATE_COLUMNS,
    JOB_STATE_COLUMNS.map((c) => JOB_COLUMN_TYPES[c]),
    'AND jobs.attempts = v.attempts',
  )} AND jobs.status = 'running' AND jobs.lease_owner = $${JOB_STATE_COLUMNS.length + 2} RETURNING jobs.id`,
  list: `SELECT * FROM jobs WHERE realm_id = $1 AND ($2::text IS NULL OR kind = $2) AND ($3::text IS NULL OR status = $3)
    ORDER BY created_at DESC, id COLLATE "C" DESC LIMIT $4`,
};

/** Sends the insert of `jobs` on `tx`, one statement for all of them. */
export function insertJobs(tx: Tx, jobs: readonly Job[], secrets: SecretBox): void {
  if (jobs.length === 0) return;
  tx.run(
    JOB_SQL.insertMany,
    columnArrays(
      jobs.map((j) => jobValues(j, secrets)),
      JOB_COLUMNS.length,
    ),
  );
}

/** Sends the new state of `jobs` on `tx`, one statement for all of them. */
function updateJobStates(tx: Tx, jobs: readonly Job[]): void {
  if (jobs.length === 0) return;
  tx.run(JOB_SQL.updateStates, [jobs.map((j) => j.id), ...columnArrays(jobs.map(jobStateValues), JOB_STATE_COLUMNS.length)]);
}

/** The rows of jobs `ids`, locked until the transaction ends (read them before finishHeldJobs). */
export function lockJobs(tx: Tx, ids: readonly string[]): Promise<JobRow[]> {
  // JavaScript's order of strings is by UTF-16 code unit: "C" collation's for these ASCII ids.
  return tx.rows<JobRow>(JOB_SQL.lock, [[...ids].sort()]);
}

/** Writes each outcome, decided on its job as `owner` holds it, where `owner` still does, with the
 *  audit records of those it wrote; per outcome, whether it was written (false: the lease was lost,
 *  the job as another replica left it). One statement, its rows locked in the order of their ids
 *  (as lockJobs), then the audit records. */
export async function finishHeldJobs(tx: Tx, owner: string, outcomes: readonly AttemptOutcome[], secrets: SecretBox): Promise<boolean[]> {
  if (outcomes.length === 0) return [];
  const jobs = outcomes.map((o) => o.job).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const states = [jobs.map((j) => j.id), ...columnArrays(jobs.map(jobStateValues), JOB_STATE_COLUMNS.length), owner];
  const written = new Set((await tx.rows<{ id: string }>(JOB_SQL.finishHeld, states)).map((r) => r.id));
  writeEmitted(tx, { events: [], audit: outcomes.flatMap((o) => (o.audit && written.has(o.job.id) ? [o.audit] : [])), jobs: [] }, secrets);
  return outcomes.map((o) => written.has(o.job.id));
}

export class PostgresJobStore implements JobStore {
  constructor(
    private readonly ctx: TxContext,
    private readonly secrets: SecretBox,
  ) {}

  async enqueue(job: Job): Promise<void> {
    await inTransaction(this.ctx, 'enqueueJob', (tx) => tx.run(JOB_SQL.insert, jobValues(job, this.secrets)));
  }

  async anyDue(now: number, kinds: readonly string[]): Promise<boolean> {
    return (await query(this.ctx.pool, JOB_SQL.anyDue, [now, kinds])).length > 0;
  }

  claim(now: number, limit: number, kinds: readonly string[], claim: (job: Job) => Job, onlyId?: string): Promise<Job[]> {
    return inTransaction(this.ctx, 'claimJobs', async (tx) => {
      const rows = onlyId === undefined ? await tx.rows<JobRow>(JOB_SQL.due, [now, limit, kinds]) : await tx.rows<JobRow>(JOB_SQL.dueOne, [now, onlyId, kinds]);
      const held = rows
        .map((r) => toJob(r, this.secrets))
        .filter((j) => isDue(j, now))
        .map(claim);
      updateJobStates(tx, held);
      return held;
    });
  }

  finish(id: string, owner: string, decide: (job: Job) => AttemptOutcome): Promise<boolean> {
    return inTransaction(this.ctx, 'finishJob', async (tx) => {
      const [row] = await lockJobs(tx, [id]);
      if (!row || row.status !== 'running' || row.lease_owner !== owner) return false;
      const [finished] = await finishHeldJobs(tx, owner, [decide(toJob(row, this.secrets))], this.secrets);
      return finished!;
    });
  }

  async get(id: string): Promise<Job | null> {
    const [r] = await query<JobRow>(this.ctx.pool, JOB_SQL.get, [id]);
    return r ? toJob(r, this.secrets) : null;
  }

  pruneFinished(before: number, limit: number): Promise<number> {
    return inTransaction(this.ctx, 'pruneJobs', (tx) => tx.run(JOB_SQL.pruneFinished, [before, limit]));
  }

  async list(realmId: string, opts: { kind?: string; status?: JobStatus; limit: number }): Promise<Job[]> {
    const rows = await query<JobRow>(this.ctx.pool, JOB_SQL.list, [realmId, opts.kind ?? null, opts.status ?? null, opts.limit]);
    return rows.map((r) => toJob(r, this.secrets));
  }
}
