// require-nonce.test.ts, the same tests, with the server on PostgreSQL.
import { onPostgres } from '../helpers/postgres.ts';

await onPostgres(() => import('./require-nonce.test.ts'));
