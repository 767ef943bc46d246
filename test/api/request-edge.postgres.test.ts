// request-edge.test.ts, the same tests, with the server on PostgreSQL (where a NUL reaching the
// database was a 500).
import { onPostgres } from '../helpers/postgres.ts';

await onPostgres(() => import('./request-edge.test.ts'));
