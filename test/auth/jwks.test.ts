// The provider JWKS cache through the real endpoint (docs/login.md): cached keys survive an outage,
// an unknown key that cannot be fetched is 503 (never 401), refetches are rate-limited, rotation
// works. Time is a ManualClock, so cool-downs are crossed without sleeping.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { status } from '@grpc/grpc-js';
import { ManualClock } from '../../server/lib/clock.ts';
import { closeGrpcClients, grpcCall } from '../helpers/grpc.ts';
import { T0 } from '../store/contract.ts';
import { type AuthFixture, authFixture, REALM } from './fixture.ts';

describe('the provider JWKS cache', () => {
  let f: AuthFixture;
  const clock = new ManualClock(T0);
  const now = () => Math.floor(clock.now() / 1000);
  const appleLogin = async (opts: Parameters<AuthFixture['apple']['token']>[1] = {}) =>
    f.login('apple', { identityToken: await f.apple.token({}, { now: now(), ...opts }), clientId: 'app' });
  const googleLogin = async () => f.login('google', { identityToken: await f.google.token({ email_verified: true }, { now: now() }), clientId: 'app' });

  before(async () => {
    f = await authFixture({ inProcess: { clock, config: { jwksTimeoutMs: 300 } } });
  });
  after(async () => {
    closeGrpcClients();
    await f.close();
  });

  it('fetches the keys once and serves later logins from memory', async () => {
    assert.equal((await appleLogin()).status, 200);
    assert.equal((await appleLogin()).status, 200);
    assert.equal(f.apple.jwksHits(), 1);
  });

  it('keeps serving cached keys when the JWKS goes down after warm-up, even past their refresh age', async () => {
    f.apple.setMode('down');
    clock.advance(2 * 3600_000); // older than the refresh age: a refresh is tried and fails
    const r = await appleLogin();
    assert.equal(r.status, 200, r.text);
    await f.apple.jwksRequested(2); // a background refresh is tried
    assert.equal(f.apple.jwksHits(), 2);
    assert.equal((await appleLogin()).status, 200);
  });

  it('answers 503 Upstream service unavailable for an unknown key while the JWKS is down, over HTTP and gRPC, and writes nothing', async () => {
    clock.advance(31_000);
    const fresh = await f.apple.addKey({ publish: false });
    const before = await f.counts();
    const r = await appleLogin({ key: fresh });
    assert.equal(r.status, 503, r.text);
    assert.equal(r.body.error, 'service_unavailable');
    assert.equal(r.body.message, 'Upstream service unavailable');
    const g = await grpcCall(f.srv.grpc, 'AuthService', 'NativeLogin', {
      realmId: REALM,
      provider: 'apple',
      identityToken: await f.apple.token({}, { now: now(), key: fresh }),
      clientId: 'app',
    });
    assert.ok(!g.ok);
    assert.equal(g.error.code, status.UNAVAILABLE);
    assert.equal(g.error.message, 'Upstream service unavailable');
    assert.deepEqual(await f.counts(), before);
  });

  it('answers 503 when the JWKS is unreachable, failing or garbled from the start', async () => {
    for (const mode of ['error', 'garbage', 'down'] as const) {
      f.google.setMode(mode);
      clock.advance(6_000); // past the back-off after a failed fetch
      const r = await googleLogin();
      assert.equal(r.status, 503, `${mode}: ${r.text}`);
    }
  });

  it('answers 503 when the JWKS does not answer within the fetch timeout, and recovers when it is back', async () => {
    // The JWKS keeps the request open and never answers: only the fetch timeout can end the login.
    f.google.setMode('hang');
    clock.advance(6_000);
    const hits = f.google.jwksHits();
    assert.equal((await googleLogin()).status, 503);
    assert.equal(f.google.jwksHits(), hits + 1, 'the fetch was made, and given up unanswered');
    f.google.setMode('up');
    clock.advance(6_000);
    assert.equal((await googleLogin()).status, 200);
  });

  it('follows key rotation, refetching an unknown kid at most once per 30 s', async () => {
    f.apple.setMode('up');
    const old = f.apple.keys[0]!;
    clock.advance(31_000);
    const rotated = await f.apple.rotate();
    const hits = f.apple.jwksHits();
    assert.equal((await appleLogin({ key: rotated })).status, 200);
    assert.equal(f.apple.jwksHits(), hits + 1);
    const newer = await f.apple.addKey();
    for (let i = 0; i < 5; i++) assert.equal((await appleLogin({ key: newer })).status, 401, 'within the cool-down an unknown kid is refused');
    assert.equal(f.apple.jwksHits(), hits + 1, 'no refetch within 30 s');
    clock.advance(30_000);
    assert.equal((await appleLogin({ key: newer })).status, 200);
    assert.equal(f.apple.jwksHits(), hits + 2);
    assert.equal((await appleLogin({ key: old })).status, 401, 'a withdrawn key no longer verifies');
  });

  it('makes one fetch for many concurrent logins with a new key', async () => {
    clock.advance(31_000);
    const k = await f.apple.addKey();
    // The key set is held unanswered until the fetch has been made: logins meanwhile wait on it.
    f.apple.setMode('hang');
    const hits = f.apple.jwksHits();
    const logins = Promise.all(Array.from({ length: 8 }, () => appleLogin({ key: k })));
    await f.apple.jwksRequested(hits + 1);
    f.apple.setMode('up');
    const results = await logins;
    assert.deepEqual(
      results.map((r) => r.status),
      Array(8).fill(200),
    );
    assert.equal(f.apple.jwksHits(), hits + 1);
  });
});
