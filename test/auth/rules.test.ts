// The pure rules of the auth concern, as tables.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { redirectWithCode, transactionRefusal } from '../../server/auth/authorize.ts';
import { expand, ipAllowed } from '../../server/auth/ip-binding.ts';
import { s256, verifierMatches } from '../../server/auth/pkce.ts';
import { configuredProvider, PROVIDERS } from '../../server/auth/providers/registry.ts';
import { FixedWindowLimiter } from '../../server/auth/rate-limit.ts';
import { type ProviderLogin, planLoginMatch } from '../../server/users/model.ts';

describe('the login rate limiter', () => {
  it('allows the limit per key per minute, then answers with the seconds to the next window', () => {
    const l = new FixedWindowLimiter(3);
    const t0 = 60_000 * 1000 + 15_000; // 15 s into a window
    for (let i = 0; i < 3; i++) assert.deepEqual(l.hit('1.2.3.4', t0), { allowed: true });
    assert.deepEqual(l.hit('1.2.3.4', t0 + 500), { allowed: false, retryAfterS: 45 });
    assert.deepEqual(l.hit('5.6.7.8', t0), { allowed: true }, 'other addresses are unaffected');
    assert.deepEqual(l.hit('1.2.3.4', t0 + 45_000), { allowed: true }, 'a new window starts afresh');
  });

  it('counts one budget per IPv6 /64, so rotating the interface identifier gains nothing', () => {
    const l = new FixedWindowLimiter(2);
    const t0 = 60_000 * 1000;
    assert.equal(l.hit('2001:db8:a:b::1', t0).allowed, true);
    assert.equal(l.hit('2001:db8:a:b:ffff::9', t0).allowed, true);
    assert.equal(l.hit('2001:0db8:000a:000b::77', t0).allowed, false);
    assert.equal(l.hit('2001:db8:a:c::1', t0).allowed, true, 'the next /64 is another caller');
  });

  it('keeps the counts it has when a flood of new addresses fills it: newcomers share one budget', () => {
    const l = new FixedWindowLimiter(2, 60_000, 3);
    const t0 = 60_000 * 1000;
    for (let i = 0; i < 2; i++) l.hit('1.1.1.1', t0);
    assert.equal(l.hit('1.1.1.1', t0).allowed, false);
    l.hit('2.2.2.2', t0);
    l.hit('3.3.3.3', t0); // full
    assert.equal(l.hit('1.1.1.1', t0).allowed, false, 'a full map does not reset the limited caller');
    assert.equal(l.hit('9.9.9.1', t0).allowed, true);
    assert.equal(l.hit('9.9.9.2', t0).allowed, true);
    assert.equal(l.hit('9.9.9.3', t0).allowed, false, 'fresh addresses past the cap share one budget');
    assert.equal(l.hit('9.9.9.4', t0 + 60_000).allowed, true, 'the next window starts afresh');
  });

  it('is off with a limit of 0', () => {
    const l = new FixedWindowLimiter(0);
    for (let i = 0; i < 1000; i++) assert.equal(l.hit('k', i).allowed, true);
  });
});

describe('IP binding', () => {
  const table: Array<[string, string, 'off' | 'exact' | 'subnet', boolean]> = [
    ['10.0.0.1', '10.0.0.1', 'exact', true],
    ['10.0.0.1', '10.0.0.2', 'exact', false],
    ['10.0.0.1', '10.0.0.254', 'subnet', true],
    ['10.0.0.1', '10.0.1.1', 'subnet', false],
    ['2001:db8::1', '2001:0db8:0:0::1', 'exact', true],
    ['2001:db8:a:b::1', '2001:db8:a:b:ffff::9', 'subnet', true],
    ['2001:db8:a:b::1', '2001:db8:a:c::1', 'subnet', false],
    ['10.0.0.1', '2001:db8::1', 'subnet', false],
    ['unknown', 'unknown', 'exact', false],
    ['10.0.0.1', '192.168.1.1', 'off', true],
  ];
  for (const [bound, ip, mode, want] of table) {
    it(`${mode}: ${bound} vs ${ip} → ${want}`, () => assert.equal(ipAllowed(bound, ip, mode), want));
  }
  it('expands IPv6 with an embedded IPv4 tail', () => {
    assert.equal(expand('::ffff:1.2.3.4'), '0000:0000:0000:0000:0000:ffff:0102:0304');
  });
});

describe('PKCE (RFC 7636)', () => {
  it('matches the RFC 7636 Appendix B example', () => {
    assert.equal(s256('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk'), 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
    assert.equal(verifierMatches('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk', 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM'), true);
  });
  it('refuses a wrong or badly sized verifier', () => {
    assert.equal(verifierMatches('x'.repeat(43), 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM'), false);
    assert.equal(verifierMatches('short', s256('short')), false);
    assert.equal(verifierMatches('x'.repeat(129), s256('x'.repeat(129))), false);
  });
});

describe('downstream transactions', () => {
  const tx = {
    realmId: 'r',
    state: 'state-123',
    clientId: 'c',
    redirectUri: 'https://x/cb',
    codeChallenge: 'x',
    scope: '',
    createdAt: 0,
    expiresAt: 1000,
    consumedAt: null,
  };
  const table: Array<[string, Parameters<typeof transactionRefusal>[0], string | null]> = [
    ['pending, same client', tx, null],
    ['missing', null, 'unknown'],
    ['other realm', { ...tx, realmId: 'q' }, 'unknown'],
    ['consumed', { ...tx, consumedAt: 5 }, 'consumed'],
    ['expired', { ...tx, expiresAt: 500 }, 'expired'],
    ['other client', { ...tx, clientId: 'd' }, 'client'],
  ];
  for (const [name, t, want] of table) {
    it(`${name} → ${want ?? 'accepted'}`, () => assert.equal(transactionRefusal(t, { realmId: 'r', clientId: 'c', now: 500 }), want));
  }
  it('keeps the query a registered redirect URI had', () => {
    assert.equal(redirectWithCode('https://p.example/cb?tenant=7', 'ac_x', 's t'), 'https://p.example/cb?tenant=7&code=ac_x&state=s%20t');
    assert.equal(redirectWithCode('com.app:/cb', 'ac_x', 's'), 'com.app:/cb?code=ac_x&state=s');
  });
});

describe('account matching', () => {
  const base: ProviderLogin = { realmId: 'r', provider: 'apple', subject: 'sub1', email: 'a@b.c', emailVerified: false, fullName: null };
  const verifiedOwner = { userId: 'u2', email: 'a@b.c', emailVerified: true };
  type Row = [string, ProviderLogin, { userId: string } | null, Parameters<typeof planLoginMatch>[2], ReturnType<typeof planLoginMatch>];
  const table: Row[] = [
    ['provider record first', base, { userId: 'u1' }, verifiedOwner, { kind: 'identity', userId: 'u1' }],
    ['then email (an account whose email is verified)', base, null, verifiedOwner, { kind: 'link', userId: 'u2' }],
    ['then create with the email', base, null, null, { kind: 'create', email: 'a@b.c', emailVerified: false }],
    ['a verified email is created verified', { ...base, emailVerified: true }, null, null, { kind: 'create', email: 'a@b.c', emailVerified: true }],
    ['no email → placeholder', { ...base, email: null }, null, null, { kind: 'create', email: 'sub1@apple.placeholder', emailVerified: false }],
    ['no email, returning → by sub', { ...base, email: null }, { userId: 'u1' }, null, { kind: 'identity', userId: 'u1' }],
    [
      'an account with an unverified email attracts no link → placeholder',
      { ...base, emailVerified: true },
      null,
      { ...verifiedOwner, emailVerified: false },
      { kind: 'create', email: 'sub1@apple.placeholder', emailVerified: false },
    ],
    [
      'a placeholder account attracts no link, even marked verified',
      { ...base, email: 'x@apple.placeholder' },
      null,
      { userId: 'u2', email: 'x@apple.placeholder', emailVerified: true },
      { kind: 'create', email: 'sub1@apple.placeholder', emailVerified: false },
    ],
    [
      'Google without a usable email, email taken or not → placeholder',
      { ...base, provider: 'google', email: null },
      null,
      null,
      { kind: 'create', email: 'sub1@google.placeholder', emailVerified: false },
    ],
  ];
  for (const [name, login, ident, byEmail, want] of table) {
    it(name, () => assert.deepEqual(planLoginMatch(login, ident, byEmail), want));
  }

  it("takes Apple's email as Apple states it; Google's only when Google says it is verified", () => {
    const apple = configuredProvider(PROVIDERS.get('apple')!, { appleIssuer: 'i', appleJwksUrl: 'http://x' });
    const google = configuredProvider(PROVIDERS.get('google')!, { googleIssuer: 'https://accounts.google.com', googleJwksUrl: 'http://x' });
    assert.deepEqual(apple.emailFacts({ sub: 's', email: 'X@Y.z', email_verified: 'false' }), { email: 'x@y.z', verified: false });
    assert.deepEqual(apple.emailFacts({ sub: 's', email: 'x@y.z', email_verified: 'true' }), { email: 'x@y.z', verified: true });
    for (const v of [false, 'false', undefined, 1, 'yes']) {
      assert.deepEqual(google.emailFacts({ sub: 's', email: 'x@y.z', email_verified: v }), { email: null, verified: false }, String(v));
    }
    assert.deepEqual(google.emailFacts({ sub: 's', email: 'x@y.z', email_verified: true }), { email: 'x@y.z', verified: true });
    assert.deepEqual(google.issuers, ['https://accounts.google.com', 'accounts.google.com']);
  });
});
