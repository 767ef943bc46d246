// SIGKILL in the middle of a storm of consumes, grants and logins from another process,
// then a restart on the same database: every acknowledged consume is there exactly once, nothing is
// half-applied, balances equal grants minus consumes, and idempotent retries return the originals.
// On a SQLite file, and on PostgreSQL.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, it } from 'node:test';
import { isPostgresUrl } from '../../server/store/database-kind.ts';
import { describeEachBackend } from '../helpers/backends.ts';
import { api } from '../helpers/http.ts';
import { startIdp, type TestIdp } from '../helpers/idp.ts';
import { newDatabase, ROOT, type SpawnedServer, spawnServer, tempDir } from '../helpers/server.ts';
import { databaseIntegrity, withStores } from '../helpers/stores.ts';

const REALM = 'crash';
const AUD = 'com.crash.app';
const START = 100_000;

describeEachBackend('crash safety', (backend) => {
  let idp: TestIdp;
  const dir = tempDir();
  let db: Awaited<ReturnType<typeof newDatabase>>;
  let dbPath: string;
  const args = () => ['--apple-jwks-url', idp.jwksUrl, '--apple-issuer', idp.issuer, '--login-rate-limit', '0'];

  before(async () => {
    idp = await startIdp({ audience: AUD });
    db = await newDatabase(dir, backend);
    dbPath = db.dbPath;
  });
  after(async () => {
    await idp.close();
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('loses and doubles nothing across a SIGKILL mid-storm', async () => {
    let srv: SpawnedServer = await spawnServer({ dir, dbPath, args: args() });
    const admin = api(srv.http, srv.adminKey);
    assert.equal((await admin.post('/api/admin/realms', { id: REALM, name: 'Crash' })).status, 200);
    assert.equal((await admin.post(`/api/admin/realms/${REALM}/clients`, { clientId: 'app', name: 'App', type: 'first_party', redirectUris: [] })).status, 200);
    assert.equal((await admin.put(`/api/admin/realms/${REALM}/providers/apple`, { clientId: AUD })).status, 200);
    const users: string[] = [];
    for (let i = 0; i < 4; i++) {
      const u = await admin.post(`/api/admin/realms/${REALM}/users`, { email: `u${i}@crash.example` });
      users.push(u.body.id);
      assert.equal((await admin.post(`/api/points/${REALM}/users/${u.body.id}/grants`, { kind: 'topup_credit', amount: START })).status, 200);
    }
    const tokens = await Promise.all(Array.from({ length: 6 }, (_, i) => idp.token({ sub: `crash-sub-${i}`, email: `s${i}@crash.example` }, { ttl: 3600 })));
    const tokensFile = join(dir, 'tokens.json');
    writeFileSync(tokensFile, JSON.stringify(tokens));

    const worker = spawn(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'test/reliability/storm-worker.ts'), srv.http, srv.adminKey, REALM, users.join(','), tokensFile],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const lines: any[] = [];
    createInterface({ input: worker.stdout! }).on('line', (l) => lines.push(JSON.parse(l)));
    const workerDone = new Promise((r) => worker.on('exit', r));
    // Let the storm build up, then pull the plug without warning.
    while (lines.filter((l) => l.t === 'ack').length < 300) await new Promise((r) => setTimeout(r, 20));
    await srv.kill('SIGKILL');
    await workerDone;

    const tried = lines.filter((l) => l.t === 'try');
    const acked = lines.filter((l) => l.t === 'ack');
    assert.ok(acked.length >= 300 && tried.length > acked.length - 1);

    // A SQLite file is written by the killed process itself: every page and index must be sound.
    // PostgreSQL's files are its own server's, which the kill does not reach; what the kill could
    // leave there, a transaction of its connections still holding a user's row lock, would make
    // the retries below wait past the lock timeout and answer 503.
    if (!isPostgresUrl(dbPath)) assert.equal(databaseIntegrity(dbPath), 'ok');

    srv = await spawnServer({ dir, dbPath, args: args() });
    try {
      const h = api(srv.http, srv.adminKey);
      // Acknowledged answers come back unchanged on retry, and nothing is deducted again.
      const before = new Map<string, number>();
      for (const u of users) before.set(u, (await h.get(`/api/points/${REALM}/users/${u}/summary`)).body.total);
      for (const a of acked.filter((l) => l.kind !== 'login')) {
        const again = await h.post(a.path, a.body);
        assert.equal(again.status, 200, again.text);
        assert.deepEqual(again.body, a.answer, `retry of ${a.body.idempotencyKey}`);
      }
      for (const u of users)
        assert.equal((await h.get(`/api/points/${REALM}/users/${u}/summary`)).body.total, before.get(u), 'acknowledged retries deducted nothing');

      // Retry everything that was attempted: each lands exactly once, whether or not it had landed.
      for (const t of tried.filter((l) => l.kind !== 'login')) {
        const r = await h.post(t.path, t.body);
        assert.equal(r.status, 200, r.text);
      }
      for (const u of users) {
        const mine = tried.filter((t) => t.kind !== 'login' && (t.body.userId === u || t.path.includes(`/users/${u}/`)));
        const granted = mine.filter((t) => t.kind === 'grant').reduce((s, t) => s + t.body.amount, 0);
        const consumed = mine.filter((t) => t.kind === 'consume').reduce((s, t) => s + t.body.amount, 0);
        const total = (await h.get(`/api/points/${REALM}/users/${u}/summary`)).body.total;
        assert.equal(total, START + granted - consumed, `balance of ${u}`);
      }
      // Logins: one account per Apple subject, however often it logged in or where the crash fell,
      // and no account without its link (a login's account and link are written together).
      const accounts = await withStores(dbPath, async (s) =>
        Promise.all((await s.users.listUsers(REALM, { limit: 100 })).map(async (u) => ({ email: u.email, links: await s.users.identitiesOf(u.id) }))),
      );
      const loggedIn = accounts.filter((a) => a.email.startsWith('s'));
      const subjects = loggedIn.flatMap((a) => a.links.filter((l) => l.provider === 'apple').map((l) => l.subject));
      assert.ok(subjects.length > 0, 'some logins landed');
      assert.equal(new Set(subjects).size, subjects.length, 'one account per subject');
      assert.ok(
        loggedIn.every((a) => a.links.length === 1 && a.email === `s${a.links[0]!.subject.slice('crash-sub-'.length)}@crash.example`),
        'each login account is linked to its own subject',
      );
      assert.equal(accounts.length, users.length + loggedIn.length, 'no other account');
    } finally {
      await srv.stop();
    }
  });
});
