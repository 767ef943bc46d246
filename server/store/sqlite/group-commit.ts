// Group commit: every write use case runs in a BEGIN IMMEDIATE transaction, but the use cases that
// arrive in the same turn of the event loop share one. With WAL and synchronous=NORMAL the
// BEGIN/COMMIT pair (locks, WAL frames, the wal-index) costs several times a consume's own
// statements; sharing it is what lets consume and login keep up with the transport.
//
// Each unit still runs alone and all or nothing: it gets its own SAVEPOINT, so a unit that throws
// rolls back only its own writes; the others are unaffected. Units run one after another on the one
// connection (a later unit sees an earlier one's writes: no double spend, an idempotent replay in the
// same batch sees the first answer). No promise settles before COMMIT has returned: an
// acknowledged write is durable as far as the pragmas make it. If BEGIN or COMMIT fails, or SQLite
// rolls the whole transaction back on its own (SQLITE_FULL, SQLITE_IOERR…), every unit of the batch
// fails with that error and none of its writes stays.

import type { AnswerTurns } from '../../lib/answer-turns.ts';
import { perObject } from '../../lib/memo.ts';
import { spanEnd, spanStart } from '../../lib/profile.ts';
import type { Db } from './open.ts';
import { dropCaches, noticeOtherCommits } from './other-commits.ts';

interface Unit {
  fn: () => unknown;
  resolve(v: unknown): void;
  reject(e: unknown): void;
}

/** Units per transaction at most. Eight: enough to share a COMMIT's cost, few enough that the
 *  answers to a burst of calls that arrived together go out in several waves, so a client (over
 *  gRPC, one connection carries every call) works on the first answers while the server writes the
 *  next. Measured: no cap made a closed-loop client and the server take turns (consume +7–10% at
 *  eight); with the wait of answer-turns.ts in place, sixteen cost consume ~20% and changed logins
 *  by 0–7% (within the noise; a login's pages are mostly its own). */
const MAX_BATCH = 8;

class CommitQueue {
  private pending: Unit[] = [];
  /** Told each transaction's number of units (metrics). */
  onBatch: ((size: number) => void) | null = null;
  /** The gRPC server's answer turns, when one serves this database (answer-turns.ts). */
  answers: AnswerTurns | null = null;
  private scheduled = false;
  private readonly begin;
  private readonly commit;
  private readonly rollback;
  private readonly savepoint;
  private readonly release;
  private readonly rollbackTo;

  constructor(private readonly db: Db) {
    this.begin = db.prepare('BEGIN IMMEDIATE');
    this.commit = db.prepare('COMMIT');
    this.rollback = db.prepare('ROLLBACK');
    this.savepoint = db.prepare('SAVEPOINT unit');
    this.release = db.prepare('RELEASE unit');
    this.rollbackTo = db.prepare('ROLLBACK TO unit');
  }

  run<T>(fn: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ fn, resolve: resolve as (v: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        // setImmediate, not a microtask: it runs after the I/O callbacks of this turn, so every
        // request that arrived together joins the batch.
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(waited = false): void {
    if (!waited && this.answers?.takeAnswered()) {
      // gRPC answers of the last turn finish leaving in this one; start after them
      // (answer-turns.ts). Once per batch: a steady stream of answers cannot hold it back.
      setImmediate(() => this.flush(true));
      return;
    }
    this.scheduled = false;
    const batch = this.pending.splice(0, MAX_BATCH);
    if (this.pending.length > 0) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
    if (this.db.inTransaction) {
      // Someone opened a transaction by hand and left it open: running inside it would let its
      // owner's ROLLBACK undo writes we had acknowledged.
      const e = new Error('group commit: the connection is already inside a transaction');
      for (const u of batch) u.reject(e);
      return;
    }
    this.onBatch?.(batch.length);
    const started = spanStart();
    try {
      this.begin.run();
      noticeOtherCommits(this.db);
    } catch (e) {
      // BEGIN failed, or the read after it (the transaction then ends unused).
      if (this.db.inTransaction) {
        try {
          this.rollback.run();
        } catch {
          // The next BEGIN says what is wrong with the connection.
        }
      }
      for (const u of batch) u.reject(e);
      return;
    }
    const results: { ok: boolean; value: unknown }[] = new Array(batch.length);
    let fatal: unknown = null;
    for (let i = 0; i < batch.length; i++) {
      if (fatal !== null) {
        results[i] = { ok: false, value: fatal };
        continue;
      }
      try {
        // Inside the try: a SAVEPOINT that fails (out of memory, a lost connection) fails its unit
        // and the batch below instead of escaping the setImmediate and leaving promises unsettled.
        this.savepoint.run();
        const value = batch[i]!.fn();
        this.release.run();
        results[i] = { ok: true, value };
      } catch (e) {
        results[i] = { ok: false, value: e };
        dropCaches(this.db);
        if (this.db.inTransaction) {
          try {
            this.rollbackTo.run();
            this.release.run();
          } catch (e2) {
            fatal = e2;
          }
        } else {
          // SQLite rolled the whole transaction back: the earlier units' writes are gone too.
          fatal = e;
        }
      }
    }
    if (fatal === null) {
      const commit = spanStart();
      try {
        this.commit.run();
      } catch (e) {
        fatal = e;
      }
      spanEnd('db.commit', commit);
    }
    if (fatal !== null) {
      dropCaches(this.db);
      if (this.db.inTransaction) {
        try {
          this.rollback.run();
        } catch {
          // The connection is already outside the transaction or unusable; the next BEGIN says which.
        }
      }
      for (let i = 0; i < batch.length; i++) if (results[i]!.ok) results[i] = { ok: false, value: fatal };
    }
    // The event loop's time in the database for this batch: BEGIN to COMMIT, every unit included.
    spanEnd('db.transaction', started);
    for (let i = 0; i < batch.length; i++) {
      const r = results[i]!;
      if (r.ok) batch[i]!.resolve(r.value);
      else batch[i]!.reject(r.value);
    }
  }
}

const queueOf = perObject((db: Db) => new CommitQueue(db));

/** Calls `observe` with the size of every batch run on `db` from now on (one observer per database). */
export function observeBatches(db: Db, observe: (size: number) => void): void {
  queueOf(db).onBatch = observe;
}

/** Makes batches on `db` wait for the answers `answers` marks (the gRPC server's; answer-turns.ts).
 *  Without it a batch never waits. */
export function waitForAnswers(db: Db, answers: AnswerTurns): void {
  queueOf(db).answers = answers;
}

/** Runs `fn` (synchronous statements only) as one all-or-nothing unit of a BEGIN IMMEDIATE
 *  transaction shared with the other units queued in this turn; resolves after COMMIT. */
export function groupCommit<T>(db: Db, fn: () => T): Promise<T> {
  return queueOf(db).run(fn);
}
