// Hold + settle and refund throughput against the length of a user's history (docs/points.md: the
// cost of consume, hold, settle, refund and summary does not grow with it). Four users on the same
// three windows: a fresh one, one with 1 000 and one with 1 000 000 prior consume events inside the
// windows, and one with 1 000 000 events of which 10 000 were refunded (quota returned to rows spread
// through the windows, so every window subtracts returns). The events are seeded straight into the
// ledger; the operations run through the points store in this process (no transport), in
// interleaved rounds, each user's figure against the fresh user's of the same round.
//   node --import tsx bench/ledger-history.ts [--calls 1500 --rounds 4]
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { systemClock } from '../server/lib/clock.ts';
import { returnBlocks } from '../server/points/ledger.ts';
import type { PointsStore } from '../server/points/store.ts';
import { createPointsEngine } from '../server/points-engine.ts';
import { immediate, openDatabase } from '../server/store/open.ts';
import { sqliteStores } from '../server/store/stores.ts';
import { tempDir } from '../test/helpers/server.ts';

const DAY = 86_400_000;
const WINDOWS = [
  { windowSeconds: 18000, limit: 1e12 },
  { windowSeconds: 86400, limit: 1e12 },
  { windowSeconds: 2592000, limit: 1e12 },
];
const USERS = { fresh: 0, k1: 1_000, m1: 1_000_000, m1refunds: 1_000_000 } as const;
type Who = keyof typeof USERS;
const REFUNDED_ROWS = 10_000;

export interface LedgerHistoryResult {
  callsPerRound: number;
  rounds: number;
  /** Median operations per second, per user. */
  holdSettlePerSecond: Record<Who, number>;
  refundPerSecond: Record<Who, number>;
  /** Median of each round's figure over the fresh user's. */
  ratios: { holdSettle: Record<Exclude<Who, 'fresh'>, number>; refund: Record<Exclude<Who, 'fresh'>, number> };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** The users, their subscription windows and their seeded history in a fresh database at `dbPath`. */
async function seed(dbPath: string): Promise<void> {
  const db = openDatabase(dbPath);
  const now = Date.now();
  const engine = createPointsEngine(sqliteStores(db), systemClock);
  db.prepare("INSERT INTO realms (id, name, created_at) VALUES ('bench', 'bench', ?)").run(now);
  for (const id of Object.keys(USERS))
    db.prepare("INSERT INTO users (id, realm_id, email, created_at) VALUES (?, 'bench', ?, ?)").run(id, `${id}@example.com`, now);
  const [m] = await engine.billing.applyMappingBatch('bench', 'stripe', 'bench', [{ entitlementKey: 'bench', quotaWindows: WINDOWS }], now);
  for (const [i, id] of Object.keys(USERS).entries())
    await engine.billing.createSubscription({ realmId: 'bench', userId: id, mappingId: m!.id, externalSubscriptionId: null, id: `sub_${i}` }, now);
  const insert = db.prepare("INSERT INTO points_usage_ledger (user_id, kind, at, seq, amount, cum) VALUES (?, 'subscription_credit', ?, ?, 1, ?)");
  const head = db.prepare("UPDATE points_usage_heads SET seq = ?, cum = ?, last_at = ?, returned = ? WHERE user_id = ? AND kind = 'subscription_credit'");
  const createHead = db.prepare(
    "INSERT OR IGNORE INTO points_usage_heads (user_id, kind, seq, cum, last_at, returned) VALUES (?, 'subscription_credit', 0, 0, 0, 0)",
  );
  const returnRow = db.prepare("UPDATE points_usage_ledger SET returned = 1 WHERE user_id = ? AND kind = 'subscription_credit' AND at = ? AND seq = ?");
  const addBlock = db.prepare(`INSERT INTO points_usage_returns (user_id, kind, level, idx, amount) VALUES (?, 'subscription_credit', ?, ?, 1)
    ON CONFLICT (user_id, kind, level, idx) DO UPDATE SET amount = amount + 1`);
  for (const [id, n] of Object.entries(USERS)) {
    if (n === 0) continue;
    // Spread over the last 29 days: every event is inside the 30-day window.
    const from = now - 29 * DAY;
    const step = (29 * DAY - 60_000) / n;
    const refunds = id === 'm1refunds' ? REFUNDED_ROWS : 0;
    await immediate(db, () => {
      createHead.run(id);
      let at = from;
      for (let seq = 1; seq <= n; seq++) {
        at = from + Math.floor(seq * step);
        insert.run(id, at, seq, seq);
        if (refunds && seq % (n / refunds) === 0) {
          returnRow.run(id, at, seq);
          for (const b of returnBlocks(seq)) addBlock.run(id, b.level, b.idx);
        }
      }
      head.run(n, n, at, refunds, id);
    });
  }
  db.close();
}

/** `calls` runs of `op`, 8 at a time (as a server's callers would: each transaction waits for
 *  its group's commit, so one at a time measures the commit interval, not the work). */
async function timed(calls: number, op: () => Promise<unknown>): Promise<number> {
  let next = 0;
  const t0 = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < calls) {
        next++;
        await op();
      }
    }),
  );
  return calls / (Number(process.hrtime.bigint() - t0) / 1e9);
}

let ids = 0;
const holdSettle = (store: PointsStore, userId: string) => async () => {
  const h = await store.hold(
    { realmId: 'bench', userId, amount: 5, ttlSeconds: 600, description: null, idempotencyKey: null, requestHash: '', holdId: `hld_${ids++}` },
    Date.now(),
  );
  await store.settle(
    { realmId: 'bench', holdId: h.holdId, amount: 3, description: null, idempotencyKey: null, requestHash: '', transactionId: `ptx_${ids++}` },
    Date.now(),
  );
};

export async function ledgerHistory(opts: { calls?: number; rounds?: number; log?: (s: string) => void } = {}): Promise<LedgerHistoryResult> {
  const calls = opts.calls ?? 1500;
  const rounds = opts.rounds ?? 4;
  const log = opts.log ?? (() => {});
  const dir = tempDir('gatehouse-bench-ledger-');
  const dbPath = join(dir, 'ledger.db');
  const t0 = Date.now();
  await seed(dbPath);
  log(`ledger bench: seeded ${USERS.k1 + USERS.m1 + USERS.m1refunds} ledger rows in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const db = openDatabase(dbPath);
  const store = sqliteStores(db).points;
  const who = Object.keys(USERS) as Who[];
  const hs: Record<Who, number[]> = { fresh: [], k1: [], m1: [], m1refunds: [] };
  const rf: Record<Who, number[]> = { fresh: [], k1: [], m1: [], m1refunds: [] };
  try {
    // Consumes to refund, one per refund call of every round (and the warm-up).
    const toRefund: Record<Who, string[]> = { fresh: [], k1: [], m1: [], m1refunds: [] };
    for (const u of who)
      await timed(calls * (rounds + 1), async () => {
        const c = await store.consume(
          { realmId: 'bench', userId: u, amount: 2, description: null, idempotencyKey: null, requestHash: '', transactionId: `ptx_${ids++}` },
          Date.now(),
        );
        toRefund[u].push(c.transactionId);
      });
    const refund = (u: Who) => async () => {
      const transactionId = toRefund[u].pop()!;
      await store.refund(
        { realmId: 'bench', transactionId, amount: 1, reason: null, idempotencyKey: null, requestHash: '', refundId: `rfd_${ids++}` },
        Date.now(),
      );
    };
    for (let r = -1; r < rounds; r++) {
      const order = r % 2 === 0 ? who : [...who].reverse();
      for (const u of order) {
        const a = await timed(calls, holdSettle(store, u));
        const b = await timed(calls, refund(u));
        if (r >= 0) {
          hs[u].push(a);
          rf[u].push(b);
        }
      }
      if (r >= 0)
        log(
          `ledger bench round ${r + 1}/${rounds}: ${who.map((u) => `${u} hold+settle ${Math.round(hs[u].at(-1)!)}/s refund ${Math.round(rf[u].at(-1)!)}/s`).join(', ')}`,
        );
    }
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const ratio = (xs: Record<Who, number[]>, u: Who) => Number(median(xs[u].map((x, i) => x / xs.fresh[i]!)).toFixed(3));
  const per = (xs: Record<Who, number[]>) => Object.fromEntries(who.map((u) => [u, Math.round(median(xs[u]))])) as Record<Who, number>;
  return {
    callsPerRound: calls,
    rounds,
    holdSettlePerSecond: per(hs),
    refundPerSecond: per(rf),
    ratios: {
      holdSettle: { k1: ratio(hs, 'k1'), m1: ratio(hs, 'm1'), m1refunds: ratio(hs, 'm1refunds') },
      refund: { k1: ratio(rf, 'k1'), m1: ratio(rf, 'm1'), m1refunds: ratio(rf, 'm1refunds') },
    },
  };
}

if (process.argv[1]?.endsWith('ledger-history.ts')) {
  const { values } = parseArgs({ strict: false, options: { calls: { type: 'string' }, rounds: { type: 'string' } } });
  const r = await ledgerHistory({
    calls: values.calls ? Number(values.calls) : undefined,
    rounds: values.rounds ? Number(values.rounds) : undefined,
    log: (s) => process.stderr.write(s + '\n'),
  });
  process.stdout.write(JSON.stringify(r, null, 2) + '\n');
}
