// Secrets at rest (server/crypto/secrets.ts), end to end through real servers and the real CLI: a
// dump of the database alone — the SQLite file's bytes, or every PostgreSQL table read as text —
// reveals no provider secret and no signing key; `gatehouse secrets rotate` re-encrypts them in
// place under a new key, all or nothing; and secrets an older version stored in clear are sealed
// at the next start, once.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import pg from 'pg';
import { openStorage } from '../../server/backend.ts';
import { newSecretsKeyText, SecretBox } from '../../server/crypto/secrets.ts';
import { readKeyFile } from '../../server/secrets-key.ts';
import { isPostgresUrl } from '../../server/store/postgres/connect.ts';
import type { Stores } from '../../server/stores.ts';
import { decodeJwt } from '../auth/fixture.ts';
import { runCli } from '../helpers/cli.ts';
import { api, http } from '../helpers/http.ts';
import { startIdp, type TestIdp } from '../helpers/idp.ts';
import { defaultBackend, newDatabase, type SpawnedServer, spawnServer, tempDir } from '../helpers/server.ts';

const REALM = 'acme';
const APPLE_AUD = 'com.example.app';
const PUBLIC_URL = 'http://gatehouse.test';
const GOOGLE_SECRET = `gs-${'7f3a9c'.repeat(6)}`;
const APPLE_P8 = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();

/** Stretches of a PEM's base64 body: any of them in a dump means the key leaked. */
const pemFragments = (pem: string) => {
  const body = pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
  return [0, Math.floor(body.length / 2), body.length - 24].map((at) => body.slice(at, at + 24));
};

describe('secrets at rest', () => {
  const backend = defaultBackend();
  const dir = tempDir();
  const keyFile = join(dir, 'secrets.key');
  const newKeyFile = join(dir, 'rotated.key');
  let idp: TestIdp;
  let database: { dbPath: string; drop(): Promise<void> };
  let srv: SpawnedServer | null = null;
  let seq = 0;

  /** A server with the key in the file `key`, or with `{ env }`: the key itself in GATEHOUSE_SECRETS_KEY. */
  const serve = async (key: string | { env: string }) => {
    srv = await spawnServer({
      dir,
      dbPath: database.dbPath,
      args: [
        ...['--apple-jwks-url', idp.jwksUrl, '--apple-issuer', idp.issuer, '--login-rate-limit', '0', '--public-url', PUBLIC_URL],
        ...(typeof key === 'string' ? ['--secrets-key-file', key] : []),
      ],
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
  const login = async () => {
    const identityToken = await idp.token({ sub: `sec-${++seq}` });
    const r = await http(srv!.http, 'POST', `/api/oauth/${REALM}/apple/native-login`, { body: { identityToken, clientId: 'app' } });
    assert.equal(r.status, 200, r.text);
    return r.body.accessToken as string;
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
  });
  after(async () => {
    await stop();
    await idp?.close();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('made the key file on first start, readable by its owner only', () => {
    assert.equal(readKeyFile(keyFile)?.length, 32);
    assert.equal((statSync(keyFile).mode & 0o777).toString(8), '600');
  });

  it('a dump of the database alone reveals no provider secret and no signing key', async () => {
    await login(); // the realm's signing key
    const [pem] = await signingPem(keyFile);
    assert.ok(pem?.includes('PRIVATE KEY'), 'the server opens its signing key');
    await stop();
    const text = await dump();
    assert.ok(text.includes('google-client') && text.includes('TEAM123'), 'the dump holds the rows');
    for (const secret of [GOOGLE_SECRET, ...pemFragments(APPLE_P8), ...pemFragments(pem!)]) {
      assert.equal(text.includes(secret), false, `${secret} is in the dump`);
    }
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
    assert.equal(done.json().resealed, 3); // the Google secret, the Apple key, the signing key
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
