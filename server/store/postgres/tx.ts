// How the PostgreSQL stores talk to the database: one use case = one transaction on one pooled,
// pipelined connection. Statements that do not wait on each other's answers are sent together
// (BEGIN with the first reads; the writes with COMMIT), so a use case costs a round trip per
// decision, not per statement. Rules run in JavaScript between the round trips, over rows read
// under the row locks the use case took (SELECT … FOR NO KEY UPDATE), at READ COMMITTED.
//
// Failures: a rule's GatehouseError rolls the transaction back and passes through; a race the
// database settles (serialization failure, deadlock, a unique key another replica took first,
// RetryUseCase) runs the whole use case again, a bounded number of times, rules re-read; a
// connection lost before COMMIT was sent runs it once more on a fresh one (nothing of it was
// written), but not one lost after (it may have committed); everything else is translated at
// this edge (errors.ts): 503 for an unreachable or busy database, else the caller's 500.
import { createHash } from 'node:crypto';
import type pg from 'pg';
import { GatehouseError } from '../../errors.ts';
import { isConnectionFailure, isRetryableConflict, postgresError } from './errors.ts';

/** Thrown by a use case that found its insert beaten by another replica's (ON CONFLICT DO NOTHING
 *  touched no row where the rules had seen none): run it again, it now sees the winner's row. */
export class RetryUseCase extends Error {}

/** Runs of a use case at most (the first and the retries). */
const MAX_ATTEMPTS = 4;

// Named statements are prepared once per connection and reused: their names come from their text.
const names = new Map<string, string>();
function nameOf(text: string): string {
  let n = names.get(text);
  if (n === undefined) {
    n = 'g' + createHash('sha1').update(text).digest('hex').slice(0, 20);
    names.set(text, n);
  }
  return n;
}

/** The statements of one transaction, each sent at once behind the ones before it. */
export class Tx {
  private readonly sent: Array<Promise<unknown>> = [];
  private inFlight = 0;
  /** What the transaction cost so far: statements sent, and round trips (a statement sent while
   *  none was awaiting its answer opens one; those sent behind it share it). */
  readonly cost: TxCost = { statements: 0, roundTrips: 0 };

  private corked = false;

  constructor(private readonly client: pg.PoolClient) {}

  private send(text: string, values?: unknown[]): Promise<pg.QueryResult> {
    this.cork();
    this.cost.statements++;
    if (this.inFlight++ === 0) this.cost.roundTrips++;
    const p = values === undefined ? this.client.query(text) : this.client.query({ name: nameOf(text), text, values });
    const done = () => void this.inFlight--;
    p.then(done, done);
    this.sent.push(p);
    return p;
  }

  /** Holds the messages of the statements sent in one synchronous run in the socket's buffer, and
   *  writes them in one system call when it ends: pg writes each message of the extended protocol
   *  on its own (Parse, Bind, Describe, Execute, Sync), and on loopback each write costs the
   *  database's side of the delivery too. */
  private cork(): void {
    if (this.corked) return;
    const stream = (this.client as unknown as { connection?: { stream?: { cork?(): void; uncork?(): void } } }).connection?.stream;
    if (typeof stream?.cork !== 'function' || typeof stream.uncork !== 'function') return;
    this.corked = true;
    stream.cork();
    process.nextTick(() => {
      this.corked = false;
      stream.uncork!();
    });
  }

  // Every promise handed out is marked handled: a use case may stop at a refusal without awaiting
  // the rest of what it sent, and settle() reports every failure anyway.

  /** Sends a statement; its rows when they come. */
  rows<R>(text: string, values: unknown[]): Promise<R[]> {
    return quiet(this.send(text, values).then((r) => r.rows as R[]));
  }

  /** The first row, or undefined. */
  row<R>(text: string, values: unknown[]): Promise<R | undefined> {
    return quiet(this.send(text, values).then((r) => r.rows[0] as R | undefined));
  }

  /** Sends a write nobody needs to wait for: it is checked at COMMIT (a failed write aborts the
   *  transaction). Resolves with the number of rows it touched. */
  run(text: string, values: unknown[]): Promise<number> {
    return quiet(this.send(text, values).then((r) => r.rowCount ?? 0));
  }

  /** Sends BEGIN, COMMIT or ROLLBACK on the pipeline. */
  control(text: 'BEGIN' | 'COMMIT' | 'ROLLBACK'): Promise<pg.QueryResult> {
    return this.send(text);
  }

  /** Waits until every statement sent has answered; the first failure, if any. */
  async settle(): Promise<unknown> {
    const results = await Promise.allSettled(this.sent);
    for (const r of results) if (r.status === 'rejected') return r.reason;
    return undefined;
  }
}

/** `p`, marked handled (its failure is reported where it is awaited, or by settle()). */
export function quiet<T>(p: Promise<T>): Promise<T> {
  p.catch(() => {});
  return p;
}

/** What one transaction cost. */
export interface TxCost {
  statements: number;
  roundTrips: number;
}

/** Told the cost of each committed transaction, by use case (the tests count a consume's). */
export type TxObserver = (useCase: string, cost: TxCost) => void;

type Phase = 'connect' | 'statements' | 'commit';

class AttemptFailure extends Error {
  constructor(
    readonly failure: unknown,
    readonly phase: Phase,
  ) {
    super('transaction failed', { cause: failure });
  }
}

/** Where a transaction runs: the pool, and who is told what each one cost. */
export interface TxContext {
  pool: pg.Pool;
  observe?: TxObserver;
}

/** Runs `fn` as one transaction on a connection of the pool, BEGIN pipelined with its first
 *  statements and COMMIT with its last; retried as described above. */
export async function inTransaction<T>(ctx: TxContext, useCase: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      const { result, cost } = await attemptOnce(ctx.pool, fn);
      ctx.observe?.(useCase, cost);
      return result;
    } catch (e) {
      if (!(e instanceof AttemptFailure)) throw e;
      const f = e.failure;
      const again =
        attempt < MAX_ATTEMPTS &&
        (f instanceof RetryUseCase || isRetryableConflict(f) || isUniqueViolation(f) || (attempt === 1 && e.phase === 'statements' && isConnectionFailure(f)));
      if (again) {
        // Spread the retries of racing replicas so they do not meet again at once.
        await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 5 * attempt)));
        continue;
      }
      throw translate(f);
    }
  }
}

async function attemptOnce<T>(pool: pg.Pool, fn: (tx: Tx) => Promise<T>): Promise<{ result: T; cost: TxCost }> {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (e) {
    throw new AttemptFailure(e, 'connect');
  }
  const tx = new Tx(client);
  let broken: Error | undefined;
  // A checked-out connection that breaks emits 'error' (unheard, it would end the process); the
  // statements in flight fail with it too, and the connection is closed on release.
  const onError = (err: Error) => void (broken ??= err);
  client.on('error', onError);
  try {
    tx.control('BEGIN');
    let result: T;
    try {
      result = await fn(tx);
    } catch (e) {
      // Everything sent must answer before the connection is reused; ROLLBACK (pipelined behind
      // it) ends the transaction whatever state it is in.
      const rollback = tx.control('ROLLBACK');
      const failed = await tx.settle();
      await rollback.catch((r: Error) => (broken = r));
      if (failed !== undefined && isConnectionFailure(failed)) broken ??= failed as Error;
      // A rule's refusal passes through (it was made on reads that all answered).
      if (e instanceof GatehouseError) throw e;
      // Otherwise the first statement that failed says why: the ones behind it in the pipeline
      // only report the transaction aborted.
      throw new AttemptFailure(failed ?? e, 'statements');
    }
    const commit = tx.control('COMMIT');
    const failed = await tx.settle();
    if (failed !== undefined) {
      if (isConnectionFailure(failed)) broken = failed as Error;
      // A statement the database refused: it answered the COMMIT behind it with a ROLLBACK, so
      // nothing was written, and the failure (not COMMIT's) says why. A lost connection, though,
      // may have lost only the answers: whether COMMIT ran is unknown, so it is not run again.
      throw new AttemptFailure(failed, 'commit');
    }
    const done = await commit;
    if (done.command !== 'COMMIT') throw new AttemptFailure(new Error(`transaction ended with ${done.command}, not COMMIT`), 'commit');
    return { result, cost: tx.cost };
  } catch (e) {
    if (e instanceof AttemptFailure && isConnectionFailure(e.failure)) broken ??= e.failure as Error;
    throw e;
  } finally {
    // A connection that failed is closed, not handed to the next use case.
    client.removeListener('error', onError);
    client.release(broken);
  }
}

/** A single statement outside a transaction (a plain read), on any pooled connection; retried
 *  once on a fresh connection when the one it went out on had been lost. */
export async function query<R>(pool: pg.Pool, text: string, values: unknown[]): Promise<R[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      return (await pool.query({ name: nameOf(text), text, values })).rows as R[];
    } catch (e) {
      if (attempt === 1 && isConnectionFailure(e) && !isConnectError(e)) continue;
      throw translate(e);
    }
  }
}

/** The pool could not open a connection at all (nothing to gain from asking again at once). */
function isConnectError(e: unknown): boolean {
  const code = (e as { code?: unknown }).code;
  return code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EHOSTUNREACH' || code === 'ENOENT' || code === 'EAI_AGAIN';
}

function translate(e: unknown): unknown {
  if (e instanceof GatehouseError) return e;
  return postgresError(e) ?? e;
}

/** A unique key was taken by a concurrent transaction (23505). Every insert the stores expect to
 *  meet a duplicate says ON CONFLICT; one that does not met a race (two replicas writing the same
 *  idempotency key, the same login's first link): the use case runs again and sees the winner. */
function isUniqueViolation(e: unknown): boolean {
  return (e as { code?: unknown } | null)?.code === '23505';
}
