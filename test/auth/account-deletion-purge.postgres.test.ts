// account-deletion-purge.test.ts, the same tests, with the servers on PostgreSQL.
import { onPostgres } from '../helpers/postgres.ts';

await onPostgres(() => import('./account-deletion-purge.test.ts'));
