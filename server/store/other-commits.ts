// Caches of rows that other processes may change (`gatehouse keys revoke --db …` while the server
// runs) must notice their commits. PRAGMA data_version changes when another connection has committed;
// it costs a read transaction, so it is asked at most once per turn of the event loop, and the calls
// of one turn share the answer.
import type { Db } from './open.ts';

/** A check to call before reading a cache: runs `drop` when another connection committed since
 *  the last look (and on the first call). */
export function watchOtherCommits(db: Db, drop: () => void): () => void {
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  let seen = -1;
  let checked = false;
  return () => {
    if (checked) return;
    checked = true;
    setImmediate(() => (checked = false));
    const v = dataVersion.get() as number;
    if (v !== seen) {
      seen = v;
      drop();
    }
  };
}
