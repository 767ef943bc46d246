// The backends a test runs on, chosen explicitly: a test that depends on the backend (races,
// replicas, crash safety, secrets at rest, the queue's claims) declares its suite once with
// describeEachBackend and passes the backend it is given to the server helpers (server.ts
// `backend`, newDatabase). Everything else runs on SQLite, the default; what differs per backend
// below the API is the storage contract suite's (test/store/backends.test.ts).
import { describe } from 'node:test';
import { postgresUnavailable } from './postgres.ts';
import type { TestBackend } from './server.ts';

export const BACKENDS: readonly TestBackend[] = ['sqlite', 'postgres'];

const LABELS: Record<TestBackend, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

/** `suite` once per backend, as "<name>, on SQLite" and "<name>, on PostgreSQL", each given its
 *  backend; the PostgreSQL one is skipped, saying why, where no PostgreSQL can run. */
export function describeEachBackend(name: string, suite: (backend: TestBackend) => void): void {
  for (const backend of BACKENDS) {
    const skip = backend === 'postgres' ? (postgresUnavailable() ?? undefined) : undefined;
    describe(`${name}, on ${LABELS[backend]}`, { skip }, () => suite(backend));
  }
}
