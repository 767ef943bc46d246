// SecretsStore contract: every stored value of the encrypted columns (crypto/secrets.ts) passes
// through one rewrite, all in one transaction — what `secrets rotate` and the sealing at start
// rely on to lose nothing midway.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type EncryptedColumn, isSealed } from '../../server/crypto/secrets.ts';
import { type StoreFactory, type StoreFixture, seedRealm, T0, unique } from './contract.ts';

export function describeSecretsStore(backend: string, factory: StoreFactory): void {
  describe(`${backend}: SecretsStore`, () => {
    let s: StoreFixture;
    before(async () => {
      s = await factory();
      const realm = await seedRealm(s);
      await s.admin.putProvider({
        realmId: realm,
        provider: 'apple',
        clientId: 'com.example.app',
        enabled: true,
        additionalClientIds: [],
        clientSecret: 'client-secret',
        privateKey: 'apple-private-key',
        updatedAt: T0,
      });
      await s.auth.currentSigningKey(realm, () => ({
        kid: unique('kid'),
        realmId: realm,
        alg: 'EdDSA',
        privatePem: 'signing-private-key',
        publicJwk: { kty: 'OKP' },
        createdAt: T0,
        retiredAt: null,
      }));
    });
    after(() => s.close());

    const everyValue = async () => {
      const seen: Array<[string, string]> = [];
      assert.equal(await s.secrets.rewriteSecrets((c, v) => (seen.push([`${c.table}.${c.column}`, v]), null)), 0);
      return seen.sort();
    };

    it('hands over every stored value of every encrypted column, each sealed as written', async () => {
      const seen = await everyValue();
      assert.deepEqual([...new Set(seen.map(([column]) => column))], ['providers.client_secret', 'providers.private_key', 'signing_keys.private_pem']);
      for (const [column, value] of seen) assert.equal(isSealed(value), true, column);
    });

    it('writes back what the change returns, and nothing at all when it fails midway', async () => {
      const before = await everyValue();
      let calls = 0;
      const failing = (_c: EncryptedColumn, v: string) => {
        if (++calls === 2) throw new Error('the second value cannot be rewritten');
        return `${v}!`;
      };
      await assert.rejects(s.secrets.rewriteSecrets(failing), /second value/);
      assert.deepEqual(await everyValue(), before);

      assert.equal(await s.secrets.rewriteSecrets((_c, v) => `${v}!`), before.length);
      assert.deepEqual(
        await everyValue(),
        before.map(([c, v]) => [c, `${v}!`]),
      );
    });
  });
}
