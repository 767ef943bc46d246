// The stores over one PostgreSQL connection already inside a transaction its owner opened, where
// they run as usual but leave nothing behind: the twin of sqlite/discarding.ts. `gatehouse db copy`
// asks both databases for every user's summary, which materialises due grants, and neither may
// keep them (the source is only read; the target must hold exactly the source's rows).
//
// inTransaction (tx.ts) checks a connection out of its pool, sends BEGIN, the use case's
// statements, then COMMIT or ROLLBACK, and releases it. This pool hands out the one connection,
// to one use case at a time, and turns that BEGIN into a savepoint which COMMIT and ROLLBACK alike
// roll back to: every read answers as usual, every write is undone at the end of its use case.
import type pg from 'pg';
import type { TxContext } from './tx.ts';

const SAVEPOINT = 'gatehouse_discarded';

/** A TxContext whose transactions run inside `client`'s and are undone when they end. `client`
 *  is a pipelined connection (tx.ts sends a use case's statements without waiting). */
export function discardingContext(client: pg.ClientBase): TxContext {
  let turn: Promise<void> = Promise.resolve();
  /** Waits for the use case before to end; resolves with the function that ends this one. */
  const acquire = (): Promise<() => void> => {
    let release!: () => void;
    const mine = new Promise<void>((r) => (release = r));
    const ready = turn.then(() => release);
    turn = turn.then(() => mine);
    return ready;
  };
  const undo = async (command: string): Promise<pg.QueryResult> => {
    // Sent together on a pipelined connection: one round trip.
    await Promise.all([client.query(`ROLLBACK TO SAVEPOINT ${SAVEPOINT}`), client.query(`RELEASE SAVEPOINT ${SAVEPOINT}`)]);
    // tx.ts checks that its COMMIT answered as one.
    return { command, rowCount: 0, rows: [], oid: 0, fields: [] };
  };
  const connection = (release: () => void) => ({
    query(q: string | pg.QueryConfig): Promise<pg.QueryResult> {
      if (q === 'BEGIN') return client.query(`SAVEPOINT ${SAVEPOINT}`);
      if (q === 'COMMIT' || q === 'ROLLBACK') return undo(q);
      if (typeof q === 'string') return Promise.reject(new Error(`discardingContext: unexpected statement ${q}`));
      return client.query(q);
    },
    // The owner's connection reports its own failures; nothing is closed here.
    on() {},
    removeListener() {},
    release,
  });
  const pool = {
    connect: async () => connection(await acquire()),
    // A plain read outside a use case (tx.ts query()): in a savepoint too, so a failure does not
    // abort the owner's transaction.
    query: async (q: pg.QueryConfig) => {
      const release = await acquire();
      try {
        await client.query(`SAVEPOINT ${SAVEPOINT}`);
        try {
          return await client.query(q);
        } finally {
          await undo('ROLLBACK');
        }
      } finally {
        release();
      }
    },
  };
  // Only what tx.ts uses of a pool is here; the stores never see more of it.
  return { pool: pool as unknown as pg.Pool };
}
