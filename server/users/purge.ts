// The purge of a deleted account (docs/login.md "Deleting an account"), the pure part. The deletion's
// transaction makes the account gone; the rows whose number grows with the account's age (points
// history, usage ledger, balances, closed holds, stored idempotency answers) are deleted after its
// commit by a durable `user.purge` job, in batches of a bounded number of rows, one transaction
// each, so no other user waits behind the whole of it. This file plans a batch; the store runs it
// (UserStore.purgeAccountBatch), the job repeats it until the account has no row left.
import type { Job, JobPolicy } from '../jobs/model.ts';
import { newJob } from '../jobs/retry.ts';

export const USER_PURGE = 'user.purge';

/** Each batch renews the lease: a replica that died mid-purge leaves the rest to another one once
 *  this has passed, while a live one keeps the job however long the account takes. A batch takes
 *  milliseconds, so a short lease costs a live purge nothing and lets a dead one's go on within a
 *  few seconds (the lease plus the queue's poll); one lost to a stall only hands the rest to
 *  another replica, since every batch deletes what is still there. */
export const USER_PURGE_POLICY: JobPolicy = {
  baseDelayMs: 1000,
  maxDelayMs: 5 * 60_000,
  leaseMs: 3_000,
  // Kept trying for as long as stored idempotency answers are kept: a purge must end.
  lifetimeMs: 30 * 24 * 3600_000,
  auditOutcome: false,
};

/** Rows deleted per transaction at most: a batch holds SQLite's one writer for a few milliseconds
 *  (bench/account-deletion.ts: other users' consume p99 during a purge was about twice as high with
 *  1 000 rows a batch as with 250). */
export const PURGE_BATCH_ROWS = 250;

/** The tables a purge empties of the account's rows, in the order it empties them. Its open holds
 *  are not among them: releasing them is the deletion's own (only closed ones are left). */
export const PURGE_TABLES = [
  'points_idempotency',
  'points_transactions',
  'points_usage_ledger',
  'points_usage_returns',
  'points_usage_heads',
  'points_holds',
  'points_balances',
  'points_window_entitlements',
  'points_grants_given',
  'points_alert_state',
] as const;

export type PurgeTable = (typeof PURGE_TABLES)[number];

/** One delete of a batch: up to `limit` of the account's rows of `table`. */
export interface PurgeDelete {
  table: PurgeTable;
  limit: number;
}

/** A delete the store ran, with how many rows it deleted. */
export interface PurgeDone extends PurgeDelete {
  deleted: number;
}

/** The job that purges `userId`'s rows, queued in the deletion's transaction. */
export function userPurgeJob(realmId: string, userId: string, now: number): Job {
  return newJob(USER_PURGE, realmId, { userId }, null, now, USER_PURGE_POLICY);
}

/** Whether the purge acts on the account whose `deleted_at` a batch read (undefined: no row): only on
 *  one marked deleted; a live account keeps its rows whatever job names it. */
export function purgeApplies(deletedAt: number | null | undefined): boolean {
  return deletedAt !== null && deletedAt !== undefined;
}

/** The next delete of a batch after `done` (the deletes it ran so far), or null when the batch is
 *  over: its rows all spent, or every table found empty. A table is empty once a delete took fewer
 *  rows than it asked for. Nothing is deleted of an account that is not deleted (a live one keeps
 *  its rows whatever job names it). */
export function nextPurgeDelete(accountDeleted: boolean, done: readonly PurgeDone[], batchRows = PURGE_BATCH_ROWS): PurgeDelete | null {
  if (!accountDeleted) return null;
  const spent = done.reduce((n, d) => n + d.deleted, 0);
  if (spent >= batchRows) return null;
  const table = PURGE_TABLES.find((t) => !emptied(done, t));
  return table === undefined ? null : { table, limit: batchRows - spent };
}

/** What a batch came to: the rows it deleted, and whether the account has none left (every table
 *  found empty, or an account that is not deleted: nothing of it is the purge's). */
export function purgeOutcome(accountDeleted: boolean, done: readonly PurgeDone[]): { deleted: number; finished: boolean } {
  return {
    deleted: done.reduce((n, d) => n + d.deleted, 0),
    finished: !accountDeleted || PURGE_TABLES.every((t) => emptied(done, t)),
  };
}

const emptied = (done: readonly PurgeDone[], table: PurgeTable) => done.some((d) => d.table === table && d.deleted < d.limit);
