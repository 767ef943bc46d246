// The rows of the outbox, the audit log and the job queue as both backends read and write them
// (the same columns in SQLite and PostgreSQL), and the records they make. A use case's Emitted
// records are inserted through these column lists, in its own transaction.
import type { AuditRecord } from '../audit/model.ts';
import { ENCRYPTED, type SecretBox } from '../crypto/secrets.ts';
import type { EventHeader, GatehouseEvent } from '../events/model.ts';
import type { Job, JobStatus } from '../jobs/model.ts';
import type { ChargeLine } from '../points/charges.ts';
import { consumedEvent } from '../points/events.ts';
import { DELIVER } from '../webhooks/model.ts';

export const EVENT_COLUMNS = ['id', 'type', 'realm_id', 'created_at', 'data'] as const;
export const AUDIT_COLUMNS = ['id', 'at', 'realm_id', 'actor_type', 'actor_id', 'action', 'target_id', 'changes', 'request_id'] as const;
export const JOB_COLUMNS = [
  'id',
  'kind',
  'realm_id',
  'payload',
  'secret',
  'status',
  'attempts',
  'run_at',
  'lease_owner',
  'lease_until',
  'give_up_at',
  'last_error',
  'created_at',
  'updated_at',
] as const;

/** `INSERT INTO table (columns) VALUES (…)` with the backend's placeholders (`?` or `$n`). */
export function insertSql(table: string, columns: readonly string[], placeholder: (n: number) => string): string {
  return `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((_, i) => placeholder(i + 1)).join(', ')})`;
}

export const eventValues = (e: GatehouseEvent): unknown[] => [e.id, e.type, e.realmId, e.createdAt, JSON.stringify(e.data)];

export const auditValues = (a: AuditRecord): unknown[] => [
  a.auditId,
  a.at,
  a.realmId,
  a.actor.type,
  a.actor.id,
  a.action,
  a.targetId,
  JSON.stringify(a.changes),
  a.requestId,
];

/** A job's columns as stored: its secret sealed (crypto/secrets.ts), opened again by toJob. */
/** A job's row; `secrets` may be null only where no job carries a secret (the points use cases'
 *  recovery checks): one that does is refused there rather than stored in clear. */
export const jobValues = (j: Job, secrets: SecretBox | null): unknown[] => [
  j.id,
  j.kind,
  j.realmId,
  JSON.stringify(j.payload),
  sealedJobSecret(j, secrets),
  j.status,
  j.attempts,
  j.runAt,
  j.leaseOwner,
  j.leaseUntil,
  j.giveUpAt,
  j.lastError,
  j.createdAt,
  j.updatedAt,
];

/** The columns a finished attempt or a claim changes, after the id: `SET status = …` in this order. */
export const JOB_STATE_COLUMNS = ['status', 'attempts', 'run_at', 'lease_owner', 'lease_until', 'last_error', 'updated_at'] as const;
export const jobStateValues = (j: Job): unknown[] => [j.status, j.attempts, j.runAt, j.leaseOwner, j.leaseUntil, j.lastError, j.updatedAt];

/** `UPDATE jobs SET <state columns> WHERE id = …` with the backend's placeholders; the id last. */
export function updateJobStateSql(placeholder: (n: number) => string, extraWhere = ''): string {
  const sets = JOB_STATE_COLUMNS.map((c, i) => `${c} = ${placeholder(i + 1)}`).join(', ');
  return `UPDATE jobs SET ${sets} WHERE id = ${placeholder(JOB_STATE_COLUMNS.length + 1)}${extraWhere}`;
}

export interface EventRow {
  id: string;
  type: GatehouseEvent['type'];
  realm_id: string;
  created_at: number;
  data: string;
}

export interface AuditRow {
  id: string;
  at: number;
  realm_id: string;
  actor_type: AuditRecord['actor']['type'];
  actor_id: string;
  action: string;
  target_id: string;
  changes: string;
  request_id: string | null;
}

export interface JobRow {
  id: string;
  kind: string;
  realm_id: string;
  payload: string;
  secret: string | null;
  status: JobStatus;
  attempts: number;
  run_at: number;
  lease_owner: string | null;
  lease_until: number | null;
  give_up_at: number;
  last_error: string | null;
  created_at: number;
  updated_at: number;
}

export const toEventHeader = (r: Omit<EventRow, 'data'>): EventHeader => ({ id: r.id, type: r.type, realmId: r.realm_id, createdAt: r.created_at });
export const toEvent = (r: EventRow): GatehouseEvent => ({ ...toEventHeader(r), data: JSON.parse(r.data) });

export const toAuditRecord = (r: AuditRow): AuditRecord => ({
  auditId: r.id,
  at: r.at,
  realmId: r.realm_id,
  actor: { type: r.actor_type, id: r.actor_id },
  action: r.action,
  targetId: r.target_id,
  changes: JSON.parse(r.changes),
  requestId: r.request_id,
});

export const toJob = (r: JobRow, secrets: SecretBox): Job => ({
  id: r.id,
  kind: r.kind,
  realmId: r.realm_id,
  payload: JSON.parse(r.payload),
  secret: secrets.openOrNull(ENCRYPTED.jobSecret, r.secret),
  status: r.status,
  attempts: r.attempts,
  runAt: r.run_at,
  leaseOwner: r.lease_owner,
  leaseUntil: r.lease_until,
  giveUpAt: r.give_up_at,
  lastError: r.last_error,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** When a job is due: a pending one's run_at, a running one's lease_until (a pending job holds no
 *  lease, retry.ts), the key of the index jobs_due (migration 017). */
export const DUE_AT_SQL = 'coalesce(lease_until, run_at)';

/** The due condition of retry.ts isDue, as SQL over the jobs table; `now` at placeholder `p`. In
 *  the terms of jobs_due, so the due jobs are one range of it, read in the order a claim takes
 *  them up to its limit (the two conditions of isDue OR-ed together made every due job be read
 *  and sorted at each claim). */
export const dueSql = (p: string) => `(status IN ('pending', 'running') AND ${DUE_AT_SQL} <= ${p})`;

function sealedJobSecret(j: Job, secrets: SecretBox | null): string | null {
  if (j.secret === null) return null;
  if (secrets === null) throw new Error(`job ${j.kind}: a secret is written only with the secrets box`);
  return secrets.seal(ENCRYPTED.jobSecret, j.secret);
}

/** One batch of finished jobs gone (jobs/retention.ts), oldest first, along migration 018's
 *  jobs_finished (whose predicate this repeats word for word, so both databases use it): webhook
 *  deliveries are not among them, they go with their events. */
export const pruneFinishedJobsSql = (p: (n: number) => string): string =>
  `DELETE FROM jobs WHERE id IN (SELECT id FROM jobs WHERE status IN ('done', 'failed') AND kind <> '${DELIVER}' AND updated_at < ${p(1)}
    ORDER BY updated_at LIMIT ${p(2)})`;

/** A movement whose points.consumed event is owed and not yet handed out: the outbox's mark on it
 *  (migration 021), read with MARKED_MOVEMENT_COLUMNS. */
export interface MarkedMovementRow {
  id: string;
  realm_id: string;
  user_id: string;
  kind: 'consume' | 'settle';
  amount: number;
  allocations: string;
  related_id: string | null;
  created_at: number;
}

export const MARKED_MOVEMENT_COLUMNS = 'id, realm_id, user_id, kind, amount, allocations, related_id, created_at';

/** The event row a marked movement stands for (points/events.ts consumedEvent). */
export function markedEventRow(r: MarkedMovementRow): EventRow {
  const lines = JSON.parse(r.allocations) as ChargeLine[];
  // Numbers whichever way the driver hands a BIGINT over.
  const m = { id: r.id, kind: r.kind, amount: Number(r.amount), lines, relatedId: r.related_id };
  const e = consumedEvent(r.realm_id, r.user_id, m, Number(r.created_at));
  return { id: e.id, type: e.type, realm_id: e.realmId, created_at: e.createdAt, data: JSON.stringify(e.data) };
}

/** Whether event row `a` comes before `b`: by created_at, then id (the outbox's order, with ids
 *  compared byte by byte as both databases' indexes do). */
const before = (a: EventRow, b: EventRow) => a.created_at < b.created_at || (a.created_at === b.created_at && a.id < b.id);

/** The outbox's first `limit` events, oldest first, from its rows and its marked movements (each
 *  read oldest first, up to `limit`): the ids of the rows taken (to mark dispatched), and the
 *  events that stood for marked movements with those movements' ids (to write out and unmark). */
export function outboxHead(
  rows: EventRow[],
  marked: MarkedMovementRow[],
  limit: number,
): { events: EventRow[]; rowIds: string[]; fromMarks: EventRow[]; movementIds: string[] } {
  const events: EventRow[] = [];
  const rowIds: string[] = [];
  const fromMarks: EventRow[] = [];
  const movementIds: string[] = [];
  let i = 0;
  let j = 0;
  let next = j < marked.length ? markedEventRow(marked[j]!) : null;
  while (events.length < limit && (i < rows.length || next !== null)) {
    if (next !== null && (i >= rows.length || before(next, rows[i]!))) {
      events.push(next);
      fromMarks.push(next);
      movementIds.push(marked[j]!.id);
      j++;
      next = j < marked.length ? markedEventRow(marked[j]!) : null;
    } else {
      events.push(rows[i]!);
      rowIds.push(rows[i++]!.id);
    }
  }
  return { events, rowIds, fromMarks, movementIds };
}

/** The newest `limit` of the outbox's rows and marked movements of a realm (each read newest first). */
export function outboxNewest(rows: EventRow[], marked: MarkedMovementRow[], limit: number): EventRow[] {
  return [...rows, ...marked.map(markedEventRow)].sort((a, b) => (before(a, b) ? 1 : before(b, a) ? -1 : 0)).slice(0, limit);
}
