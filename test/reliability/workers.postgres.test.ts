// workers.test.ts, the same tests, with the workers on one PostgreSQL database.
import { onPostgres } from '../helpers/postgres.ts';

await onPostgres(() => import('./workers.test.ts'));
