// A PostgreSQL password given to gatehouse is never printed: not in the user information of the URL,
// not as a `?password=` parameter, not from PGPASSWORD. The real server (alone and as a --workers
// primary), `db copy` and `keys create --db` run as child processes with all three set, and
// everything they write to stdout and stderr, on success and on failure, is searched for them.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { freshDatabase, postgresUnavailable, type TestDatabase } from '../helpers/postgres.ts';
import { type SpawnedServer, spawnServer, tempDir } from '../helpers/server.ts';

const skip = postgresUnavailable() ?? undefined;
// The tests' cluster trusts local connections: it takes any password, so each can be given.
const IN_URL = 'UrlSecret7713';
const IN_QUERY = 'QuerySecret4410';
const IN_ENV = 'EnvSecret9052';
const SECRETS = [IN_URL, IN_QUERY, IN_ENV];
const env = { PGPASSWORD: IN_ENV };

/** `url` with a password in its user information and another as a query parameter. */
function withPasswords(url: string): string {
  const u = new URL(url);
  u.password = IN_URL;
  u.searchParams.set('password', IN_QUERY);
  return u.toString();
}

function assertNoSecret(output: string, what: string): void {
  for (const secret of SECRETS) assert.ok(!output.includes(secret), `${what} printed a password:\n${output}`);
}

/** Everything a server printed, once it has logged its start and then stopped. */
async function outputOf(srv: SpawnedServer): Promise<string> {
  // The start line follows the ready line: stop the server only once it is written.
  await srv.logged((logs) => logs.includes('"gatehouse started"'));
  const closed = once(srv.proc, 'close');
  await srv.kill('SIGTERM');
  await closed;
  await srv.stop();
  return srv.stdout() + srv.logs();
}

describe('a PostgreSQL password is never printed', { skip }, () => {
  let db: TestDatabase;
  let url: string;
  /** A database that does not exist on the same server: every command fails naming it. */
  let missing: string;
  const dir = tempDir();

  before(async () => {
    db = await freshDatabase('secret');
    url = withPasswords(db.url);
    const m = new URL(url);
    m.pathname = '/no_such_database';
    missing = m.toString();
  });
  after(async () => {
    await db.drop();
  });

  it('serve logs its database with every password hidden', async () => {
    const srv = await spawnServer({ dbPath: url, env });
    const output = await outputOf(srv);
    assert.match(output, /"gatehouse started"/);
    assert.ok(output.includes(`:***@127.0.0.1`), output);
    assert.ok(output.includes('password=***'), output);
    assertNoSecret(output, 'serve');
  });

  it('the --workers primary and its workers log the database with every password hidden', async () => {
    const srv = await spawnServer({ dbPath: url, env, args: ['--workers', '2'] });
    const output = await outputOf(srv);
    assert.match(output, /"gatehouse started"[^\n]*"workers":2/);
    assert.ok(output.includes('password=***'), output);
    assertNoSecret(output, 'serve --workers 2');
  });

  it('serve on a database it cannot open says which without its passwords', async () => {
    const r = await runCli(['serve', '--db', missing, '--grpc', '127.0.0.1:0', '--http', '127.0.0.1:0'], { env });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /cannot open database postgres:\/\/postgres:\*\*\*@[^ ]*no_such_database\?password=\*\*\*/);
    assertNoSecret(r.stdout + r.stderr, 'serve on a missing database');
  });

  it('keys create --db prints the key, and on a database it cannot open an error, without the passwords', async () => {
    const ok = await runCli(['--json', 'keys', 'create', '--db', url, '--key-realm', '*', '--permission', '*'], { env });
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.json().key, /\S/);
    assertNoSecret(ok.stdout + ok.stderr, 'keys create --db');
    const failed = await runCli(['keys', 'create', '--db', missing, '--key-realm', '*', '--permission', '*'], { env });
    assert.equal(failed.code, 1, failed.stderr);
    assert.match(failed.stderr, /no_such_database\?password=\*\*\*/);
    assertNoSecret(failed.stdout + failed.stderr, 'keys create --db on a missing database');
  });

  it('backup, for SQLite files only, names a PostgreSQL database given to it without its passwords', async () => {
    for (const given of [['--db', url], []]) {
      const r = await runCli(['backup', '--out', join(dir, 'never.db'), ...given], { env: { ...env, GATEHOUSE_DB: url } });
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /is PostgreSQL: back it up with pg_dump/);
      assertNoSecret(r.stdout + r.stderr, 'backup');
    }
  });

  it('db copy shows both databases with their passwords hidden, as text, as JSON and in errors', async () => {
    const asText = await runCli(['db', 'copy', '--from', url, '--to', join(dir, 'copy.db')], { env });
    assert.equal(asText.code, 0, asText.stderr);
    assert.match(asText.stdout, /Copied \d+ rows/);
    assertNoSecret(asText.stdout + asText.stderr, 'db copy');
    const asJson = await runCli(['--json', 'db', 'copy', '--from', join(dir, 'copy.db'), '--to', url, '--force'], { env });
    assert.equal(asJson.code, 0, asJson.stderr);
    assert.match(asJson.json().to, /^postgres:\/\/postgres:\*\*\*@.*\?password=\*\*\*/);
    assertNoSecret(asJson.stdout + asJson.stderr, 'db copy --json');
    const failed = await runCli(['db', 'copy', '--from', missing, '--to', join(dir, 'never.db')], { env });
    assert.equal(failed.code, 1, failed.stderr);
    assert.match(failed.stderr, /no_such_database\?password=\*\*\*/);
    assertNoSecret(failed.stdout + failed.stderr, 'db copy from a missing database');
  });
});
