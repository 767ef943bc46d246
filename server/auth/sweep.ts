// Deletes login state that can never be used again (the kinds of store.ts `SweepKind`), so a flood
// of /authorize calls or logins cannot grow the database without bound: what it leaves behind is
// at most what one interval and one lifetime (300 s for a transaction) let through. Runs on a timer
// that never keeps the process alive, one kind at a time in batches of at most SWEEP_BATCH rows
// per statement; each batch is its own short write, so a request waits behind one batch at most.
// It also rotates the signing keys that have grown older than --signing-key-max-age.
import { GatehouseError } from '../errors.ts';
import type { Clock } from '../lib/clock.ts';
import { errorFields, type Logger } from '../lib/log.ts';
import type { SigningKeys } from './signing-keys.ts';
import { type AuthStore, SWEEP_KINDS, type SweepKind } from './store.ts';

export const SWEEP_BATCH = 500;
export const SWEEP_INTERVAL_MS = 30_000;

/** Rows deleted per login-state kind, and per further prune by its name. */
export type SweepCounts = Record<SweepKind, number> & Record<string, number>;

export interface Sweeper {
  /** One full pass now, after any pass under way; resolves with the rows deleted per kind. */
  runOnce(): Promise<SweepCounts>;
  /** Stops the timer and waits for a pass under way to stop after its current batch. */
  stop(): Promise<void>;
}

export interface SweeperDeps {
  store: AuthStore;
  clock: Clock;
  log: Logger;
  intervalMs?: number;
  batch?: number;
  /** Further prunes each pass runs, by name, after the login state (other concerns' retention:
   *  events/retention.ts), each in the same batches until a batch comes back short. */
  prunes?: Readonly<Record<string, (now: number, limit: number) => Promise<number>>>;
  /** The scheduled signing-key rotation (--signing-key-max-age): each pass rotates the keys older
   *  than `maxAgeMs`. */
  signingKeys?: { keys: SigningKeys; maxAgeMs: number };
}

export function startSweeper(deps: SweeperDeps): Sweeper {
  const batch = deps.batch ?? SWEEP_BATCH;
  let running: Promise<SweepCounts> | null = null;
  let stopped = false;

  async function pass(): Promise<SweepCounts> {
    const now = deps.clock.now();
    const counts: SweepCounts = { transactions: 0, codes: 0, webAttempts: 0, families: 0, appleNotifications: 0 };
    for (const kind of SWEEP_KINDS) {
      for (;;) {
        if (stopped) return counts;
        const n = await deps.store.sweep(kind, now, batch);
        counts[kind] += n;
        // Fewer than a batch: no statement found a full batch, so nothing of this kind is left.
        if (n < batch) break;
      }
    }
    for (const [name, prune] of Object.entries(deps.prunes ?? {})) {
      counts[name] = 0;
      for (;;) {
        if (stopped) return counts;
        const n = await prune(now, batch);
        counts[name] += n;
        if (n < batch) break;
      }
    }
    if (deps.signingKeys && !stopped) {
      for (const r of await deps.signingKeys.keys.rotateDue(deps.signingKeys.maxAgeMs)) {
        deps.log.info('signing key rotated', {
          realmId: r.current.realmId,
          kid: r.current.kid,
          previousKid: r.replaced?.kid ?? null,
          previousRetiresAt: r.replaced?.retiredAt ?? null,
        });
      }
    }
    return counts;
  }

  async function runOnce(): Promise<SweepCounts> {
    while (running) await running.catch(() => {});
    running = pass().finally(() => {
      running = null;
    });
    return running;
  }

  const timer = setInterval(() => {
    if (running || stopped) return;
    runOnce().then(
      (counts) => {
        if (Object.values(counts).some((n) => n > 0)) deps.log.debug('login state swept', counts);
      },
      (e) => deps.log.warn('login state sweep failed', errorFields(GatehouseError.from(e))),
    );
  }, deps.intervalMs ?? SWEEP_INTERVAL_MS);
  timer.unref();

  return {
    runOnce,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running?.catch(() => {});
    },
  };
}
