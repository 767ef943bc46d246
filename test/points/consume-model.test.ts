// The consumption engine against a brute-force reference model. Random sequences of
// grants, consumes, clock jumps and a cancel run on the real engine (in-memory SQLite, ManualClock)
// and on a model that keeps a plain list of consume events and sums it per window; every answer,
// every balance and every window row must agree.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { GatehouseError } from '../../server/errors.ts';
import { ManualClock } from '../../server/lib/clock.ts';
import { ledgerPruning } from '../../server/points/ledger.ts';
import type { QuotaWindow } from '../../server/points/model.ts';
import { windowKey } from '../../server/points/windows.ts';
import { openStores, type Stores } from '../helpers/stores.ts';

const LENGTHS = [60, 3600, 18000, 86400, 604800];
const DAY = 86_400_000;
// The model's own copy of the rule: balances of one expiry and age go in this kind order.
const MODEL_KIND_ORDER = ['subscription_credit', 'free_periodic_credit', 'granted_credit', 'registration_credit', 'topup_credit'];

type Op =
  | { op: 'grant'; kind: 'topup_credit' | 'granted_credit'; amount: number; expiresInMs: number | null }
  | { op: 'consume'; amount: number }
  | { op: 'advance'; ms: number }
  | { op: 'cancel' };

interface Scenario {
  subWindows: QuotaWindow[];
  freeWindows: QuotaWindow[];
  freeDailyAmount: number;
  registration: number;
  ops: Op[];
}

const windowsArb = (min: number) =>
  fc
    .uniqueArray(fc.constantFrom(...LENGTHS), { minLength: min, maxLength: 3 })
    .chain((lens) =>
      fc.tuple(...lens.map((l) => fc.integer({ min: 0, max: 150 }).map((limit) => ({ windowSeconds: l, limit })))).map((ws) => ws as QuotaWindow[]),
    );

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('grant' as const),
      kind: fc.constantFrom('topup_credit' as const, 'granted_credit' as const),
      amount: fc.integer({ min: 1, max: 60 }),
      expiresInMs: fc.option(fc.integer({ min: 1000, max: 3 * DAY }), { nil: null }),
    }),
  },
  { weight: 5, arbitrary: fc.record({ op: fc.constant('consume' as const), amount: fc.integer({ min: 1, max: 90 }) }) },
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant('advance' as const),
      ms: fc.oneof(
        fc.constantFrom(1, 999, 1000, 59_999, 60_000, 3_599_999, 3_600_000, 17_999_999, 18_000_000, DAY - 1, DAY, 7 * DAY - 1, 7 * DAY),
        fc.integer({ min: 1, max: 2 * DAY }),
      ),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ op: 'cancel' as const }) },
);

const scenarioArb: fc.Arbitrary<Scenario> = fc.record({
  subWindows: windowsArb(1),
  freeWindows: windowsArb(0),
  freeDailyAmount: fc.integer({ min: 0, max: 40 }),
  registration: fc.integer({ min: 0, max: 100 }),
  ops: fc.array(opArb, { minLength: 5, maxLength: 70 }),
});

/** The reference: lists and sums, nothing clever. */
class Model {
  events: Record<string, Array<{ at: number; amount: number }>> = { subscription_credit: [], free_periodic_credit: [] };
  balances: Array<{ id: string; kind: string; remaining: number; expiresAt: number | null; createdAt: number }> = [];
  subActive = true;
  freeDays = new Set<number>();
  constructor(readonly s: Scenario) {}

  windowsOf(kind: string): QuotaWindow[] {
    if (kind === 'subscription_credit') return this.subActive ? this.s.subWindows : [];
    return this.s.freeWindows;
  }

  materialise(now: number) {
    if (this.s.freeWindows.length === 0 && this.s.freeDailyAmount > 0) {
      const day = Math.floor(now / DAY) * DAY;
      if (!this.freeDays.has(day)) {
        this.freeDays.add(day);
        this.balances.push({ id: `free-${day}`, kind: 'free_periodic_credit', remaining: this.s.freeDailyAmount, expiresAt: day + DAY, createdAt: now });
      }
    }
  }

  rows(kind: string, now: number) {
    const ws = [...this.windowsOf(kind)].sort((a, b) => a.windowSeconds - b.windowSeconds);
    const rows = ws.map((w) => {
      const inside = this.events[kind]!.filter((e) => e.at > now - w.windowSeconds * 1000 && e.at <= now);
      const used = inside.reduce((s, e) => s + e.amount, 0);
      const remaining = Math.max(0, w.limit - used);
      return {
        creditKind: kind,
        key: windowKey(w.windowSeconds),
        windowSeconds: w.windowSeconds,
        limit: w.limit,
        used,
        remaining,
        nextRecoveryAt: used > 0 ? Math.min(...inside.map((e) => e.at)) + w.windowSeconds * 1000 : null,
        resetsAt: used > 0 ? Math.max(...inside.map((e) => e.at)) + w.windowSeconds * 1000 : null,
        isTightest: false,
        exhausted: remaining === 0,
      };
    });
    const min = Math.min(...rows.map((r) => r.remaining));
    const t = rows.find((r) => r.remaining === min);
    if (t) t.isTightest = true;
    return rows;
  }

  available(kind: string, now: number): number {
    const rows = this.rows(kind, now);
    return rows.length ? Math.max(0, Math.min(...rows.map((r) => r.limit - r.used))) : 0;
  }

  spendable(now: number) {
    return this.balances
      .filter((b) => b.remaining > 0 && (b.expiresAt === null || now < b.expiresAt))
      .sort(
        (a, b) =>
          (a.expiresAt ?? Infinity) - (b.expiresAt ?? Infinity) ||
          a.createdAt - b.createdAt ||
          MODEL_KIND_ORDER.indexOf(a.kind) - MODEL_KIND_ORDER.indexOf(b.kind) ||
          (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
      );
  }

  consume(
    amount: number,
    now: number,
  ): { ok: true; lines: Array<[string, number]>; remaining: { quota: number; pool: number; total: number } } | { ok: false; have: number } {
    this.materialise(now);
    const q = (['subscription_credit', 'free_periodic_credit'] as const).map((k) => ({ k, avail: this.available(k, now) }));
    const pool = this.spendable(now);
    const have = q.reduce((s, x) => s + x.avail, 0) + pool.reduce((s, b) => s + b.remaining, 0);
    if (have < amount) return { ok: false, have };
    let left = amount;
    const lines: Array<[string, number]> = [];
    for (const { k, avail } of q) {
      const take = Math.min(left, avail);
      if (take > 0) {
        this.events[k]!.push({ at: now, amount: take });
        lines.push([k, take]);
        left -= take;
      }
    }
    for (const b of pool) {
      if (left === 0) break;
      const take = Math.min(left, b.remaining);
      b.remaining -= take;
      lines.push([b.kind, take]);
      left -= take;
    }
    const quota = (['subscription_credit', 'free_periodic_credit'] as const).reduce((s, k) => s + this.available(k, now), 0);
    const poolLeft = this.spendable(now).reduce((s, b) => s + b.remaining, 0);
    return { ok: true, lines, remaining: { quota, pool: poolLeft, total: quota + poolLeft } };
  }

  summary(now: number) {
    this.materialise(now);
    const field: Record<string, string> = {
      topup_credit: 'topup',
      registration_credit: 'registration',
      granted_credit: 'granted',
      subscription_credit: 'subscription',
      free_periodic_credit: 'freePeriodic',
    };
    const balances: Record<string, number> = { topup: 0, registration: 0, granted: 0, subscription: 0, freePeriodic: 0 };
    for (const b of this.spendable(now)) balances[field[b.kind]!]! += b.remaining;
    const windows = [...this.rows('subscription_credit', now), ...this.rows('free_periodic_credit', now)];
    const quota = this.available('subscription_credit', now) + this.available('free_periodic_credit', now);
    const pool = Object.values(balances).reduce((s, v) => s + v, 0);
    return { balances, windows, spendableFromQuota: quota, spendableFromPool: pool, total: quota + pool, held: 0, holds: [] };
  }
}

/** Realm `r` with user `u`, through the store interfaces. */
async function realmWithUser(engine: Stores): Promise<void> {
  await engine.admin.createRealm({ id: 'r', name: 'r', createdAt: 0 });
  await engine.users.createUser({ id: 'u', realmId: 'r', email: 'u@example.com', emailVerified: false, givenName: null, familyName: null, createdAt: 0 });
}

async function run(s: Scenario): Promise<void> {
  // The stores over an in-memory database, driven offline with a manual clock.
  const engine = openStores(':memory:');
  const start = Date.UTC(2026, 5, 1, 7, 30);
  const clock = new ManualClock(start);
  try {
    await realmWithUser(engine);
    await engine.points.putDefaultConfig(
      'r',
      {
        registrationBonusPoints: s.registration,
        freePeriodicGrantPeriodType: s.freeWindows.length ? 'once' : 'daily',
        freePeriodicPointsAmount: s.freeDailyAmount,
        freePeriodicValidityDays: s.freeWindows.length ? 0 : 1,
        freePeriodicQuotaWindows: s.freeWindows,
      },
      start,
    );
    await engine.points.grantRegistration('r', 'u', start);
    const [mapping] = await engine.billing.applyMappingBatch('r', 'stripe', 'p', [{ entitlementKey: 'k', quotaWindows: s.subWindows }], start);
    const sub = await engine.billing.createSubscription({ realmId: 'r', userId: 'u', mappingId: mapping!.id, externalSubscriptionId: null, id: 'sub1' }, start);

    const model = new Model(s);
    if (s.registration > 0)
      model.balances.push({ id: 'registration', kind: 'registration_credit', remaining: s.registration, expiresAt: null, createdAt: start });
    // The engine's registration balance has a random id; give the model the same one for tie-breaks.
    const reg = (await engine.points.listBalances('r', 'u')).find((b) => b.kind === 'registration_credit');
    if (reg) model.balances[0]!.id = reg.id;

    let n = 0;
    for (const op of s.ops) {
      const now = clock.now();
      const where = `op ${n++} ${JSON.stringify(op)} at +${now - start} ms`;
      if (op.op === 'advance') clock.advance(op.ms);
      else if (op.op === 'cancel') {
        await engine.billing.cancelSubscription('r', sub.id, now);
        model.subActive = false;
      } else if (op.op === 'grant') {
        const expiresAt = op.expiresInMs === null ? null : now + op.expiresInMs;
        const g = await engine.points.grant(
          {
            realmId: 'r',
            userId: 'u',
            kind: op.kind,
            amount: op.amount,
            expiresAt,
            idempotencyKey: null,
            requestHash: '',
            grantId: `grt_${String(n).padStart(4, '0')}`,
          },
          now,
        );
        model.balances.push({ id: g.grantId, kind: op.kind, remaining: op.amount, expiresAt, createdAt: now });
      } else {
        const expected = model.consume(op.amount, now);
        let actual: typeof expected;
        try {
          const r = await engine.points.consume(
            { realmId: 'r', userId: 'u', amount: op.amount, description: null, idempotencyKey: null, requestHash: '', transactionId: `t${n}` },
            now,
          );
          actual = { ok: true, lines: r.allocations.map((a) => [a.creditKind, a.amount] as [string, number]), remaining: r.remaining };
        } catch (e) {
          if (!(e instanceof GatehouseError) || e.code !== 'insufficient_points') throw e;
          assert.equal(e.extra.need, op.amount);
          actual = { ok: false, have: e.extra.have as number };
        }
        assert.deepEqual(actual, expected, where);
      }
      const sum = await engine.points.summary('r', 'u', clock.now());
      const { userId: _u, ...got } = sum;
      assert.deepEqual(got, model.summary(clock.now()), `summary after ${where}`);
    }
  } finally {
    engine.close();
  }
}

describe('consumption engine vs a brute-force reference model', () => {
  it('agrees on every answer, balance and window row over random grants, consumes and clock jumps', async () => {
    // Prune the ledger after every consume, so pruning is exercised as hard as it can be.
    Object.assign(ledgerPruning, { every: 1 });
    try {
      await fc.assert(fc.asyncProperty(scenarioArb, run), { numRuns: 300, seed: Number(process.env.FC_SEED ?? Date.now() % 2 ** 31) });
    } finally {
      Object.assign(ledgerPruning, { every: 16 });
    }
  });
});

describe('ledger pruning', () => {
  it('keeps 366 days of history, so a 90-day window granted after months of pruning sees everything consumed inside it', async () => {
    Object.assign(ledgerPruning, { every: 1 });
    const engine = openStores(':memory:');
    const clock = new ManualClock(Date.UTC(2026, 5, 1));
    try {
      await realmWithUser(engine);
      const [short, long] = await engine.billing.applyMappingBatch(
        'r',
        'stripe',
        'p',
        [
          { entitlementKey: 'short', quotaWindows: [{ windowSeconds: 3600, limit: 10 }] },
          { entitlementKey: 'long', quotaWindows: [{ windowSeconds: 90 * 86400, limit: 100 }] },
        ],
        clock.now(),
      );
      await engine.billing.createSubscription({ realmId: 'r', userId: 'u', mappingId: short!.id, externalSubscriptionId: null, id: 's1' }, clock.now());
      // 2 points every 5 days for 80 days, from the 1-hour window: a month-long history would have
      // lost the first 50 days' rows by now.
      for (let i = 0; i < 16; i++) {
        await engine.points.consume(
          { realmId: 'r', userId: 'u', amount: 2, description: null, idempotencyKey: null, requestHash: '', transactionId: `t${i}` },
          clock.now(),
        );
        clock.advance(5 * DAY);
      }
      await engine.billing.createSubscription({ realmId: 'r', userId: 'u', mappingId: long!.id, externalSubscriptionId: null, id: 's2' }, clock.now());
      const s = await engine.points.summary('r', 'u', clock.now());
      assert.deepEqual(
        s.windows.map((w) => [w.key, w.used]),
        [
          ['1h', 0],
          ['90d', 32],
        ],
      );
    } finally {
      engine.close();
      Object.assign(ledgerPruning, { every: 16 });
    }
  });
});
