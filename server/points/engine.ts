// The points & billing concern over one database and one clock: stores, service handlers and the
// registration hook. `serve` builds it in app.ts; offline tools (the simulator, tests, the bench)
// build it over an in-memory database with a ManualClock.
import type { Clock } from '../lib/clock.ts';
import type { Metrics } from '../lib/metrics.ts';
import type { Db } from '../store/open.ts';
import { SqlitePointsStore } from '../store/points-store.ts';
import { SqliteBillingStore } from '../store/billing-store.ts';
import { createPointsService } from './service.ts';
import { createBillingService } from '../billing/service.ts';
import type { PointsStore } from './store.ts';
import type { BillingStore } from '../billing/store.ts';
import type { ServiceImpl } from '../rpc/context.ts';
import type { UserCreatedHook } from '../users/store.ts';

export interface PointsEngine {
  points: PointsStore;
  billing: BillingStore;
  /** gatehouse.v1.PointsService handlers. */
  pointsService: ServiceImpl;
  /** gatehouse.v1.BillingService handlers. */
  billingService: ServiceImpl;
  /** Registration credit + the current free periodic grant for every new account (idempotent). */
  onUserCreated: UserCreatedHook;
}

export function createPointsEngine(db: Db, clock: Clock, metrics: Metrics | null = null): PointsEngine {
  const points = new SqlitePointsStore(db);
  const billing = new SqliteBillingStore(db);
  return {
    points,
    billing,
    pointsService: createPointsService({ store: points, clock, metrics }),
    billingService: createBillingService({ store: billing, clock }),
    onUserCreated: (user) => points.grantRegistration(user.realmId, user.id, clock.now()),
  };
}
