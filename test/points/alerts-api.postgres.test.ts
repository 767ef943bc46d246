// alerts-api.test.ts, the same tests, with the server on PostgreSQL.
import { onPostgres } from '../helpers/postgres.ts';

await onPostgres(() => import('./alerts-api.test.ts'));
