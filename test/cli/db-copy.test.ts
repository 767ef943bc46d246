// gatehouse db copy, the real CLI over real databases: a deployment filled through a real server on
// SQLite moves to PostgreSQL and back, and a server started on each copy answers as the first did
// (the same summaries, API key, refresh token and access token); a target holding data is refused
// unless forced; a copy that cannot finish leaves the target as it was; errors name what is wrong.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { runCli } from '../helpers/cli.ts';
import { api, http } from '../helpers/http.ts';
import { startIdp, type TestIdp } from '../helpers/idp.ts';
import { freshDatabase, postgresUnavailable, type TestDatabase } from '../helpers/postgres.ts';
import { runInPty } from '../helpers/pty.ts';
import { BIN, startInProcess, type TestServer, tempDir } from '../helpers/server.ts';
import { withStores } from '../helpers/stores.ts';
import { createKey, createMapping, createRealm, createUser, subscribe, w } from '../points/helpers.ts';

const skip = postgresUnavailable() ?? undefined;
const REALM = 'acme';
const APPLE_AUD = 'com.example.app';
// Every server of the test signs access tokens as the same issuer, as replicas of one deployment.
const PUBLIC_URL = 'http://gatehouse.test';

describe('gatehouse db copy', { skip }, () => {
  let idp: TestIdp;
  let source: TestServer;
  let pg: TestDatabase;
  const dir = tempDir();
  const sourceDb = join(dir, 'source.db');
  /** Every user's summary on the source server, by user id. */
  const summaries = new Map<string, unknown>();
  let pointsKey: string;
  let session: { accessToken: string; refreshToken: string; userId: string };
  /** A refresh token already exchanged: presenting it again must still revoke its login. */
  let rotated: string;
  let firstRows: Record<string, number>;

  // The copies carry the secrets sealed (crypto/secrets.ts): every server of the deployment opens
  // them with its one key, the source's (made beside its database on first start).
  const serverConfig = () => ({
    appleJwksUrl: idp.jwksUrl,
    appleIssuer: idp.issuer,
    loginRateLimit: 0,
    publicUrl: PUBLIC_URL,
    secretsKeyFile: join(dir, 'secrets.key'),
  });
  // The servers run in this process (the CLI is the process under test here).
  const serve = (dbPath: string) => startInProcess({ dbPath, config: serverConfig() });
  const copy = (args: string[]) => runCli(['db', 'copy', ...args]);
  const summaryOn = async (srv: TestServer, userId: string) => {
    const r = await http(srv.http, 'GET', `/api/points/${REALM}/users/${userId}/summary`, { key: pointsKey });
    assert.equal(r.status, 200, r.text);
    return r.body;
  };
  const refresh = (srv: TestServer, token: string) =>
    http(srv.http, 'POST', `/api/oauth/${REALM}/token`, { form: { grant_type: 'refresh_token', refresh_token: token } });
  const assertSameDeployment = async (srv: TestServer) => {
    for (const [userId, before] of summaries) assert.deepEqual(await summaryOn(srv, userId), before, `summary of ${userId}`);
  };

  before(async () => {
    idp = await startIdp({ audience: APPLE_AUD });
    pg = await freshDatabase('copy');
    source = await startInProcess({ dbPath: sourceDb, dir, config: serverConfig() });
    const h = api(source.http, source.adminKey);
    await createRealm(h, REALM);
    const ok = async (p: Promise<{ status: number; text: string }>) => assert.equal((await p).status, 200, (await p).text);
    await ok(h.put(`/api/admin/realms/${REALM}/providers/apple`, { clientId: APPLE_AUD, enabled: true }));
    await ok(h.post(`/api/admin/realms/${REALM}/clients`, { clientId: 'app', name: 'App', type: 'first_party', redirectUris: [], ipBinding: 'off' }));
    await ok(
      h.put(`/api/points/${REALM}/default-config`, {
        registrationBonusPoints: 50,
        freePeriodicPointsAmount: 100,
        freePeriodicGrantPeriodType: 'monthly',
        freePeriodicValidityDays: 30,
        freePeriodicQuotaWindows: [w(3600, 10), w(86400, 40)],
      }),
    );
    pointsKey = await createKey(h, REALM, ['points.view', 'points.consume', 'points.manage']);
    // Users by native login (one of them refreshed once) and by the admin API.
    const login = async (sub: string) => {
      const r = await http(source.http, 'POST', `/api/oauth/${REALM}/apple/native-login`, {
        body: { identityToken: await idp.token({ sub, email: `${sub}@example.com` }), clientId: 'app' },
      });
      assert.equal(r.status, 200, r.text);
      return r.body as { accessToken: string; refreshToken: string; userId: string };
    };
    const first = await login('apple-1');
    const second = await login('apple-2');
    const refreshed = await refresh(source, first.refreshToken);
    assert.equal(refreshed.status, 200, refreshed.text);
    rotated = first.refreshToken;
    session = { userId: first.userId, accessToken: refreshed.body.access_token, refreshToken: refreshed.body.refresh_token };
    const byAdmin = [await createUser(h, REALM, 'admin-1@example.com'), await createUser(h, REALM, 'admin-2@example.com')];
    // Grants, consumes (one under an idempotency key, one beyond the free windows into the pools)
    // and a subscription whose own window is used.
    const p = api(source.http, pointsKey);
    await ok(
      p.post(`/api/points/${REALM}/users/${byAdmin[0]}/grants`, {
        kind: 'topup_credit',
        amount: 500,
        expiresAt: new Date(Date.now() + 90 * 86_400_000).toISOString(),
      }),
    );
    await ok(p.post(`/api/points/${REALM}/users/${second.userId}/grants`, { kind: 'granted_credit', amount: 30 }));
    for (const [userId, amount, idempotencyKey] of [
      [first.userId, 7, 'order-1'],
      [first.userId, 4, undefined],
      [byAdmin[0], 25, 'order-2'],
      [second.userId, 3, undefined],
    ] as const) {
      await ok(p.post(`/api/points/${REALM}/consume`, { userId, amount, description: 'chat', idempotencyKey }));
    }
    const mapping = await createMapping(h, REALM, {
      entitlementKey: 'pro',
      pointsPerPeriod: 200,
      grantPeriodType: 'monthly',
      validityDays: 30,
      quotaWindows: [w(3600, 20), w(604800, 100)],
    });
    await subscribe(h, REALM, byAdmin[1]!, mapping.mappingId);
    await ok(p.post(`/api/points/${REALM}/consume`, { userId: byAdmin[1], amount: 12, description: 'subscribed' }));
    // A webhook endpoint (its enabled flag a boolean on PostgreSQL) and the delivery of its test event.
    const hook = await h.post(`/api/admin/realms/${REALM}/webhooks`, { url: 'http://127.0.0.1:9/hook', eventTypes: ['webhook.test'] });
    assert.equal(hook.status, 200, hook.text);
    await ok(h.post(`/api/admin/realms/${REALM}/webhooks/${hook.body.id}/test`, {}));
    for (const u of [first.userId, second.userId, ...byAdmin]) summaries.set(u, await summaryOn(source, u));
  });

  after(async () => {
    await source?.stop();
    await pg?.drop();
    await idp?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('copies a SQLite deployment, while its server runs, to PostgreSQL: every table, every user checked', async () => {
    const r = await copy(['--from', sourceDb, '--to', pg.url, '--json']);
    assert.equal(r.code, 0, r.stderr);
    const out = r.json();
    firstRows = Object.fromEntries(out.tables.map((t: { name: string; rows: number }) => [t.name, t.rows]));
    assert.equal(out.usersChecked, 4);
    assert.equal(firstRows.users, 4);
    assert.equal(firstRows.user_identities, 2);
    assert.equal(firstRows.api_keys, 2);
    assert.equal(firstRows.subscriptions, 1);
    assert.equal(firstRows.webhooks, 1);
    assert.equal(firstRows.webhook_deliveries, 1);
    assert.ok(firstRows.points_usage_ledger! >= 5, 'the window ledger is copied');
    assert.ok(firstRows.refresh_tokens! >= 3 && firstRows.signing_keys! >= 1);
    assert.equal(
      out.rows,
      Object.values(firstRows).reduce((a, b) => a + b, 0),
    );
    assert.equal(out.emptied, false);
    assert.equal(out.from, sourceDb);
    assert.ok(!('schema_migrations' in firstRows), 'bookkeeping is not copied');
    // Without a terminal, one plain line per table.
    assert.match(r.stderr, /^users: 4 of 4$/m);
    assert.match(r.stderr, /^summaries: 4 of 4$/m);
    assert.doesNotMatch(r.stderr, /\r/);
  });

  it('a server on the PostgreSQL copy answers the same summaries and accepts the same API key, refresh token and access token', async () => {
    const copySrv = await serve(pg.url);
    try {
      await assertSameDeployment(copySrv);
      const me = await http(copySrv.http, 'GET', `/api/oauth/${REALM}/userinfo`, { token: session.accessToken });
      assert.equal(me.status, 200, me.text);
      assert.equal(me.body.sub, session.userId);
      const next = await refresh(copySrv, session.refreshToken);
      assert.equal(next.status, 200, next.text);
      // The rotation history came along: the token exchanged on SQLite is refused, and its reuse
      // ends that login.
      assert.equal((await refresh(copySrv, rotated)).status, 400);
      assert.equal((await refresh(copySrv, next.body.refresh_token)).status, 400);
    } finally {
      await copySrv.stop();
    }
  });

  it('copies the PostgreSQL deployment back to a new SQLite file, a few rows per statement, and a server there answers the same', async () => {
    const back = join(tempDir(), 'nested', 'back.db');
    const r = await copy(['--from', pg.url, '--to', back, '--batch-rows', '3', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const out = r.json();
    assert.equal(out.usersChecked, 4);
    const rows = Object.fromEntries(out.tables.map((t: { name: string; rows: number }) => [t.name, t.rows]));
    assert.equal(rows.users, 4);
    // The server on PostgreSQL added its own bootstrap key, and a refresh and a revocation.
    assert.equal(rows.api_keys, firstRows.api_keys! + 1);
    assert.ok(!('cache_version' in rows), 'PostgreSQL bookkeeping is not copied');
    const backSrv = await serve(back);
    try {
      await assertSameDeployment(backSrv);
    } finally {
      await backSrv.stop();
    }
  });

  it('copies SQLite to SQLite with a progress bar on a terminal', async () => {
    const target = join(tempDir(), 'same.db');
    const pty = runInPty(`${process.execPath} ${BIN} db copy --from ${sourceDb} --to ${target}`, {});
    assert.equal(await pty.exit, 0, pty.screen());
    const screen = pty.screen();
    assert.match(screen, /users\s+\[#+\] 4 \/ 4/);
    assert.match(screen, /summaries\s+\[#+\] 4 \/ 4/);
    assert.match(screen, /Copied \d+ rows in [\d.]+ s; the row counts and 4 users' points summaries/);
  });

  it('refuses a target that holds data without --force, changing nothing, and replaces it with --force', async () => {
    // The PostgreSQL database now holds the copy and what its server added: a bootstrap key.
    const keysThere = async () => withStores(pg.url, async (s) => (await s.admin.listApiKeys()).length);
    const usersThere = () => withStores(pg.url, async (s) => (await s.users.totals()).users);
    assert.equal(await keysThere(), firstRows.api_keys! + 1);
    const refused = await copy(['--from', sourceDb, '--to', pg.url]);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /error \(target_not_empty\): the target already holds data \(.*api_keys: 3.*\); pass --force/);
    assert.equal(refused.stdout, '');
    assert.equal(await keysThere(), firstRows.api_keys! + 1);

    const forced = await copy(['--from', sourceDb, '--to', pg.url, '--force', '--json']);
    assert.equal(forced.code, 0, forced.stderr);
    assert.equal(forced.json().emptied, true);
    assert.match(forced.stderr, /emptied the target/);
    assert.equal(await keysThere(), firstRows.api_keys!, 'the key only the target had is gone');
    assert.equal(await usersThere(), 4);
  });

  it('stops at a value the target cannot hold, leaving the target as it was', async () => {
    const bad = join(tempDir(), 'bad.db');
    const live = new Database(sourceDb, { readonly: true });
    await live.backup(bad);
    live.close();
    // A boolean of SQLite's (0 or 1) that is neither: what a hand edit could leave.
    const db = new Database(bad);
    db.prepare("UPDATE clients SET enabled = 2 WHERE client_id = 'app'").run();
    db.close();
    const empty = await freshDatabase('copy');
    try {
      const r = await copy(['--from', bad, '--to', empty.url, '--json']);
      assert.equal(r.code, 1);
      const err = JSON.parse(r.stderr.trim().split('\n').at(-1)!);
      assert.equal(err.error, 'copy_failed');
      assert.match(err.message, /clients\.enabled: 2 is not a boolean \(0 or 1\)/);
      assert.equal(r.stdout, '');
      await withStores(empty.url, async (s) => {
        assert.deepEqual(await s.admin.listRealms(), []);
        assert.deepEqual(await s.admin.listApiKeys(), []);
      });
    } finally {
      await empty.drop();
    }
  });

  it('names a missing file, a malformed or unreachable URL and the same database, with the usage or failure exit code', async () => {
    const missing = await copy(['--from', join(dir, 'nope.db'), '--to', join(dir, 'x.db')]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /--from: no database at .*nope\.db/);

    const malformed = await copy(['--from', sourceDb, '--to', 'postgres://[::1']);
    assert.equal(malformed.code, 2);
    assert.match(malformed.stderr, /--to: not a valid postgres:\/\/ URL/);

    const unreachable = await copy(['--from', sourceDb, '--to', 'postgres://gatehouse:s3cret@127.0.0.1:1/gatehouse']);
    assert.equal(unreachable.code, 1);
    assert.match(unreachable.stderr, /error \(db_open_failed\): cannot open database postgres:\/\/gatehouse:\*\*\*@127\.0\.0\.1:1\/gatehouse/);
    assert.doesNotMatch(unreachable.stderr, /s3cret/);

    const same = await copy(['--from', sourceDb, '--to', join(dir, '.', 'source.db')]);
    assert.equal(same.code, 2);
    assert.match(same.stderr, /--from and --to name the same database/);

    const notGatehouse = join(dir, 'plain.db');
    new Database(notGatehouse).exec('CREATE TABLE t (x)');
    const foreign = await copy(['--from', notGatehouse, '--to', join(dir, 'y.db')]);
    assert.equal(foreign.code, 1);
    assert.match(foreign.stderr, /plain\.db is not a gatehouse database/);
  });
});
