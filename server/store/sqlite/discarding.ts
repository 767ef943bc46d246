// The stores over a SQLite connection already inside a transaction its owner opened by hand, where
// they run as usual but leave nothing behind (`gatehouse db copy` asks the copy for every user's
// summary before it commits; a summary materialises due grants, which the copy must not keep).
// Group commit (group-commit.ts) runs its batches in BEGIN IMMEDIATE … COMMIT; on this view of the
// connection that pair is a savepoint inside the owner's transaction, rolled back at its end.
import type { Statement } from 'better-sqlite3';
import type { Db } from './open.ts';

const SAVEPOINT = 'gatehouse_discarded';

/** `db` as group commit sees it: not inside a transaction until it begins a batch, whose writes are
 *  undone when the batch ends, committed or not. Every other use of the connection is unchanged. */
export function discardingWrites(db: Db): Db {
  let inBatch = false;
  const begin = db.prepare(`SAVEPOINT ${SAVEPOINT}`);
  const undo = [db.prepare(`ROLLBACK TO ${SAVEPOINT}`), db.prepare(`RELEASE ${SAVEPOINT}`)];
  const control: Record<string, Pick<Statement, 'run'>> = {
    'BEGIN IMMEDIATE': {
      run: () => {
        // Outside the owner's transaction a savepoint would begin one, and its RELEASE commit.
        if (!db.inTransaction) throw new Error('discardingWrites: the connection is not inside a transaction');
        inBatch = true;
        return begin.run();
      },
    },
    COMMIT: { run: end },
    ROLLBACK: { run: end },
  };
  function end() {
    inBatch = false;
    const r = undo[0]!.run();
    undo[1]!.run();
    return r;
  }
  return new Proxy(db, {
    get(target, prop) {
      if (prop === 'inTransaction') return inBatch;
      if (prop === 'prepare') return (sql: string) => (control[sql] as Statement | undefined) ?? target.prepare(sql);
      const v = Reflect.get(target, prop, target) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}
