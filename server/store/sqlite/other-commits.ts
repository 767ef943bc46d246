// The invalidation signal of the SQLite stores' caches (lib/cache.ts): rows other processes may
// change (`gatehouse keys revoke --db …` while the server runs) must be noticed. PRAGMA
// data_version changes when another connection has committed; it costs a read transaction, so it
// is asked at most once per turn of the event loop per connection, and every cache of that
// connection shares the answer (a consume reads two of them). A connection's own commits do not
// change it: a store clears its caches around its own writes. Inside a write transaction the
// answer is exact: group commit asks again right after each BEGIN IMMEDIATE (no other writer can
// commit until it ends), and a rollback of this connection drops every cache (what its units had
// cached of their own writes is gone with them).
import { perObject } from '../../lib/memo.ts';
import type { Db } from './open.ts';

class OtherCommits {
  private readonly dataVersion;
  private seen = -1;
  private checked = false;
  /** Moves on each time data_version is seen to change. */
  private epoch = 0;

  constructor(db: Db) {
    this.dataVersion = db.prepare('PRAGMA data_version').pluck();
  }

  current(): number {
    if (!this.checked) this.ask();
    return this.epoch;
  }

  /** Asks data_version now, whatever this turn already knows; the answer serves the rest of the
   *  turn (a BEGIN's read is not followed by a second one for the turn's first cache). */
  ask(): void {
    if (!this.checked) {
      this.checked = true;
      setImmediate(() => (this.checked = false));
    }
    const v = this.dataVersion.get() as number;
    if (v !== this.seen) {
      this.seen = v;
      this.epoch++;
    }
  }

  /** Every cache of the connection starts again. */
  drop(): void {
    this.epoch++;
  }
}

const watcherOf = perObject((db: Db) => new OtherCommits(db));

/** A cache's invalidation signal over `db` (one per cache): true when another connection has
 *  committed since this signal last answered, and on its first call. */
export function otherCommitsSignal(db: Db): () => boolean {
  const w = watcherOf(db);
  let seen = -1;
  return () => {
    const e = w.current();
    if (e === seen) return false;
    seen = e;
    return true;
  };
}

/** After BEGIN IMMEDIATE on `db`: what others committed before it is noticed, so the caches read in
 *  the transaction hold nothing older than its snapshot. */
export function noticeOtherCommits(db: Db): void {
  watcherOf(db).ask();
}

/** After a rollback on `db`: every cache of the connection starts again. */
export function dropCaches(db: Db): void {
  watcherOf(db).drop();
}
