// The per-IP native-login limit through the server (--login-rate-limit).

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { status } from '@grpc/grpc-js';
import { ManualClock } from '../../server/lib/clock.ts';
import { closeGrpcClients, grpcCall } from '../helpers/grpc.ts';
import { type AuthFixture, authFixture, REALM } from './fixture.ts';

describe('the native-login rate limit', () => {
  let f: AuthFixture;
  const clock = new ManualClock(Date.UTC(2026, 10, 22, 8, 0, 10)); // 10 s into a minute

  before(async () => {
    f = await authFixture({ inProcess: { clock, config: { loginRateLimit: 3 } } });
  });
  after(async () => {
    closeGrpcClients();
    await f.close();
  });

  it('answers 429 rate_limited with Retry-After past the limit, on both transports, until the minute ends', async () => {
    const body = async () => ({ identityToken: await f.apple.token({}, { now: Math.floor(clock.now() / 1000) }), clientId: 'app' });
    for (let i = 0; i < 3; i++) assert.equal((await f.login('apple', await body())).status, 200);
    const r = await f.login('apple', await body());
    assert.equal(r.status, 429);
    assert.equal(r.body.error, 'rate_limited');
    assert.equal(r.headers.get('retry-after'), '50');
    const g = await grpcCall(f.srv.grpc, 'AuthService', 'NativeLogin', { realmId: REALM, provider: 'apple', ...(await body()) });
    assert.ok(!g.ok);
    assert.equal(g.error.code, status.RESOURCE_EXHAUSTED);
    clock.advance(50_000);
    assert.equal((await f.login('apple', await body())).status, 200);
  });
});
