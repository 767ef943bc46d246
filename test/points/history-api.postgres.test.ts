// history-api.test.ts, the same tests, with the server on PostgreSQL.
import { onPostgres } from '../helpers/postgres.ts';

await onPostgres(() => import('./history-api.test.ts'));
