// ledger-concurrency.test.ts, the same test, with the two servers on one PostgreSQL database (two
// replicas behind no load balancer: each call goes to one of them).
import { onPostgres } from '../helpers/postgres.ts';

await onPostgres(() => import('./ledger-concurrency.test.ts'));
