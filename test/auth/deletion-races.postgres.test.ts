// deletion-races.test.ts, the same races, with both servers on one PostgreSQL database.
import { onPostgres } from '../helpers/postgres.ts';

await onPostgres(() => import('./deletion-races.test.ts'));
