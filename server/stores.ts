// The storage ports a backend implements, together (each method one transaction; the domain
// decides, the store reads and writes). store/sqlite/stores.ts fills them over SQLite, store/postgres/stores.ts over PostgreSQL.
import type { AdminStore } from './admin/store.ts';
import type { AuthStore } from './auth/store.ts';
import type { BillingStore } from './billing/store.ts';
import type { SecretsStore } from './crypto/store.ts';
import type { RecordStore } from './events/store.ts';
import type { JobStore } from './jobs/store.ts';
import type { PointsStore } from './points/store.ts';
import type { UserStore } from './users/store.ts';
import type { WebhookStore } from './webhooks/store.ts';

export interface Stores {
  admin: AdminStore;
  auth: AuthStore;
  users: UserStore;
  points: PointsStore;
  billing: BillingStore;
  jobs: JobStore;
  records: RecordStore;
  webhooks: WebhookStore;
  /** The secrets at rest, all columns together (crypto/secrets.ts). */
  secrets: SecretsStore;
}
