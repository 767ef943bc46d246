// Every store of gatehouse over one SQLite connection: the one place that names the SQLite classes
// of the ports. The composition root, the offline tools (the simulator, the bench) and the
// tests that read a database through the interfaces build their stores here.
import type { SecretBox } from '../../crypto/secrets.ts';
import type { Stores } from '../../stores.ts';
import { SqliteAdminStore } from './admin-store.ts';
import { SqliteAuthStore } from './auth-store.ts';
import { SqliteBillingStore } from './billing-store.ts';
import { withSqliteErrors } from './errors.ts';
import { SqliteJobStore } from './job-store.ts';
import type { Db } from './open.ts';
import { SqlitePointsStore } from './points-store.ts';
import { SqliteRecordStore } from './records.ts';
import { SqliteSecretsStore } from './secrets-store.ts';
import { SqliteUserStore } from './user-store.ts';
import { SqliteWebhookStore } from './webhook-store.ts';

/** `secrets`: the key sealing what the stores keep secret (crypto/secrets.ts). Each store hands
 *  back our error for SQLite's (errors.ts). */
export function sqliteStores(db: Db, secrets: SecretBox): Stores {
  return {
    admin: withSqliteErrors(new SqliteAdminStore(db, secrets)),
    auth: withSqliteErrors(new SqliteAuthStore(db, secrets)),
    secrets: withSqliteErrors(new SqliteSecretsStore(db)),
    users: withSqliteErrors(new SqliteUserStore(db, secrets)),
    points: withSqliteErrors(new SqlitePointsStore(db)),
    billing: withSqliteErrors(new SqliteBillingStore(db, secrets)),
    jobs: withSqliteErrors(new SqliteJobStore(db, secrets)),
    records: withSqliteErrors(new SqliteRecordStore(db)),
    webhooks: withSqliteErrors(new SqliteWebhookStore(db, secrets)),
  };
}
