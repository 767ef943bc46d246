// SIGKILL in the middle of a storm of consumes, grants and logins from another process,
// then a restart on the same database: every acknowledged consume is there exactly once, nothing is
// half-applied, balances equal grants minus consumes, and idempotent retries return the originals.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { api } from '../helpers/http.ts';
import { startIdp, type TestIdp } from '../helpers/idp.ts';
import { ROOT, type SpawnedServer, spawnServer, tempDir } from '../helpers/server.ts';

const REALM = 'crash';
const AUD = 'com.crash.app';
const START = 100_000;
let idp: TestIdp;
const dir = tempDir();
const dbPath = join(dir, 'crash.db');
const args = () => ['--apple-jwks-url', idp.jwksUrl, '--apple-issuer', idp.issuer, '--login-rate-limit', '0'];

before(async () => {
  idp = await startIdp({ audience: AUD });
});
after(() => idp.close());

describe('crash safety', () => {
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

    const db = new Database(dbPath, { readonly: true });
    assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
    db.close();

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
      // Logins: one account per Apple subject, however often it logged in or where the crash fell.
      const db2 = new Database(dbPath, { readonly: true });
      const perSub = db2.prepare('SELECT subject, COUNT(*) AS n FROM user_identities WHERE realm_id = ? GROUP BY subject').all(REALM) as Array<{ n: number }>;
      db2.close();
      assert.ok(perSub.every((r) => r.n === 1));
    } finally {
      await srv.stop();
    }
  });
});
