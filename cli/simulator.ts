// The consumption simulator: the real points engine (createPointsEngine) over an in-memory database
// and a virtual clock — not a second implementation of the rules. It replays a usage pattern and
// reports what was served and refused, when and by which window the user was blocked, how the pools
// drained, and the available quota over time. A request is a consume of its amount or, with `hold`,
// a hold of that many points settled at once at its amount (docs/points.md: holds), as an app that
// reserves before knowing the cost does.

import { openStorage } from '../server/backend.ts';
import { SecretBox } from '../server/crypto/secrets.ts';
import { GatehouseError } from '../server/errors.ts';
import { ManualClock } from '../server/lib/clock.ts';
import { silentLogger } from '../server/lib/log.ts';
import { createPointsEngine } from '../server/points-engine.ts';
import type { CallContext } from '../server/rpc/context.ts';
import type { Window } from './window-editor.ts';

export interface UsageEvent {
  /** Milliseconds after the start. */
  at: number;
  amount: number;
}

export interface SimulationInput {
  windows: Window[];
  /** Which quota the windows belong to. */
  kind: 'subscription_credit' | 'free_periodic_credit';
  /** Pool balances granted at the start; they never expire. */
  pools: { topup?: number; granted?: number };
  /** Events in time order; all are played, including the tail of a burst that starts at the end. */
  events: Iterable<UsageEvent>;
  /** Each request holds this many points first, then settles its amount (less, equal or more). */
  hold?: number;
  eventCount: number;
  durationMs: number;
  start: number;
  /** How many points of the quota curve to sample. */
  samples: number;
  onProgress?: (done: number, total: number) => void;
}

export interface BlockedSpan {
  from: string;
  /** When quota covered a request again (or the end of the run). */
  until: string;
  /** The window that ran out first (the tightest at the start of the span). */
  window: string;
  windowSeconds: number;
  refused: number;
  servedFromPool: number;
}

export interface SimulationResult {
  requests: number;
  served: number;
  refused: number;
  pointsRequested: number;
  pointsServed: number;
  pointsRefused: number;
  servedFromQuota: number;
  servedFromPool: number;
  blocked: BlockedSpan[];
  pool: { start: number; end: number; emptiedAt: string | null };
  curve: Array<{ at: string; availableQuota: number; pool: number }>;
  firstRefusalAt: string | null;
  /** With `hold`: the amount held per request, and the requests refused when holding (the hold did
   *  not fit) or when settling (an amount above the hold whose extra could not be covered; the hold
   *  is then released). null without holds. */
  holds: { amount: number; refusedAtHold: number; refusedAtSettle: number } | null;
}

const REALM = 'sim';
const POOL_KINDS = new Set(['topup_credit', 'registration_credit', 'granted_credit']);

export async function simulate(input: SimulationInput): Promise<SimulationResult> {
  const clock = new ManualClock(input.start);
  const storage = await openStorage(':memory:', SecretBox.ephemeral());
  try {
    const stores = storage.stores;
    const { admin, users } = stores;
    const engine = createPointsEngine(stores, clock);
    const ctx: CallContext = {
      requestId: 'sim',
      transport: 'grpc',
      clientIp: '127.0.0.1',
      header: () => undefined,
      principal: { kind: 'api_key', keyId: 'sim', realm: '*', permissions: ['*'] },
      log: silentLogger,
    };
    await admin.createRealm({ id: REALM, name: 'Simulation', createdAt: clock.now() });
    // Free periodic windows come from the default configuration a new account is granted under.
    if (input.windows.length && input.kind === 'free_periodic_credit') {
      await engine.pointsService.putDefaultConfig(
        { realmId: REALM, freePeriodicGrantPeriodType: 'once', freePeriodicQuotaWindows: { windows: input.windows } },
        ctx,
      );
    }
    const userId = 'usr_sim';
    const user = {
      id: userId,
      realmId: REALM,
      email: 'sim@example.invalid',
      emailVerified: true,
      givenName: null,
      familyName: null,
      createdAt: clock.now(),
      updatedAt: clock.now(),
      disabledAt: null,
    };
    await users.createUser(user);
    await engine.onUserCreated(user);

    if (input.windows.length && input.kind === 'subscription_credit') {
      {
        const batch = await engine.billingService.batchUpdateEntitlementMappings(
          {
            realmId: REALM,
            paymentProvider: 'sim',
            externalProductId: 'sim',
            updates: [
              {
                entitlementKey: 'sim',
                billingType: 'recurring',
                billingPeriod: 'monthly',
                pointsPerPeriod: 0,
                grantPeriodType: 'once',
                validityDays: 0,
                grantOnSubscribe: true,
                maxPeriods: 0,
                enabled: true,
                quotaWindows: { windows: input.windows },
              },
            ],
          },
          ctx,
        );
        await engine.billingService.createSubscription({ realmId: REALM, userId, mappingId: batch.mappings![0]!.mappingId! }, ctx);
      }
    }
    for (const [kind, amount] of [
      ['topup_credit', input.pools.topup],
      ['granted_credit', input.pools.granted],
    ] as const) {
      if (amount) await engine.pointsService.grant({ realmId: REALM, userId, kind, amount, expiresAt: null }, ctx);
    }

    const summary = async () => engine.pointsService.getSummary({ realmId: REALM, userId }, ctx);
    const iso = (t: number) => new Date(t).toISOString();
    const startSummary = await summary();
    const poolStart = startSummary.spendableFromPool as number;

    const result: SimulationResult = {
      requests: 0,
      served: 0,
      refused: 0,
      pointsRequested: 0,
      pointsServed: 0,
      pointsRefused: 0,
      servedFromQuota: 0,
      servedFromPool: 0,
      blocked: [],
      pool: { start: poolStart, end: poolStart, emptiedAt: null },
      curve: [],
      firstRefusalAt: null,
      holds: input.hold === undefined ? null : { amount: input.hold, refusedAtHold: 0, refusedAtSettle: 0 },
    };
    /** One request: a consume, or a hold settled at once; resolves with what stays charged. */
    const request = async (amount: number): Promise<Array<{ creditKind: string; amount: number }>> => {
      const svc = engine.pointsService;
      if (!result.holds) return (await svc.consume({ realmId: REALM, userId, amount }, ctx)).allocations as Array<{ creditKind: string; amount: number }>;
      let holdId: string;
      try {
        holdId = (await svc.createHold({ realmId: REALM, userId, amount: result.holds.amount }, ctx)).holdId as string;
      } catch (e) {
        if (e instanceof GatehouseError && e.code === 'insufficient_points') result.holds.refusedAtHold++;
        throw e;
      }
      try {
        return (await svc.settleHold({ realmId: REALM, holdId, amount }, ctx)).allocations as Array<{ creditKind: string; amount: number }>;
      } catch (e) {
        if (!(e instanceof GatehouseError) || e.code !== 'insufficient_points') throw e;
        // The extra above the hold could not be covered: the app gives the hold back.
        result.holds.refusedAtSettle++;
        await svc.releaseHold({ realmId: REALM, holdId }, ctx);
        throw e;
      }
    };
    let pool = poolStart;
    let span: (BlockedSpan & { fromMs: number }) | null = null;
    const sampleEvery = input.durationMs / Math.max(1, input.samples - 1);
    let nextSample = 0;
    const takeSamplesUntil = async (t: number) => {
      while (nextSample <= t && result.curve.length < input.samples) {
        clock.set(input.start + Math.round(nextSample));
        const s = await summary();
        result.curve.push({ at: iso(clock.now()), availableQuota: s.spendableFromQuota as number, pool: s.spendableFromPool as number });
        nextSample += sampleEvery;
      }
    };

    let end = input.durationMs;
    for (const ev of input.events) {
      end = Math.max(end, ev.at);
      await takeSamplesUntil(ev.at);
      clock.set(input.start + ev.at);
      result.requests++;
      result.pointsRequested += ev.amount;
      let fromQuota = 0;
      let fromPool = 0;
      let refused = false;
      try {
        for (const a of await request(ev.amount)) {
          if (POOL_KINDS.has(a.creditKind)) fromPool += a.amount;
          else fromQuota += a.amount;
        }
      } catch (e) {
        if (!(e instanceof GatehouseError) || e.code !== 'insufficient_points') throw e;
        refused = true;
      }
      if (refused) {
        result.refused++;
        result.pointsRefused += ev.amount;
        result.firstRefusalAt ??= iso(clock.now());
      } else {
        result.served++;
        result.pointsServed += ev.amount;
        result.servedFromQuota += fromQuota;
        result.servedFromPool += fromPool;
        pool -= fromPool;
        if (pool === 0 && poolStart > 0 && result.pool.emptiedAt === null) result.pool.emptiedAt = iso(clock.now());
      }
      const quotaShort = refused || fromQuota < ev.amount;
      if (quotaShort && input.windows.length) {
        if (!span) {
          const s = await summary();
          const rows = s.windows as Array<{ key: string; windowSeconds: number; remaining: number; isTightest: boolean }>;
          const tight = rows.find((w) => w.isTightest) ?? rows[0];
          span = {
            from: iso(clock.now()),
            fromMs: clock.now(),
            until: '',
            window: tight?.key ?? '-',
            windowSeconds: tight?.windowSeconds ?? 0,
            refused: 0,
            servedFromPool: 0,
          };
        }
        if (refused) span.refused++;
        span.servedFromPool += fromPool;
      } else if (span && !quotaShort) {
        span.until = iso(clock.now());
        const { fromMs: _f, ...closed } = span;
        result.blocked.push(closed);
        span = null;
      }
      if (input.onProgress && result.requests % 5000 === 0) input.onProgress(result.requests, input.eventCount);
    }
    await takeSamplesUntil(input.durationMs);
    if (span) {
      const { fromMs: _f, ...open } = span;
      result.blocked.push({ ...open, until: iso(input.start + end) });
    }
    result.pool.end = pool;
    input.onProgress?.(input.eventCount, input.eventCount);
    return result;
  } finally {
    await storage.close();
  }
}

/** One event every `everyMs`, starting at 0. */
export function* steady(everyMs: number, amount: number, durationMs: number): Generator<UsageEvent> {
  for (let t = 0; t <= durationMs; t += everyMs) yield { at: t, amount };
}

/** `count` events back to back (1 ms apart) at the start of every `everyMs`. A burst that starts
 *  within `durationMs` is played whole, even the one that starts at its very end. */
export function* bursts(count: number, everyMs: number, amount: number, durationMs: number): Generator<UsageEvent> {
  for (let t = 0; t <= durationMs; t += everyMs) for (let i = 0; i < count; i++) yield { at: t + i, amount };
}

/** Merges event streams into one in time order. */
export function mergeEvents(streams: UsageEvent[][]): UsageEvent[] {
  return streams.flat().sort((a, b) => a.at - b.at);
}

/** An ASCII chart of available quota over time: `height` rows, one column per sample. */
export function asciiChart(values: number[], height = 8): string {
  if (values.length === 0) return '';
  const max = Math.max(1, ...values);
  const lines: string[] = [];
  for (let row = height; row >= 1; row--) {
    const threshold = (row / height) * max;
    const label = row === height ? String(max) : '';
    lines.push(`${label.padStart(6)} │${values.map((v) => (v >= threshold - max / height / 2 ? '█' : ' ')).join('')}`);
  }
  lines.push(`${'0'.padStart(6)} └${'─'.repeat(values.length)}`);
  return lines.join('\n');
}
