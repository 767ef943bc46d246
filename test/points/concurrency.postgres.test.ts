// concurrency.test.ts, the same tests, with the three servers on one PostgreSQL database (three
// replicas behind no load balancer: each call goes to one of them).
import { onPostgres } from '../helpers/postgres.ts';

await onPostgres(() => import('./concurrency.test.ts'));
