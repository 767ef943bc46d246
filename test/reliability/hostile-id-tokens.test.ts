// Hostile identity tokens on POST /api/oauth/{realm}/apple/native-login: oversized tokens
// and bodies, deep nesting, duplicate claims (signed with the stand-in's key, so only the duplicate
// is wrong), non-string `sub` and `email`, and unicode tricks in the email. Every answer is the
// contract's error body (401 bad token, 400 bad body, 413 over 64 KiB) or, for a valid token, a
// sane account outcome checked in the database: case variants reach the same account; look-alike
// addresses never link to it (they count as "no email": a placeholder account).

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type AuthFixture, authFixture, REALM } from '../auth/fixture.ts';
import { type HttpResult, http } from '../helpers/http.ts';
import { openStoresAt } from '../helpers/stores.ts';

describe('hostile identity tokens at native login', () => {
  let f: AuthFixture;
  let stores: Awaited<ReturnType<typeof openStoresAt>>;
  let seq = 0;
  const sub = (tag: string) => `hostile-${process.pid}-${tag}-${++seq}`;

  before(async () => {
    f = await authFixture({ inProcess: { config: { trustProxy: 1 } } });
    stores = await openStoresAt(f.srv.dbPath); // the server's data as another replica sees it
  });
  after(async () => {
    await stores?.close();
    await f?.close();
  });

  const loginWith = (identityToken: unknown, extra: Record<string, unknown> = {}) => f.login('apple', { identityToken, clientId: 'app', ...extra });

  /** A JWS over exact header and payload bytes, signed with the Apple stand-in's published key. */
  async function rawToken(header: string, payload: string): Promise<string> {
    const key = f.apple.keys[0]!;
    const input = `${Buffer.from(header).toString('base64url')}.${Buffer.from(payload).toString('base64url')}`;
    const sig = await crypto.subtle.sign({ name: 'RSASSA-PKCS1-v1_5' }, key.privateKey, Buffer.from(input));
    return `${input}.${Buffer.from(sig).toString('base64url')}`;
  }
  const header = () => JSON.stringify({ alg: 'RS256', kid: f.apple.keys[0]!.kid });
  /** Standard valid claims as JSON text without the closing brace, so a test can append raw members. */
  const claimsPrefix = (s: string) => {
    const now = Math.floor(Date.now() / 1000);
    return JSON.stringify({ iss: f.apple.issuer, aud: f.apple.audience, sub: s, iat: now, exp: now + 600 }).slice(0, -1);
  };

  function assertError(r: HttpResult, status: number, code: string, what: string) {
    assert.equal(r.status, status, `${what}: ${r.status} ${r.text.slice(0, 300)}`);
    assert.equal(r.body.error, code, what);
    assert.equal(r.body.status, status, what);
    assert.equal(typeof r.body.message, 'string', what);
    assert.equal(typeof r.body.requestId, 'string', what);
  }

  const userRow = async (id: string) => {
    const u = await stores.users.getUser(REALM, id);
    return u ? { email: u.email, v: u.emailVerified ? 1 : 0 } : undefined;
  };

  describe('hostile identity tokens', () => {
    it('answers bad bodies with 400, over-limit bodies with 413 and oversized tokens with 401, creating nothing', async () => {
      const before = await f.counts();
      for (const [what, token] of [
        ['number', 42],
        ['object', { a: 1 }],
        ['array', ['x']],
        ['null', null],
        ['empty', ''],
        ['bool', true],
      ] as const) {
        const r = await loginWith(token);
        assertError(r, 400, 'bad_request', `identityToken ${what}`);
        assert.equal(r.body.field, 'identityToken', what);
      }
      const deep = `{"identityToken":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)},"clientId":"app"}`;
      const nested = await http(f.srv.http, 'POST', `/api/oauth/${REALM}/apple/native-login`, { raw: deep, headers: { 'content-type': 'application/json' } });
      assertError(nested, 400, 'bad_request', 'deeply nested identityToken');

      // Tokens of 60 KB (well-formed segments, not a JWT we could verify) and just under / over the
      // 64 KiB body limit.
      const seg = (n: number) => 'A'.repeat(n);
      assertError(await loginWith(`${seg(20_000)}.${seg(40_000)}.${seg(342)}`), 401, 'unauthorized', '60 KB token');
      const frame = (t: string) => JSON.stringify({ identityToken: t, clientId: 'app' });
      const fill = (len: number) => {
        const base = Buffer.byteLength(frame('a.b.c'));
        return `a.${seg(len - base + 1)}.c`;
      };
      const at = await http(f.srv.http, 'POST', `/api/oauth/${REALM}/apple/native-login`, {
        raw: frame(fill(65_536)),
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(Buffer.byteLength(frame(fill(65_536))), 65_536);
      assertError(at, 401, 'unauthorized', 'body of exactly 64 KiB');
      const over = await http(f.srv.http, 'POST', `/api/oauth/${REALM}/apple/native-login`, {
        raw: frame(fill(65_537)),
        headers: { 'content-type': 'application/json' },
      });
      assertError(over, 413, 'payload_too_large', 'body of 64 KiB + 1');
      assert.deepEqual(await f.counts(), before);
    });

    it('refuses duplicate claims and header members (401), even when signed, and creates nothing', async () => {
      const before = await f.counts();
      const victim = sub('victim');
      const cases: [string, string, string][] = [
        ['duplicate sub', header(), `${claimsPrefix(victim)},"sub":"${sub('attacker')}"}`],
        ['duplicate sub via escape', header(), `${claimsPrefix(victim)},"s\\u0075b":"${sub('attacker')}"}`],
        ['duplicate aud', header(), `${claimsPrefix(victim)},"aud":"com.evil.app"}`],
        ['duplicate email', header(), `${claimsPrefix(victim)},"email":"a@example.com","email":"b@example.com"}`],
        ['duplicate alg in header', `{"alg":"none","kid":"${f.apple.keys[0]!.kid}","alg":"RS256"}`, `${claimsPrefix(victim)}}`],
      ];
      for (const [what, h, p] of cases) assertError(await loginWith(await rawToken(h, p)), 401, 'unauthorized', what);
      // The same bytes without the duplicate verify: the signing helper is sound.
      const ok = await loginWith(await rawToken(header(), `${claimsPrefix(victim)}}`));
      assert.equal(ok.status, 200, ok.text);
      const after = await f.counts();
      assert.equal(after.users, before.users + 1);
      assert.equal(after.identities, before.identities + 1);
    });

    it('refuses a non-string, empty or oversized sub (401) and creates nothing', async () => {
      const before = await f.counts();
      for (const [what, v] of [
        ['number', 12345],
        ['object', { id: 'x' }],
        ['array', ['x']],
        ['empty', ''],
        ['null', null],
        ['256 chars', 'x'.repeat(256)],
        ['10 KB', 'x'.repeat(10_000)],
      ] as const) {
        const token = await rawToken(header(), `${claimsPrefix('placeholder').replace(/"sub":"placeholder"/, `"sub":${JSON.stringify(v)}`)}}`);
        assert.ok(token.length <= 16_384 || what === '10 KB', what);
        assertError(await loginWith(token), 401, 'unauthorized', `sub ${what}`);
      }
      assert.deepEqual(await f.counts(), before);
    });

    it('accepts a valid token carrying deeply nested extra claims (ignored)', async () => {
      const s = sub('nested');
      const deep = '['.repeat(3000) + ']'.repeat(3000);
      const r = await loginWith(await rawToken(header(), `${claimsPrefix(s)},"extra":${deep},"obj":{"a":{"b":{"c":{"d":1}}}}}`));
      assert.equal(r.status, 200, r.text);
      assert.equal((await userRow(r.body.userId))?.email, `${s}@apple.placeholder`);
    });

    it('treats a non-string email as no email: a placeholder account, unverified', async () => {
      for (const v of [42, { a: 'x@example.com' }, ['x@example.com'], true, 'x'.repeat(10_000)]) {
        const s = sub('email-type');
        const r = await loginWith(await f.apple.token({ sub: s, email: v as never, email_verified: true }));
        assert.equal(r.status, 200, `${JSON.stringify(v).slice(0, 40)}: ${r.text}`);
        assert.deepEqual(await userRow(r.body.userId), { email: `${s}@apple.placeholder`, v: 0 });
      }
    });

    it('resolves case variants of an email to the same account, never look-alikes', async () => {
      const alice = await loginWith(await f.apple.token({ sub: sub('alice'), email: 'alice@example.com', email_verified: true }));
      assert.equal(alice.status, 200, alice.text);
      const aliceId = alice.body.userId as string;
      assert.equal((await userRow(aliceId))?.email, 'alice@example.com');

      for (const variant of ['ALICE@EXAMPLE.COM', 'Alice@Example.Com', ' alice@example.com ']) {
        const before = await f.counts();
        const r = await loginWith(await f.apple.token({ sub: sub('case'), email: variant }));
        assert.equal(r.status, 200, r.text);
        assert.equal(r.body.userId, aliceId, `${JSON.stringify(variant)} is alice's mailbox`);
        const after = await f.counts();
        assert.equal(after.users, before.users, variant);
        assert.equal(after.identities, before.identities + 1, variant);
      }

      const lookAlikes: [string, string][] = [
        ['fullwidth at sign', 'alice\uFF20example.com'],
        ['fullwidth letters', '\uFF41lice@example.com'],
        ['zero-width joiner', 'ali\u200Dce@example.com'],
        ['zero-width space', 'alice\u200B@example.com'],
        ['RTL override', '\u202Ealice@example.com'],
        ['Cyrillic homoglyph domain', 'alice@ex\u0430mple.com'],
        ['Cyrillic homoglyph local part', '\u0430lice@example.com'],
        ['trailing dot', 'alice@example.com.'],
        ['NUL', 'alice@example.com\u0000'],
        ['NUL inside', 'alice\u0000@example.com'],
        ['two at signs', 'alice@evil.com@example.com'],
        ['combining mark', 'alice\u0301@example.com'],
        ['placeholder domain of another account', `${sub('other')}@apple.placeholder`],
      ];
      for (const [what, email] of lookAlikes) {
        const before = await f.counts();
        const s = sub('lookalike');
        const r = await loginWith(await f.apple.token({ sub: s, email, email_verified: true }));
        assert.equal(r.status, 200, `${what}: ${r.text}`);
        assert.notEqual(r.body.userId, aliceId, `${what} must not reach alice's account`);
        assert.deepEqual(await userRow(r.body.userId), { email: `${s}@apple.placeholder`, v: 0 }, what);
        const ident = (await stores.users.identitiesOf(r.body.userId)).find((i) => i.subject === s)!;
        assert.equal(ident.email, null, `${what}: the look-alike is not recorded as the identity's email`);
        const after = await f.counts();
        assert.equal(after.users, before.users + 1, what);
        assert.equal(after.identities, before.identities + 1, what);
      }
      // A punycode (IDN) domain is a plain, distinct address: stored, not alice's.
      const idn = await loginWith(await f.apple.token({ sub: sub('idn'), email: 'alice@xn--exmple-4nf.com' }));
      assert.equal(idn.status, 200, idn.text);
      assert.notEqual(idn.body.userId, aliceId);
      assert.equal((await userRow(idn.body.userId))?.email, 'alice@xn--exmple-4nf.com');
    });

    it('answers 409 (not 500) when a no-email sign-in needs a placeholder address an account already has', async () => {
      const s = sub('squat');
      const made = await f.admin.post(`/api/admin/realms/${REALM}/users`, {
        email: `${s}@apple.placeholder`,
        emailVerified: false,
        givenName: 'S',
        familyName: 'Q',
      });
      assert.equal(made.status, 200, made.text);
      const before = await f.counts();
      assertError(await loginWith(await f.apple.token({ sub: s })), 409, 'conflict', 'placeholder taken');
      assert.deepEqual(await f.counts(), before);
    });

    it('logged no internal error for any of it', () => {
      const bad = f.srv
        .logs()
        .split('\n')
        .filter((l) => /internal_error|"level":"error"/.test(l));
      assert.deepEqual(bad, []);
    });
  });
});
