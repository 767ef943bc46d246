// gatehouse's access tokens in both algorithms a realm's key may have: signed with the key's own
// algorithm, verified with it alone (on the signature thread), and refused when the header names
// another (RFC 8725 §3.1).
import assert from 'node:assert/strict';
import { generateKeyPairSync, sign } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { CryptoOffload } from '../crypto/offload.ts';
import { type AccessClaims, readAccessToken, signAccessToken, verifyAccessToken } from './access-token.ts';
import type { SigningAlgorithm } from './store.ts';

const ISS = 'https://id.example.com/api/oauth/r';
const NOW = 1_800_000_000;
const claims: AccessClaims = { iss: ISS, sub: 'usr_1', aud: 'app', sid: 'fam_1', jti: 'at_1', iat: NOW, exp: NOW + 900 };
const pairs = {
  ES256: generateKeyPairSync('ec', { namedCurve: 'P-256' }),
  EdDSA: generateKeyPairSync('ed25519'),
};

describe('access tokens', () => {
  const signatures = new CryptoOffload();
  after(() => signatures.stopWorker());

  for (const alg of ['ES256', 'EdDSA'] as SigningAlgorithm[]) {
    it(`${alg}: signed with the key's algorithm, verified by its public key and by jose against the JWK`, async () => {
      const { privateKey, publicKey } = pairs[alg];
      const token = await signAccessToken(signatures, { kid: `k-${alg}`, alg, privateKey }, claims);
      const read = readAccessToken(token)!;
      assert.deepEqual(read.jws.header, { alg, typ: 'at+jwt', kid: `k-${alg}` });
      assert.deepEqual(await verifyAccessToken(signatures, read.jws, publicKey, { iss: ISS, now: NOW }), claims);
      const jwk = { ...publicKey.export({ format: 'jwk' }), kid: `k-${alg}`, alg, use: 'sig' };
      const byJose = await jwtVerify(token, createLocalJWKSet({ keys: [jwk] as never }), { currentDate: new Date(NOW * 1000), typ: 'at+jwt' });
      assert.equal(byJose.payload.sub, 'usr_1');

      const other = alg === 'ES256' ? pairs.EdDSA : pairs.ES256;
      assert.equal(
        await verifyAccessToken(signatures, read.jws, other.publicKey, { iss: ISS, now: NOW }),
        null,
        'a key of the other algorithm verifies nothing',
      );
      assert.equal(await verifyAccessToken(signatures, read.jws, publicKey, { iss: ISS, now: NOW + 900 }), null, 'expired');
    });
  }

  it('reads only our algorithms, and verifies a header alg only with a key that is for it', async () => {
    const input = (alg: string) =>
      `${Buffer.from(JSON.stringify({ alg, typ: 'at+jwt', kid: 'k' })).toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
    for (const alg of ['RS256', 'HS256', 'none', 'ES384']) {
      assert.equal(readAccessToken(`${input(alg)}.${Buffer.from('sig').toString('base64url')}`), null, alg);
    }
    // A valid ECDSA P-256 signature (DER, node's default encoding) under a header naming EdDSA: the
    // EC key is not an EdDSA key, so nothing is verified with it (crypto/ops.mjs keyFits).
    const data = input('EdDSA');
    const der = sign('sha256', Buffer.from(data), pairs.ES256.privateKey).toString('base64url');
    const read = readAccessToken(`${data}.${der}`)!;
    assert.notEqual(read, null);
    assert.equal(await verifyAccessToken(signatures, read.jws, pairs.ES256.publicKey, { iss: ISS, now: NOW }), null);
  });
});
