// Runs the storage contract suite against every backend: each store interface's promises, the same
// tests for all. A backend is one line of BACKENDS, with a factory that hands out a fresh database
// per suite (PostgreSQL: test/helpers/postgres.ts, one server per test process).
import { freshPostgresStores } from '../helpers/postgres.ts';
import { freshSqliteStores } from '../helpers/stores.ts';
import { describeAdminStore } from './admin-suite.ts';
import { describeAuthStore } from './auth-suite.ts';
import { describeBillingStore } from './billing-suite.ts';
import type { Backend } from './contract.ts';
import { describeAccountDeletion } from './deletion-suite.ts';
import { describeJobStore } from './jobs-suite.ts';
import { describeLedgerStore } from './ledger-suite.ts';
import { describePointsStore } from './points-suite.ts';
import { describeSecretsStore } from './secrets-suite.ts';
import { describeUserStore } from './users-suite.ts';
import { describeWebhookStore } from './webhooks-suite.ts';

const BACKENDS: Backend[] = [
  { name: 'sqlite', factory: freshSqliteStores },
  { name: 'postgres', factory: () => freshPostgresStores() },
];

for (const { name, factory } of BACKENDS) {
  describeAdminStore(name, factory);
  describeAuthStore(name, factory);
  describeUserStore(name, factory);
  describePointsStore(name, factory);
  describeLedgerStore(name, factory);
  describeBillingStore(name, factory);
  describeJobStore(name, factory);
  describeAccountDeletion(name, factory);
  describeWebhookStore(name, factory);
  describeSecretsStore(name, factory);
}
