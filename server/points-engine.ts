// The points & billing concern over its two stores and one clock: service handlers and the
// registration hook. It sits above both folders (billing grants points), so neither imports the
// other's composition. `serve` builds it in app.ts over the stores of its backend (SQLite or PostgreSQL);
// offline tools (the simulator, tests, the bench) build it over an in-memory SQLite database with a ManualClock.

import { createBillingService } from './billing/service.ts';
import type { BillingStore } from './billing/store.ts';
import type { Clock } from './lib/clock.ts';
import type { Metrics } from './lib/metrics.ts';
import { createPointsService } from './points/service.ts';
import type { PointsStore } from './points/store.ts';
import type { ServiceImpl } from './rpc/types.ts';
import type { UserCreatedHook } from './users/store.ts';

export interface PointsStores {
  points: PointsStore;
  billing: BillingStore;
}

export interface PointsEngine extends PointsStores {
  /** gatehouse.v1.PointsService handlers. */
  pointsService: ServiceImpl<'gatehouse.v1.PointsService'>;
  /** gatehouse.v1.BillingService handlers. */
  billingService: ServiceImpl<'gatehouse.v1.BillingService'>;
  /** Registration credit + the current free periodic grant for every new account (idempotent). */
  onUserCreated: UserCreatedHook;
}

export function createPointsEngine(
  { points, billing }: PointsStores,
  clock: Clock,
  metrics: Metrics | null = null,
  appStoreRoots: Buffer[] | null = null,
): PointsEngine {
  return {
    points,
    billing,
    pointsService: createPointsService({ store: points, clock, metrics }),
    billingService: createBillingService({ store: billing, clock, appStoreRoots }),
    onUserCreated: (user) => points.grantRegistration(user.realmId, user.id, clock.now()),
  };
}
