// webhook-replicas.test.ts, the same tests, with the servers on PostgreSQL.
import { onPostgres } from '../helpers/postgres.ts';

await onPostgres(() => import('./webhook-replicas.test.ts'));
