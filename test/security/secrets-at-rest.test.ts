// Secrets at rest (server/crypto/secrets.ts), end to end through real servers (in this process: no
// signal or flag is tested here) and the real CLI: a
// dump of the database alone — the SQLite file's bytes, or every PostgreSQL table read as text —
// reveals no provider secret, no signing key, no webhook signing secret (current or previous), no
// kept Apple refresh token and no Apple token a revocation job holds; `gatehouse secrets rotate` re-encrypts them in
// place under a new key, all or nothing; and secrets an older version stored in clear are sealed
// at the next start, once.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import Database from 'better-sqlite3';
import pg from 'pg';
import { REVOKE_TOKEN } from '../../server/auth/apple-revocation.ts';
import { openStorage } from '../../server/backend.ts';
import { newSecretsKeyText, SecretBox } from '../../server/crypto/secrets.ts';
import { readKeyFile } from '../../server/secrets-key.ts';
import { isPostgresUrl } from '../../server/store/database-kind.ts';
import type { Stores } from '../../server/stores.ts';
import { decodeJwt } from '../auth/fixture.ts';
import { describeEachBackend } from '../helpers/backends.ts';
import { runCli } from '../helpers/cli.ts';
import { api, http } from '../helpers/http.ts';
import { startIdp, type TestIdp } from '../helpers/idp.ts';
import { type InProcessServer, newDatabase, startInProcess, tempDir } from '../helpers/server.ts';

const REALM = 'acme';
const APPLE_AUD = 'com.example.app';
const PUBLIC_URL = 'http://gatehouse.test';
const GOOGLE_SECRET = `gs-${'7f3a9c'.repeat(6)}`;
/** Apple refresh tokens the web flow kept: one stays on its identity, the other is handed to a
 *  revocation job by the account's deletion. */
const KEPT_APPLE_TOKEN = `apple-rt-kept-${'5e1d'.repeat(8)}`;
const REVOKED_APPLE_TOKEN = `apple-rt-gone-${'9b4c'.repeat(8)}`;
const APPLE_P8 = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();

/** Stretches of a PEM's base64 body: any of them in a dump means the key leaked. */
const pemFragments = (pem: string) => {
  const body = pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
  return [0, Math.floor(body.length / 2), body.length - 24].map((at) => body.slice(at, at + 24));
};

describeEachBackend('secrets at rest', (backend) => {
  const dir = tempDir();
  const keyFile = join(dir, 'secrets.key');
  const newKeyFile = join(dir, 'rotated.key');
  let idp: TestIdp;
  // Apple's revocation endpoint, on loopback: the tokens it was sent.
  let appleAuth: Server;
  const revokedAtApple: string[] = [];
  const webhookSecrets: string[] = [];
  let webhookId: string;
  let database: { dbPath: string; drop(): Promise<void> };
  let srv: InProcessServer | null = null;
  let seq = 0;

  /** A server with the key in the file `key`, or with `{ env }`: the key itself in GATEHOUSE_SECRETS_KEY. */
  const serve = async (key: string | { env: string }) => {
    srv = await startInProcess({
      dir,
      dbPath: database.dbPath,
      config: {
        appleJwksUrl: idp.jwksUrl,
        appleIssuer: idp.issuer,
        loginRateLimit: 0,
        publicUrl: PUBLIC_URL,
        appleAuthUrl: `http://127.0.0.1:${(appleAuth.address() as AddressInfo).port}`,
        ...(typeof key === 'string' ? { secretsKeyFile: key } : {}),
      },
      env: typeof key === 'string' ? {} : { GATEHOUSE_SECRETS_KEY: key.env },
    });
    return srv;
  };
  const stop = async () => {
    await srv?.stop();
    srv = null;
  };
  /** The stores over the database, opening secrets with the key in `file` (another replica's view). */
  const withStores = async <T>(file: string, fn: (s: Stores) => Promise<T>) => {
    const storage = await openStorage(database.dbPath, new SecretBox(readKeyFile(file)!));
    try {
      return await fn(storage.stores);
    } finally {
      await storage.close();
    }
  };
  const login = async () => (await loginAs(`sec-${++seq}`)).accessToken;
  const loginAs = async (sub: string) => {
    const identityToken = await idp.token({ sub });
    const r = await http(srv!.http, 'POST', `/api/oauth/${REALM}/apple/native-login`, { body: { identityToken, clientId: 'app' } });
    assert.equal(r.status, 200, r.text);
    return r.body as { accessToken: string; userId: string };
  };
  /** Everything the database holds, as text: the SQLite file's bytes (and its WAL), or every
   *  PostgreSQL table's rows. */
  const dump = async (): Promise<string> => {
    if (!isPostgresUrl(database.dbPath)) {
      return [database.dbPath, `${database.dbPath}-wal`]
        .filter((f) => existsSync(f))
        .map((f) => readFileSync(f).toString('latin1'))
        .join('\n');
    }
    const client = new pg.Client({ connectionString: database.dbPath });
    await client.connect();
    try {
      const tables = await client.query<{ name: string }>('SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema()');
      const texts: string[] = [];
      for (const { name } of tables.rows) {
        const rows = await client.query<{ row: string }>(`SELECT t::text AS row FROM "${name}" t`);
        texts.push(...rows.rows.map((r) => r.row));
      }
      return texts.join('\n');
    } finally {
      await client.end();
    }
  };
  /** Runs raw SQL on the stopped server's database: what an older version would have written. */
  const rawSql = async (sql: string, values: string[]) => {
    if (!isPostgresUrl(database.dbPath)) {
      const db = new Database(database.dbPath);
      try {
        db.prepare(sql.replace(/\$\d/g, '?')).run(...values);
      } finally {
        db.close();
      }
      return;
    }
    const client = new pg.Client({ connectionString: database.dbPath });
    await client.connect();
    try {
      await client.query(sql, values);
    } finally {
      await client.end();
    }
  };
  const signingPem = (file: string) => withStores(file, async (s) => (await s.auth.signingKeys(REALM)).map((k) => k.privatePem));

  before(async () => {
    idp = await startIdp({ audience: APPLE_AUD });
    appleAuth = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (d: string) => (body += d));
      req.on('end', () => {
        if (req.url === '/auth/revoke') revokedAtApple.push(new URLSearchParams(body).get('token') ?? '');
        res.writeHead(req.url === '/auth/revoke' ? 200 : 404).end();
      });
    });
    await new Promise<void>((res) => appleAuth.listen(0, '127.0.0.1', res));
    database = await newDatabase(dir, backend);
    await serve(keyFile);
    const admin = api(srv!.http, srv!.adminKey);
    const ok = async (answer: Promise<{ status: number; text: string }>) => {
      const r = await answer;
      assert.equal(r.status, 200, r.text);
    };
    await ok(admin.post('/api/admin/realms', { id: REALM, name: REALM }));
    await ok(admin.post(`/api/admin/realms/${REALM}/clients`, { clientId: 'app', name: 'App', type: 'first_party', redirectUris: [], ipBinding: 'off' }));
    const providers = `/api/admin/realms/${REALM}/providers`;
    await ok(admin.put(`${providers}/apple`, { clientId: APPLE_AUD, enabled: true, teamId: 'TEAM123', keyId: 'KEY123', privateKey: APPLE_P8 }));
    await ok(admin.put(`${providers}/google`, { clientId: 'google-client', enabled: true, clientSecret: GOOGLE_SECRET }));
    // A webhook endpoint (for an event these tests never cause), its secret rotated once: the
    // previous secret is kept too, signing beside the new one for a while.
    const hooks = `/api/admin/realms/${REALM}/webhooks`;
    const hook = await admin.post(hooks, { url: 'http://127.0.0.1:9/in', eventTypes: ['user.email_forwarding_changed'] });
    assert.equal(hook.status, 200, hook.text);
    webhookId = hook.body.id;
    const rotated = await admin.post(`${hooks}/${webhookId}/rotate-secret`, {});
    assert.equal(rotated.status, 200, rotated.text);
    webhookSecrets.push(hook.body.secret, rotated.body.secret);
  });
  after(async () => {
    await stop();
    await idp?.close();
    appleAuth?.close();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('made the key file on first start, readable by its owner only', () => {
    assert.equal(readKeyFile(keyFile)?.length, 32);
    assert.equal((statSync(keyFile).mode & 0o777).toString(8), '600');
  });

  it('a dump of the database alone reveals no provider secret, signing key, webhook secret or Apple token', async () => {
    await login(); // the realm's signing key
    const [pem] = await signingPem(keyFile);
    assert.ok(pem?.includes('PRIVATE KEY'), 'the server opens its signing key');
    // Apple refresh tokens as the web flow keeps them (through the users store); one account is
    // then deleted, which hands its token to a revocation job that runs at once.
    const kept = await loginAs('sec-kept');
    const gone = await loginAs('sec-gone');
    await withStores(keyFile, async (s) => {
      await s.users.keepAppleRefreshToken(REALM, 'sec-kept', KEPT_APPLE_TOKEN);
      await s.users.keepAppleRefreshToken(REALM, 'sec-gone', REVOKED_APPLE_TOKEN);
    });
    const deleted = await api(srv!.http, srv!.adminKey).delete(`/api/admin/realms/${REALM}/users/${gone.userId}`);
    assert.equal(deleted.status, 200, deleted.text);
    assert.deepEqual(revokedAtApple, [REVOKED_APPLE_TOKEN], 'the job opened the token it holds and sent it to Apple');
    const jobs = await withStores(keyFile, (s) => s.jobs.list(REALM, { kind: REVOKE_TOKEN, limit: 10 }));
    assert.deepEqual(
      jobs.map((j) => j.secret),
      [REVOKED_APPLE_TOKEN],
    );
    const endpoint = await withStores(keyFile, (s) => s.webhooks.get(REALM, webhookId));
    assert.deepEqual([endpoint?.previousSecret, endpoint?.secret], webhookSecrets, 'the store opens both webhook secrets');
    await stop();
    const text = await dump();
    assert.ok(text.includes('google-client') && text.includes('TEAM123') && text.includes(webhookId) && text.includes(kept.userId), 'the dump holds the rows');
    for (const secret of [GOOGLE_SECRET, ...pemFragments(APPLE_P8), ...pemFragments(pem!), ...webhookSecrets, KEPT_APPLE_TOKEN, REVOKED_APPLE_TOKEN]) {
      assert.equal(text.includes(secret), false, `${secret} is in the dump`);
    }
    // The webhook secrets as base64 too (whsec_ + the key's base64): no stretch of them either.
    for (const secret of webhookSecrets) assert.equal(text.includes(secret.slice(6, 30)), false, 'a webhook secret is in the dump');
  });

  it('secrets rotate re-encrypts everything under a new key, all or nothing; only the new key opens the database then', async () => {
    await serve(keyFile);
    const token = await login();
    await stop();
    const rotate = (oldKey: string) => runCli(['secrets', 'rotate', '--db', database.dbPath, '--old-key-file', oldKey, '--new-key-file', newKeyFile, '--json']);

    // A key the database was not sealed under: refused, and nothing in the database changed.
    const stranger = join(dir, 'stranger.key');
    writeFileSync(stranger, newSecretsKeyText(), { mode: 0o600 });
    const refused = await rotate(stranger);
    assert.equal(refused.code, 1, refused.stdout);
    assert.match(refused.stderr, /nothing was changed/);
    assert.equal(await withStores(keyFile, async (s) => (await s.admin.getProvider(REALM, 'google'))?.clientSecret), GOOGLE_SECRET);

    const done = await rotate(keyFile);
    assert.equal(done.code, 0, done.stderr);
    // The Google secret, the Apple key, the signing key, the webhook's two secrets, the kept Apple
    // token and the revocation job's.
    assert.equal(done.json().resealed, 7);
    const again = await rotate(keyFile);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.json().resealed, 0, 'run again, it finds everything done');

    await assert.rejects(serve(keyFile), /does not have/);
    srv = null;
    await serve(newKeyFile);
    const afterRotation = await login();
    assert.equal(decodeJwt(afterRotation).header.kid, decodeJwt(token).header.kid, 'the same signing key, opened under the new key');
    assert.equal((await http(srv!.http, 'GET', `/api/oauth/${REALM}/userinfo`, { token })).status, 200);
    const provider = await withStores(newKeyFile, async (s) => [
      (await s.admin.getProvider(REALM, 'google'))?.clientSecret,
      (await s.admin.getProvider(REALM, 'apple'))?.privateKey,
    ]);
    assert.deepEqual(provider, [GOOGLE_SECRET, APPLE_P8]);
    const [endpoint, jobs] = await withStores(
      newKeyFile,
      async (s) => [await s.webhooks.get(REALM, webhookId), await s.jobs.list(REALM, { kind: REVOKE_TOKEN, limit: 10 })] as const,
    );
    assert.deepEqual([endpoint?.previousSecret, endpoint?.secret], webhookSecrets);
    assert.deepEqual(
      jobs.map((j) => j.secret),
      [REVOKED_APPLE_TOKEN],
    );
    await stop();

    // The key itself in GATEHOUSE_SECRETS_KEY wins over the old key file left beside the database.
    await serve({ env: readFileSync(newKeyFile, 'utf8').trim() });
    assert.equal(decodeJwt(await login()).header.kid, decodeJwt(token).header.kid);
    await stop();
  });

  it('seals at the next start, once, what an older version stored in clear', async () => {
    const [pem] = await signingPem(newKeyFile);
    const [kid] = await withStores(newKeyFile, async (s) => (await s.auth.signingKeys(REALM)).map((k) => k.kid));
    await rawSql("UPDATE providers SET client_secret = $1 WHERE provider = 'google'", ['legacy-client-secret']);
    await rawSql('UPDATE signing_keys SET private_pem = $1 WHERE kid = $2', [pem!, kid!]);

    await serve(newKeyFile);
    await waitFor(() => srv!.logs().includes('secrets stored in clear are now sealed'));
    assert.match(srv!.logs(), /"count":2/);
    assert.equal(decodeJwt(await login()).header.kid, kid, 'the signing key read in clear signs on');
    await stop();
    assert.equal(await withStores(newKeyFile, async (s) => (await s.admin.getProvider(REALM, 'google'))?.clientSecret), 'legacy-client-secret');
    const text = await dump();
    for (const secret of ['legacy-client-secret', ...pemFragments(pem!)]) assert.equal(text.includes(secret), false, `${secret} is in the dump`);

    await serve(newKeyFile);
    assert.equal(srv!.logs().includes('secrets stored in clear are now sealed'), false, 'nothing left in clear');
    await stop();
  });
});

async function waitFor(ok: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 25));
  assert.ok(ok(), 'the state awaited came');
}
