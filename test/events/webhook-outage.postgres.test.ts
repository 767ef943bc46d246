// webhook-outage.test.ts, the same test, with the server on PostgreSQL.
import { onPostgres } from '../helpers/postgres.ts';

await onPostgres(() => import('./webhook-outage.test.ts'));
