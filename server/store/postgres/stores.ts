// Every store of gatehouse over one PostgreSQL pool, beside sqliteStores (sqlite/stores.ts): the one
// place that names the PostgreSQL classes of the ports.
import type pg from 'pg';
import type { SecretBox } from '../../crypto/secrets.ts';
import type { Stores } from '../../stores.ts';
import { PostgresAdminStore } from './admin-store.ts';
import { PostgresAuthStore } from './auth-store.ts';
import { PostgresBillingStore } from './billing-store.ts';
import { CacheVersion } from './cache-version.ts';
import { PostgresJobStore } from './job-store.ts';
import { PostgresPointsStore } from './points-store.ts';
import { PostgresRecordStore } from './records.ts';
import { PostgresSecretsStore } from './secrets-store.ts';
import type { TxObserver } from './tx.ts';
import { UserGate } from './user-gate.ts';
import { PostgresUserStore } from './user-store.ts';
import { PostgresWebhookStore } from './webhook-store.ts';

export interface PostgresStoreOptions {
  /** The key sealing what the stores keep secret (crypto/secrets.ts). */
  secrets: SecretBox;
  /** Told the cost (statements, round trips) of every committed transaction, by use case. */
  observe?: TxObserver;
}

export function postgresStores(pool: pg.Pool, opts: PostgresStoreOptions): Stores {
  const ctx = { pool, observe: opts.observe };
  // One cache version for every store: the calls of one event-loop turn read it once.
  const version = new CacheVersion(pool);
  return {
    admin: new PostgresAdminStore(ctx, opts.secrets, version),
    auth: new PostgresAuthStore(ctx, opts.secrets, version),
    secrets: new PostgresSecretsStore(ctx),
    users: new PostgresUserStore(ctx, opts.secrets),
    // As long as a statement waits for a row lock (lock_timeout, --busy-timeout-ms).
    points: new PostgresPointsStore(ctx, UserGate.forPool(pool.options.max ?? 10, Number(pool.options.lock_timeout ?? 0))),
    billing: new PostgresBillingStore(ctx, opts.secrets),
    jobs: new PostgresJobStore(ctx, opts.secrets),
    records: new PostgresRecordStore(ctx),
    webhooks: new PostgresWebhookStore(ctx, opts.secrets),
  };
}
