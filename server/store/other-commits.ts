// Caches of rows that other processes may change (`gatehouse keys revoke --db …` while the server
// runs) must notice their commits. PRAGMA data_version changes when another connection has committed;
// it costs a read transaction, so it is asked at most once per turn of the event loop per connection,
// and every cache of that connection shares the answer (a consume reads two of them).
import { perObject } from '../lib/memo.ts';
import type { Db } from './open.ts';

class OtherCommits {
  private readonly dataVersion;
  private seen = -1;
  private checked = false;
  readonly drops: Array<() => void> = [];

  constructor(db: Db) {
    this.dataVersion = db.prepare('PRAGMA data_version').pluck();
  }

  check(): void {
    if (this.checked) return;
    this.checked = true;
    setImmediate(() => (this.checked = false));
    const v = this.dataVersion.get() as number;
    if (v !== this.seen) {
      this.seen = v;
      for (const drop of this.drops) drop();
    }
  }
}

const watcherOf = perObject((db: Db) => new OtherCommits(db));

/** A check to call before reading a cache: when another connection has committed since the
 *  connection last looked (and on the first look), every cache registered on it runs its `drop`. */
export function watchOtherCommits(db: Db, drop: () => void): () => void {
  const w = watcherOf(db);
  w.drops.push(drop);
  return () => w.check();
}
