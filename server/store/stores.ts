// Every store of gatehouse over one SQLite connection: the one place that names the SQLite classes
// of the ports. The composition root, the offline tools (the simulator, the bench) and the
// tests that read a database through the interfaces build their stores here.
import type { Stores } from '../stores.ts';
import { SqliteAdminStore } from './admin-store.ts';
import { SqliteAuthStore } from './auth-store.ts';
import { SqliteBillingStore } from './billing-store.ts';
import { SqliteJobStore } from './job-store.ts';
import type { Db } from './open.ts';
import { SqlitePointsStore } from './points-store.ts';
import { SqliteRecordStore } from './records.ts';
import { SqliteUserStore } from './user-store.ts';
import { SqliteWebhookStore } from './webhook-store.ts';

export function sqliteStores(db: Db): Stores {
  return {
    admin: new SqliteAdminStore(db),
    auth: new SqliteAuthStore(db),
    users: new SqliteUserStore(db),
    points: new SqlitePointsStore(db),
    billing: new SqliteBillingStore(db),
    jobs: new SqliteJobStore(db),
    records: new SqliteRecordStore(db),
    webhooks: new SqliteWebhookStore(db),
  };
}
