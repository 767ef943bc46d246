// Every store of gatehouse over one PostgreSQL pool, beside sqliteStores (store/stores.ts): the one
// place that names the PostgreSQL classes of the ports.
import type pg from 'pg';
import type { Stores } from '../../stores.ts';
import { PostgresAdminStore } from './admin-store.ts';
import { PostgresAuthStore } from './auth-store.ts';
import { PostgresBillingStore } from './billing-store.ts';
import { PostgresJobStore } from './job-store.ts';
import { PostgresPointsStore } from './points-store.ts';
import { PostgresRecordStore } from './records.ts';
import type { TxObserver } from './tx.ts';
import { UserGate } from './user-gate.ts';
import { PostgresUserStore } from './user-store.ts';
import { PostgresWebhookStore } from './webhook-store.ts';

export interface PostgresStoreOptions {
  /** Told the cost (statements, round trips) of every committed transaction, by use case. */
  observe?: TxObserver;
}

export function postgresStores(pool: pg.Pool, opts: PostgresStoreOptions = {}): Stores {
  const ctx = { pool, observe: opts.observe };
  return {
    admin: new PostgresAdminStore(ctx),
    auth: new PostgresAuthStore(ctx),
    users: new PostgresUserStore(ctx),
    // As long as a statement waits for a row lock (lock_timeout, --busy-timeout-ms).
    points: new PostgresPointsStore(ctx, UserGate.forPool(pool.options.max ?? 10, Number(pool.options.lock_timeout ?? 0))),
    billing: new PostgresBillingStore(ctx),
    jobs: new PostgresJobStore(ctx),
    records: new PostgresRecordStore(ctx),
    webhooks: new PostgresWebhookStore(ctx),
  };
}
