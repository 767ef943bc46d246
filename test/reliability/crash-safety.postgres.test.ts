// crash-safety.test.ts, the same test, with the server on PostgreSQL: SIGKILL of `gatehouse serve`
// mid-storm, then another on the same database.
import { onPostgres } from '../helpers/postgres.ts';

await onPostgres(() => import('./crash-safety.test.ts'));
