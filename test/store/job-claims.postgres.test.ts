// job-claims.test.ts, the same two processes, on PostgreSQL.
import { onPostgres } from '../helpers/postgres.ts';

await onPostgres(() => import('./job-claims.test.ts'));
