// requireNonce (docs/login.md): a provider set to require a nonce refuses a native login without
// one with 400, before reading the token and writing anything; off by default, as before. Set
// through the admin API and the CLI's `provider set`, shown by their reads.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { status } from '@grpc/grpc-js';
import { runCli } from '../helpers/cli.ts';
import { closeGrpcClients, grpcCall } from '../helpers/grpc.ts';
import { nonceHash } from '../helpers/idp.ts';
import { APPLE_AUD, type AuthFixture, authFixture } from './fixture.ts';

const STRICT = 'strict';

describe('requireNonce', () => {
  let f: AuthFixture;
  let cli: (args: string[]) => ReturnType<typeof runCli>;
  let seq = 0;
  const token = (claims: Record<string, unknown> = {}) => f.apple.token({ sub: `strict-${++seq}`, email: `strict${seq}@example.com`, ...claims });
  const login = (body: Record<string, unknown>) => f.login('apple', { clientId: 'app', ...body }, { realm: STRICT });
  const providerRead = async () => {
    const r = await f.admin.get(`/api/admin/realms/${STRICT}/providers/apple`);
    assert.equal(r.status, 200, r.text);
    return r.body as { requireNonce: boolean; clientId: string };
  };

  before(async () => {
    f = await authFixture({ inProcess: { config: { trustProxy: 1 } } });
    cli = (args) => runCli([...args, '--realm', STRICT], { env: { GATEHOUSE_SERVER: f.srv.grpc, GATEHOUSE_API_KEY: f.srv.adminKey } });
    for (const [path, body] of [
      ['/api/admin/realms', { id: STRICT, name: STRICT }],
      [`/api/admin/realms/${STRICT}/providers/apple`, { clientId: APPLE_AUD, enabled: true }],
      [`/api/admin/realms/${STRICT}/clients`, { clientId: 'app', name: 'App', type: 'first_party', redirectUris: [], ipBinding: 'off' }],
    ] as const) {
      const r = path.endsWith('/apple') ? await f.admin.put(path, body) : await f.admin.post(path, body);
      assert.equal(r.status, 200, r.text);
    }
  });
  after(async () => {
    closeGrpcClients();
    await f.close();
  });

  it('is off for a provider configured without it: a login without a nonce succeeds', async () => {
    assert.equal((await providerRead()).requireNonce, false);
    const r = await login({ identityToken: await token() });
    assert.equal(r.status, 200, r.text);
  });

  it('is turned on by the CLI, shown by `provider get` and the admin API, and kept by a later set that leaves it out', async () => {
    const set = await cli(['provider', 'set', 'apple', '--require-nonce', 'true']);
    assert.equal(set.code, 0, set.stderr);
    assert.match(set.stdout, /requireNonce:\s+true/);
    const got = await cli(['provider', 'get', 'apple', '--json']);
    assert.equal(got.code, 0, got.stderr);
    assert.equal(got.json().requireNonce, true);
    assert.equal((await providerRead()).requireNonce, true);
    const later = await cli(['provider', 'set', 'apple', '--client-id', APPLE_AUD, '--json']);
    assert.equal(later.code, 0, later.stderr);
    assert.equal(later.json().requireNonce, true, 'a set that does not name it keeps it');
    const bad = await cli(['provider', 'set', 'apple', '--require-nonce', 'maybe']);
    assert.equal(bad.code, 2, bad.stderr);
    assert.match(bad.stderr, /--require-nonce/);
  });

  it('refuses a login without a nonce with 400 naming the field, over HTTP and gRPC, and writes nothing', async () => {
    const before = await f.counts();
    const idToken = await token();
    const r = await login({ identityToken: idToken });
    assert.equal(r.status, 400, r.text);
    assert.equal(r.body.error, 'bad_request');
    assert.equal(r.body.field, 'nonce');
    assert.match(r.body.message, /nonce: required/);
    const g = await grpcCall(f.srv.grpc, 'AuthService', 'NativeLogin', { realmId: STRICT, provider: 'apple', identityToken: idToken, clientId: 'app' });
    assert.ok(!g.ok && g.error.code === status.INVALID_ARGUMENT, JSON.stringify(g));
    assert.deepEqual(await f.counts(), before);
    // The other realm's apple provider does not require one.
    assert.equal((await f.login('apple', { identityToken: idToken, clientId: 'app' })).status, 200);
  });

  it('lets a login with its nonce through, the token bound to it', async () => {
    const raw = 'strict-nonce-0123456789';
    const r = await login({ identityToken: await token({ nonce: nonceHash(raw) }), nonce: raw });
    assert.equal(r.status, 200, r.text);
    const wrong = await login({ identityToken: await token({ nonce: nonceHash(raw) }), nonce: 'another-nonce' });
    assert.equal(wrong.status, 401, wrong.text);
  });

  it('is turned off again through the admin API PUT', async () => {
    const r = await f.admin.put(`/api/admin/realms/${STRICT}/providers/apple`, { clientId: APPLE_AUD, enabled: true, requireNonce: false });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.requireNonce, false);
    assert.equal((await login({ identityToken: await token() })).status, 200);
  });
});
