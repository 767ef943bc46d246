// ID-token verification as a function: the claims rules as a table (checkClaims, no I/O), and
// verifyIdToken's signature and shape checks against keys served by a JWKS cache.

import assert from 'node:assert/strict';
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { describe, it } from 'node:test';
import { exportJWK } from 'jose';
import { checkClaims, InvalidIdToken, verifyIdToken } from '../../server/auth/id-token.ts';
import { JwksCache } from '../../server/auth/jwks-cache.ts';
import { CryptoOffload } from '../../server/crypto/offload.ts';
import { systemClock } from '../../server/lib/clock.ts';

const NOW = 1_800_000_000;
const ISS = 'https://appleid.apple.com';
const AUD = 'com.example.app';
const opts = { issuers: [ISS], audiences: [AUD, 'com.example.other'], now: NOW };
const good = { iss: ISS, aud: AUD, sub: '001.abc', iat: NOW - 10, exp: NOW + 600 };

describe('checkClaims', () => {
  const table: Array<[string, Record<string, unknown>, string | null, object?]> = [
    ['valid', {}, null],
    ['an audience array of accepted audiences only', { aud: [AUD, 'com.example.other'] }, null],
    ['an audience array naming this app and an untrusted one', { aud: ['x', AUD] }, 'audience'],
    ['an empty audience array', { aud: [] }, 'audience'],
    ['an additional client id', { aud: 'com.example.other' }, null],
    ['azp naming an accepted client', { azp: 'com.example.other' }, null],
    ['azp naming another party', { azp: 'com.evil' }, 'audience'],
    ['a non-string azp', { azp: 5 }, 'audience'],
    ['a null azp', { azp: null }, 'audience'],
    ['no iss', { iss: undefined }, 'issuer'],
    ['another iss', { iss: 'https://evil.example' }, 'issuer'],
    ['a numeric iss', { iss: 7 }, 'issuer'],
    ['no aud', { aud: undefined }, 'audience'],
    ['another aud', { aud: 'com.evil' }, 'audience'],
    ['an aud array without this app', { aud: ['com.evil', 5] }, 'audience'],
    ['a numeric aud', { aud: 5 }, 'audience'],
    ['no exp', { exp: undefined }, 'claims'],
    ['a string exp', { exp: String(NOW + 600) }, 'claims'],
    ['a string iat', { iat: 'yesterday' }, 'claims'],
    ['a null nbf', { nbf: null }, 'claims'],
    ['exp 1e308', { exp: 1e308 }, 'claims'],
    ['exp past year 9999', { exp: 253_402_300_800 }, 'claims'],
    ['exp at the end of year 9999', { exp: 253_402_300_799 }, null],
    ['a fractional exp', { exp: NOW + 600.5 }, 'claims'],
    ['a fractional iat', { iat: NOW - 10.25 }, 'claims'],
    ['a negative nbf', { nbf: -1 }, 'claims'],
    ['an infinite-looking iat (2^60)', { iat: 2 ** 60 }, 'claims'],
    ['a boolean exp', { exp: true }, 'claims'],
    ['expired beyond the tolerance', { exp: NOW - 61 }, 'expired'],
    ['expired within the tolerance', { exp: NOW - 59 }, null],
    ['exp exactly at now - tolerance', { exp: NOW - 60 }, 'expired'],
    ['nbf in the future', { nbf: NOW + 3600 }, 'not_yet_valid'],
    ['nbf within the tolerance', { nbf: NOW + 30 }, null],
    ['issued in the future', { iat: NOW + 3600, exp: NOW + 7200 }, 'not_yet_valid'],
    ['older than maxAge', { iat: NOW - 1000 }, 'expired', { maxAgeS: 300 }],
    ['maxAge without iat', { iat: undefined }, 'claims', { maxAgeS: 300 }],
    ['no sub', { sub: undefined }, 'claims'],
    ['an empty sub', { sub: '' }, 'claims'],
    ['a numeric sub', { sub: 42 }, 'claims'],
    ['a 256-character sub', { sub: 'x'.repeat(256) }, 'claims'],
  ];
  for (const [name, patch, want, extra] of table) {
    it(`${name} → ${want ?? 'accepted'}`, () => {
      const payload: Record<string, unknown> = { ...good, ...patch };
      for (const k of Object.keys(payload)) if (payload[k] === undefined) delete payload[k];
      assert.equal(checkClaims(payload, { ...opts, ...extra }), want);
    });
  }
});

describe('verifyIdToken', async () => {
  const strong = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const weak = generateKeyPairSync('rsa', { modulusLength: 1024 });
  const keys = [
    { ...(await exportJWK(strong.publicKey)), kid: 'strong', alg: 'RS256', use: 'sig' },
    { ...(await exportJWK(weak.publicKey)), kid: 'weak', alg: 'RS256', use: 'sig' },
  ];
  const jwks = new JwksCache({
    url: 'https://keys.example/jwks',
    algorithms: ['RS256'],
    clock: systemClock,
    timeoutMs: 1000,
    request: async () => ({ status: 200, text: JSON.stringify({ keys }) }),
  });
  const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');
  const jws = (header: unknown, payload: unknown, key = strong.privateKey) => {
    const input = `${b64(header)}.${b64(payload)}`;
    return `${input}.${sign('sha256', Buffer.from(input), key).toString('base64url')}`;
  };
  const now = Math.floor(Date.now() / 1000);
  const claims = { iss: ISS, aud: AUD, sub: 'u1', iat: now, exp: now + 600, email: 'A@Example.com' };
  const signatures = new CryptoOffload();
  const verify = (t: string) => verifyIdToken(t, { jwks, signatures, issuers: [ISS], audiences: [AUD], now });
  const refused = async (t: string, category: string) => {
    await assert.rejects(verify(t), (e: unknown) => e instanceof InvalidIdToken && e.category === category && e.code === 'unauthorized');
  };

  it('accepts a token signed by a published key and hands back its claims', async () => {
    const c = await verify(jws({ alg: 'RS256', kid: 'strong' }, claims));
    assert.equal(c.sub, 'u1');
    assert.equal(c.email, 'a@example.com', 'the email, normalised');
  });

  it('refuses a changed payload, a changed signature and a signature of the wrong length', async () => {
    const t = jws({ alg: 'RS256', kid: 'strong' }, claims);
    const [h, p, s] = t.split('.') as [string, string, string];
    await refused(`${h}.${b64({ ...claims, sub: 'u2' })}.${s}`, 'signature');
    await refused(`${h}.${p}.${s.slice(0, -2)}${s.endsWith('AA') ? 'BA' : 'AA'}`, 'signature');
    await refused(`${h}.${p}.${s.slice(0, 40)}`, 'signature');
  });

  it('refuses a key under 2048 bits even when the JWKS publishes it', async () => {
    await refused(jws({ alg: 'RS256', kid: 'weak' }, claims, weak.privateKey), 'unknown_key');
  });

  it('refuses other algorithms, critical or b64 headers, and headers or payloads that are not objects', async () => {
    await refused(jws({ alg: 'PS256', kid: 'strong' }, claims), 'algorithm');
    await refused(jws({ alg: 'RS256', kid: 'strong', crit: ['exp'], exp: 1 }, claims), 'malformed');
    await refused(jws({ alg: 'RS256', kid: 'strong', b64: false }, claims), 'malformed');
    await refused(jws(['RS256'], claims), 'malformed');
    await refused(jws({ alg: 'RS256', kid: 'strong' }, [claims]), 'malformed');
    await refused(jws({ alg: 'RS256', kid: 'strong' }, 'not json'), 'malformed');
    await refused(jws({ alg: 'RS256', kid: 'nobody' }, claims), 'unknown_key');
    await refused('a.b', 'malformed');
    await refused('a.b.c.d', 'malformed');
    await refused('a.b+.c', 'malformed');
  });

  it('reads every segment strictly: padding, foreign characters and other trailing bits are refused', async () => {
    const t = jws({ alg: 'RS256', kid: 'strong' }, claims);
    const [h, p, s] = t.split('.') as [string, string, string];
    const last = s[s.length - 1]!;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const same = alphabet.split('').find((c) => c !== last && Buffer.from(s.slice(0, -1) + c, 'base64url').equals(Buffer.from(s, 'base64url')))!;
    for (const bad of [
      `${h}.${p}.${s}==`,
      `${h}.${p}.${s.slice(0, 9)}~${s.slice(9)}`,
      `${h}.${p}.${s.slice(0, 9)}*${s.slice(9)}`,
      `${h}.${p}.${s.slice(0, -1)}${same}`,
      `${h}=.${p}.${s}`,
    ]) {
      await refused(bad, 'malformed');
    }
    assert.equal((await verify(t)).sub, 'u1', 'the canonical text is accepted');
  });

  it('needs the request nonce for a token carrying one, and the other way round', async () => {
    const raw = 'n-123';
    const hash = createHash('sha256').update(raw).digest('hex');
    const withNonce = jws({ alg: 'RS256', kid: 'strong' }, { ...claims, nonce: hash });
    const withoutNonce = jws({ alg: 'RS256', kid: 'strong' }, claims);
    const verifyNonce = (tok: string, nonce?: string) => verifyIdToken(tok, { jwks, signatures, issuers: [ISS], audiences: [AUD], now, nonce });
    assert.equal((await verifyNonce(withNonce, raw)).sub, 'u1');
    assert.equal((await verifyNonce(withoutNonce)).sub, 'u1');
    for (const [tok, nonce] of [
      [withNonce, undefined],
      [withoutNonce, raw],
      [withNonce, 'other'],
    ] as const) {
      await assert.rejects(verifyNonce(tok, nonce), (e: unknown) => e instanceof InvalidIdToken && e.category === 'nonce');
    }
  });

  it('applies the claims rules after the signature', async () => {
    await refused(jws({ alg: 'RS256', kid: 'strong' }, { ...claims, exp: now - 3600, iat: now - 7200 }), 'expired');
    await refused(jws({ alg: 'RS256', kid: 'strong' }, { ...claims, aud: 'com.evil' }), 'audience');
  });
});
