// secrets-at-rest.test.ts, the same tests, with the servers on PostgreSQL.
import { onPostgres } from '../helpers/postgres.ts';

await onPostgres(() => import('./secrets-at-rest.test.ts'));
