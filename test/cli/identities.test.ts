// `gatehouse identities list USER_ID` and `gatehouse identities unlink USER_ID PROVIDER` against a
// real server, the CLI a child process: the identities as a table or --json, the unlink, and the
// last identity refused with the server's last_identity (exit 1, nothing unlinked).

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type AuthFixture, authFixture, REALM } from '../auth/fixture.ts';
import { runCli } from '../helpers/cli.ts';
import { http } from '../helpers/http.ts';

describe('gatehouse identities', () => {
  let f: AuthFixture;
  let env: Record<string, string>;
  let userId: string;

  before(async () => {
    f = await authFixture({ inProcess: { config: { trustProxy: 1 } } });
    env = { GATEHOUSE_SERVER: f.srv.grpc, GATEHOUSE_API_KEY: f.srv.adminKey, GATEHOUSE_REALM: REALM };
    const login = await f.login('apple', { identityToken: await f.apple.token({ sub: 'cli-apple' }), clientId: 'app' });
    assert.equal(login.status, 200, login.text);
    userId = login.body.userId;
    const linked = await http(f.srv.http, 'POST', `/api/oauth/${REALM}/me/identities`, {
      token: login.body.accessToken,
      body: { provider: 'google', identityToken: await f.google.token({ sub: 'cli-google', email: 'cli@example.com', email_verified: true }) },
    });
    assert.equal(linked.status, 200, linked.text);
  });
  after(() => f.close());

  it('lists the identities as a table, and as JSON with --json', async () => {
    const text = await runCli(['identities', 'list', userId], { env });
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /PROVIDER\s+SUBJECT\s+EMAIL\s+FORWARDING\s+LINKED/);
    assert.match(text.stdout, /apple\s+cli-apple\s+-\s+-/);
    assert.match(text.stdout, /google\s+cli-google\s+cli@example\.com\s+-/);
    const json = await runCli(['identities', 'list', userId, '--json'], { env });
    assert.equal(json.code, 0, json.stderr);
    const out = json.json();
    assert.equal(out.userId, userId);
    assert.deepEqual(
      out.identities.map((i: { provider: string; subject: string }) => [i.provider, i.subject]),
      [
        ['apple', 'cli-apple'],
        ['google', 'cli-google'],
      ],
    );
  });

  it('unlinks a provider, and refuses the last identity with exit 1 and last_identity', async () => {
    const r = await runCli(['identities', 'unlink', userId, 'google', '--json'], { env });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(
      r.json().identities.map((i: { provider: string }) => i.provider),
      ['apple'],
    );
    const last = await runCli(['identities', 'unlink', userId, 'apple'], { env });
    assert.equal(last.code, 1);
    assert.match(last.stderr, /last_identity/);
    assert.equal(last.stdout, '');
    const still = await runCli(['identities', 'list', userId, '--json'], { env });
    assert.equal(still.json().identities.length, 1);
  });

  it('fails with not_found for an unknown user', async () => {
    const r = await runCli(['identities', 'list', 'usr_nobody'], { env });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /not_found/);
  });
});
