// Every account native login creates goes through the onUserCreated hook (registration grants of
// the points concern hang there) exactly once; a returning user does not.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createAuth } from '../../server/auth/service.ts';
import { loadConfig } from '../../server/config.ts';
import { CryptoOffload } from '../../server/crypto/offload.ts';
import { ManualClock } from '../../server/lib/clock.ts';
import { silentLogger } from '../../server/lib/log.ts';
import type { CallContext } from '../../server/rpc/context.ts';
import type { User } from '../../server/users/model.ts';
import { startIdp, type TestIdp } from '../helpers/idp.ts';
import { type OpenStores, openStores } from '../helpers/stores.ts';
import { T0 } from '../store/contract.ts';

describe('the onUserCreated hook', () => {
  let stores: OpenStores;
  let idp: TestIdp;
  const created: User[] = [];
  let auth: ReturnType<typeof createAuth>;
  const clock = new ManualClock(T0);
  const ctx: CallContext = { requestId: 'r', transport: 'http', clientIp: '127.0.0.1', header: () => undefined, principal: null, log: silentLogger };

  before(async () => {
    idp = await startIdp();
    stores = openStores(':memory:');
    const admin = stores.admin;
    await admin.createRealm({ id: 'r', name: 'r', createdAt: 0 });
    await admin.putProvider({ realmId: 'r', provider: 'apple', clientId: idp.audience, enabled: true, additionalClientIds: [], updatedAt: 0 });
    await admin.createClient({
      realmId: 'r',
      clientId: 'app',
      name: 'app',
      type: 'first_party',
      redirectUris: [],
      ipBinding: 'off',
      enabled: true,
      accessTokenTtlSeconds: 900,
      refreshTokenTtlSeconds: 3600,
      createdAt: 0,
    });
    auth = createAuth({
      config: { ...loadConfig({}, {}), appleJwksUrl: idp.jwksUrl, appleIssuer: idp.issuer },
      admin,
      users: stores.users,
      store: stores.auth,
      clock,
      onUserCreated: async (u) => void created.push(u),
      publicUrl: () => 'https://gatehouse.test',
      signatures: new CryptoOffload(),
      deleteAccount: async () => assert.fail('no account is deleted here'),
    });
  });
  after(async () => {
    stores.close();
    await idp.close();
  });

  it('runs once for a new account and not for a returning one', async () => {
    const login = async (sub: string) =>
      auth.service.nativeLogin(
        { realmId: 'r', provider: 'apple', identityToken: await idp.token({ sub }, { now: Math.floor(clock.now() / 1000) }), clientId: 'app', fullName: null },
        ctx,
      );
    const first = await login('hook-1');
    assert.equal(created.length, 1);
    assert.equal(created[0]!.id, first.userId);
    assert.equal(created[0]!.email, 'hook-1@apple.placeholder');
    await login('hook-1');
    assert.equal(created.length, 1);
    await login('hook-2');
    assert.equal(created.length, 2);
  });
});
