// One user's points use cases take turns on the user's row lock (points-sql.ts). A call of a user
// whose lock is held (a long transaction, an operator's session) waits inside PostgreSQL on a
// pooled connection, and enough such calls would hold every connection of the pool: every other
// user's call would then wait for one and fail. So at most `perUser` calls of one user hold or wait
// for a pooled connection at once; the rest wait here, holding nothing, as long as a statement
// would wait for the lock (lock_timeout), then answer as it would: 503, busy.
import { FlatTable } from '../../lib/flat-table.ts';
import { errorOfKind } from '../errors.ts';

interface Waiter {
  go(): void;
}

interface Turns {
  /** Calls of the user past the gate (holding or waiting for a connection). */
  active: number;
  waiting: Waiter[];
}

export class UserGate {
  // Not a Map: an entry per user with a call in flight, gone when the call ends (lib/flat-table.ts).
  private readonly users = FlatTable.byString<Turns>();

  constructor(
    private readonly perUser: number,
    /** Longest a call waits here for its turn (0: no bound). */
    private readonly waitMs: number,
  ) {}

  /** The per-user bound for a pool of `poolSize`: a quarter of it, at least one. One user's calls
   *  are serial on its lock anyway; a second connection only has the next call's statements queued
   *  in the database when the lock frees. */
  static forPool(poolSize: number, lockTimeoutMs: number): UserGate {
    return new UserGate(Math.max(1, Math.floor(poolSize / 4)), lockTimeoutMs);
  }

  /** No bound: a store on one connection of its own (db copy's), whose calls never wait on each other. */
  static unbounded(): UserGate {
    return new UserGate(Number.POSITIVE_INFINITY, 0);
  }

  /** Runs `fn` once the user has a turn; throws 503 busy when none came within the wait. */
  async run<T>(userId: string, fn: () => Promise<T>): Promise<T> {
    await this.enter(userId);
    try {
      return await fn();
    } finally {
      this.leave(userId);
    }
  }

  /** Calls of the user waiting here for a turn (for the tests). */
  waiting(userId: string): number {
    return this.users.get(userId)?.waiting.length ?? 0;
  }

  private enter(userId: string): Promise<void> {
    let turns = this.users.get(userId);
    if (turns === undefined) {
      turns = { active: 0, waiting: [] };
      this.users.set(userId, turns);
    }
    if (turns.active < this.perUser) {
      turns.active++;
      return Promise.resolve();
    }
    const queue = turns.waiting;
    return new Promise<void>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const waiter: Waiter = {
        go: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      if (this.waitMs > 0) {
        timer = setTimeout(() => {
          queue.splice(queue.indexOf(waiter), 1);
          const cause = new Error(`${this.perUser} calls of user ${userId} held or awaited a connection for ${this.waitMs} ms`);
          reject(errorOfKind('busy', cause));
        }, this.waitMs);
      }
      queue.push(waiter);
    });
  }

  /** Hands the turn to the next call waiting, if any. */
  private leave(userId: string): void {
    const turns = this.users.get(userId)!;
    const next = turns.waiting.shift();
    if (next) next.go();
    else if (--turns.active === 0) this.users.delete(userId);
  }
}
