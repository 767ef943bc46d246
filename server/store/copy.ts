// `gatehouse db copy`: every row of one gatehouse database into another, SQLite or PostgreSQL
// either side, then a check of the copy before it is committed. The backends' specifics (how a
// snapshot is taken, rows read and written, tables emptied) are in sqlite/copy.ts and
// postgres/copy.ts; this file is the order of things and the checks, the same for every pair.
//
// The target is migrated when opened. In ONE transaction on the target: a target holding data is
// refused (or, forced, emptied), every table is copied in batches, parents first, and checked: the
// rows of every table, counted on the target, are those read from the source, and every user's
// points summary is the same on both. Only then is it committed: a failure anywhere leaves the
// target as it was. The source is read from a consistent snapshot and never written.
import type { PointsSummary } from '../points/model.ts';
import type { PointsStore } from '../points/store.ts';
import { type Column, CopyPlanError, planCopy, type TablePlan, type TableShape, type Value } from './copy-plan.ts';

/** Why a copy did not happen: `code` for --json, `usage` when the command was asked for something
 *  it refuses (a target holding data without --force, a source that does not exist). */
export class CopyError extends Error {
  override name = 'CopyError';

  constructor(
    readonly code: string,
    message: string,
    readonly usage = false,
  ) {
    super(message);
  }
}

export interface UserKey {
  realmId: string;
  userId: string;
}

/** The database copied from, as of one snapshot taken when it was opened. */
export interface CopySource {
  schemaVersion(): Promise<number>;
  /** Its data tables (not the backend's bookkeeping, such as schema_migrations). */
  tables(): Promise<TableShape[]>;
  count(table: string): Promise<number>;
  /** The table's rows, `batch` at a time, each value as copy-plan.ts's Value; the arrays are the
   *  caller's to change. */
  rows(table: string, columns: Column[], batch: number): AsyncIterable<Value[][]>;
  /** Up to `limit` live users after `after`, by id (keyset paging): a deleted account has no points
   *  to compare. */
  users(after: UserKey | null, limit: number): Promise<UserKey[]>;
  /** The points store over the snapshot, whose writes are never kept. */
  points(): Promise<PointsStore>;
  close(): Promise<void>;
}

/** The database copied into, migrated to this build's schema. */
export interface CopyTarget {
  schemaVersion(): Promise<number>;
  tables(): Promise<TableShape[]>;
  /** Opens the copy's transaction, keeping other writers off `tables` until it ends. */
  begin(tables: string[]): Promise<void>;
  /** Rows of each table, inside the transaction. */
  counts(tables: string[]): Promise<Map<string, number>>;
  /** Deletes every row of `tables`, given children first, inside the transaction. */
  empty(tables: string[]): Promise<void>;
  write(plan: TablePlan, rows: Value[][]): Promise<void>;
  /** The points store inside the transaction, whose writes are undone. */
  points(): Promise<PointsStore>;
  commit(): Promise<void>;
  rollback(): Promise<void>;
  /** `copied`: whether the copy was committed (a database the copy created is removed if not). */
  close(copied: boolean): Promise<void>;
}

/** Told how far the copy is: one step per table, then the summaries' check. */
export interface CopyProgress {
  begin(step: string, total: number): void;
  /** `total` when it became known only now. */
  advance(done: number, total?: number): void;
  end(): void;
  note(text: string): void;
}

export interface CopyOptions {
  /** Empty a target that holds data instead of refusing it. */
  force: boolean;
  /** Rows per batch read and written (a statement each, or a few where the backend bounds them). */
  batchRows: number;
  /** The instant both sides' summaries are computed at (epoch milliseconds). */
  now: number;
  progress: CopyProgress;
  /** Stops the copy between two batches (the target is rolled back). */
  signal?: AbortSignal;
}

export interface CopyReport {
  /** Each table copied, with its time (reading, converting and writing). */
  tables: Array<{ name: string; rows: number; seconds: number }>;
  rows: number;
  usersChecked: number;
  /** The time the summaries' check took. */
  checkSeconds: number;
  schemaVersion: number;
  /** Whether a target holding data was emptied first (--force). */
  emptied: boolean;
}

/** Users whose summaries are asked for at once (SQLite shares a transaction between them). */
const SUMMARY_CONCURRENCY = 8;
const USER_PAGE = 1000;
/** Mismatches named in the error at most. */
const SHOWN = 3;

export async function copyDatabase(source: CopySource, target: CopyTarget, o: CopyOptions): Promise<CopyReport> {
  const [from, to] = await Promise.all([source.schemaVersion(), target.schemaVersion()]);
  if (from !== to) {
    throw new CopyError(
      'schema_mismatch',
      from < to
        ? `the source's schema is version ${from}, this gatehouse's ${to}: start this gatehouse on the source once (it migrates it), then copy`
        : `the source's schema is version ${from}, newer than this gatehouse (${to}): copy with the gatehouse that wrote it`,
    );
  }
  let plans: TablePlan[];
  try {
    plans = planCopy(await source.tables(), await target.tables());
  } catch (e) {
    if (e instanceof CopyPlanError) throw new CopyError('schema_mismatch', e.message);
    throw e;
  }
  const totals = new Map<string, number>();
  for (const p of plans) totals.set(p.name, await source.count(p.name));

  // gatehouse's tables only: a database it shares with others keeps theirs untouched, even forced.
  const names = plans.map((p) => p.name);
  await target.begin(names);
  try {
    const held = [...(await target.counts(names))].filter(([, n]) => n > 0);
    if (held.length > 0 && !o.force) {
      const list = held.map(([t, n]) => `${t}: ${n}`).join(', ');
      throw new CopyError('target_not_empty', `the target already holds data (${list}); pass --force to replace it with the source's`, true);
    }
    if (held.length > 0) {
      await target.empty([...names].reverse());
      o.progress.note(`emptied the target (${held.length} tables held rows)`);
    }
    const copied: CopyReport['tables'] = [];
    for (const p of plans) {
      const total = totals.get(p.name)!;
      const started = performance.now();
      o.progress.begin(p.name, total);
      let n = 0;
      // One batch is written while the next is read and converted: the two databases work at once.
      let writing: Promise<void> | null = null;
      try {
        for await (const batch of source.rows(p.name, p.source, o.batchRows)) {
          o.signal?.throwIfAborted();
          // Converted in place: the batch is the reader's to give away (a million-row table
          // allocates no second copy of each row).
          for (const row of batch) for (let i = 0; i < row.length; i++) row[i] = p.convert[i]!(row[i]!);
          await writing;
          writing = target.write(p, batch);
          n += batch.length;
          o.progress.advance(n);
        }
        await writing;
      } finally {
        // A read that failed leaves a write in flight: its outcome no longer matters, but it must
        // end before the transaction is rolled back.
        await writing?.catch(() => {});
      }
      o.progress.end();
      if (n !== total) throw new CopyError('copy_failed', `${p.name}: ${n} rows read, ${total} counted in the same snapshot`);
      copied.push({ name: p.name, rows: n, seconds: secondsSince(started) });
    }
    const counted = await target.counts(plans.map((p) => p.name));
    for (const c of copied) {
      const there = counted.get(c.name);
      if (there !== c.rows) throw new CopyError('copy_check_failed', `${c.name}: ${c.rows} rows copied, but the target holds ${there}`);
    }
    const checking = performance.now();
    // A deleted account's row stays, with its tombstone; it has no summary to compare.
    const usersChecked = await checkSummaries(source, target, (totals.get('users') ?? 0) - (totals.get('user_tombstones') ?? 0), o);
    const checkSeconds = secondsSince(checking);
    o.signal?.throwIfAborted();
    await target.commit();
    return { tables: copied, rows: copied.reduce((s, c) => s + c.rows, 0), usersChecked, checkSeconds, schemaVersion: to, emptied: held.length > 0 };
  } catch (e) {
    await target.rollback();
    if (e instanceof CopyPlanError) throw new CopyError('copy_failed', e.message);
    throw e;
  }
}

// Every user's summary, on the source and on the copy, must be the same. A summary depends on
// the instant it is asked at (windows roll, grants expire and fall due), so both sides are asked
// at the one instant `now`. And a summary writes: it materialises the grants due by then
// (points/materialise.ts). Asking the source would write to it, which the copy must never do, and
// asking the committed copy would add rows the source does not have (and the new deployment's
// first call materialises them anyway, with its own time). So each side answers where its writes
// are undone: the source over its snapshot (SQLite: a private copy of the file; PostgreSQL: a
// transaction on the very snapshot that was copied, never committed), the target inside the
// copy's transaction before COMMIT, each use case in a savepoint rolled back at its end. Both then
// materialise the same due grants from the same rows, and answer the same summary exactly when
// the copy holds the same data as each backend reads it (integers, booleans, JSON text).
async function checkSummaries(source: CopySource, target: CopyTarget, users: number, o: CopyOptions): Promise<number> {
  const [before, after] = await Promise.all([source.points(), target.points()]);
  o.progress.begin('summaries', users);
  const mismatches: string[] = [];
  let checked = 0;
  let last: UserKey | null = null;
  for (;;) {
    const page = await source.users(last, USER_PAGE);
    if (page.length === 0) break;
    last = page.at(-1)!;
    for (let i = 0; i < page.length; i += SUMMARY_CONCURRENCY) {
      o.signal?.throwIfAborted();
      await Promise.all(
        page.slice(i, i + SUMMARY_CONCURRENCY).map(async (u) => {
          const [a, b] = await Promise.all([before.summary(u.realmId, u.userId, o.now), after.summary(u.realmId, u.userId, o.now)]);
          if (!sameSummary(a, b)) mismatches.push(`user ${u.userId} of realm ${u.realmId}: source ${JSON.stringify(a)}, copy ${JSON.stringify(b)}`);
        }),
      );
      checked += Math.min(SUMMARY_CONCURRENCY, page.length - i);
      o.progress.advance(checked);
    }
  }
  o.progress.end();
  if (mismatches.length > 0) {
    const more = mismatches.length > SHOWN ? ` (and ${mismatches.length - SHOWN} more)` : '';
    throw new CopyError('copy_check_failed', `the copy answers other points summaries than the source: ${mismatches.slice(0, SHOWN).join('; ')}${more}`);
  }
  if (checked !== users) throw new CopyError('copy_check_failed', `${checked} users' summaries checked, ${users} users copied`);
  return checked;
}

/** Seconds since `start` (performance.now()), to the hundredth. */
export function secondsSince(start: number): number {
  return Math.round((performance.now() - start) / 10) / 100;
}

/** Two summaries are the same when every field is: both come from summary.ts, so their fields are
 *  built in the same order. */
export function sameSummary(a: PointsSummary, b: PointsSummary): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
