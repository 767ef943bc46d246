// AuthStore contract: signing keys, refresh-token families (rotation, reuse), downstream
// authorization transactions and codes, Sign in with Apple web attempts, and the sweep of what can
// no longer be used — with the one-winner rules under concurrency.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decideRotation } from '../../server/auth/signing-key-rotation.ts';
import type {
  AuthorizationCode,
  AuthorizeTransaction,
  NewRefreshToken,
  SigningKeyRecord,
  SweepKind,
  TokenFamily,
  WebLoginAttempt,
} from '../../server/auth/store.ts';
import { clientApp, DAY, HOUR, MINUTE, type StoreFactory, type StoreFixture, seedRealm, seedUser, T0, unique } from './contract.ts';

const N = 12;

export function describeAuthStore(backend: string, factory: StoreFactory): void {
  describe(`${backend}: AuthStore`, () => {
    let s: StoreFixture;
    let realm: string;
    let userId: string;
    before(async () => {
      s = await factory();
      realm = await seedRealm(s);
      userId = (await seedUser(s, realm)).id;
    });
    after(() => s.close());

    const family = (at: number, over: Partial<TokenFamily> = {}): TokenFamily => ({
      id: unique('sid'),
      realmId: realm,
      userId,
      clientId: 'app',
      ip: '203.0.113.7',
      ipBinding: 'off',
      accessTtlS: 60,
      refreshTtlS: 600,
      createdAt: at,
      revokedAt: null,
      provider: null,
      ...over,
    });
    const refresh = (at: number, ttlMs = 10 * MINUTE): NewRefreshToken => ({ hash: unique('rt'), expiresAt: at + ttlMs });
    /** A family with its first refresh token, stored. */
    const newFamily = async (at: number, over: Partial<TokenFamily> = {}) => {
      const f = family(at, over);
      const rt = refresh(at);
      await s.auth.createFamily(f, rt);
      return { f, rt };
    };
    const rotate = (hash: string, now: number, next = unique('rt')) =>
      s.auth.rotateRefreshToken(
        hash,
        now,
        () => null,
        () => ({ hash: next, expiresAt: now + 10 * MINUTE }),
      );
    const never = (): never => {
      throw new Error('not reached');
    };

    const transaction = (state: string, at: number, over: Partial<AuthorizeTransaction> = {}): AuthorizeTransaction => ({
      realmId: realm,
      state,
      clientId: 'partner',
      redirectUri: 'https://partner.example/cb?tenant=7',
      codeChallenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      scope: 'openid',
      createdAt: at,
      expiresAt: at + 5 * MINUTE,
      consumedAt: null,
      ...over,
    });
    const codeFor = (at: number, hash = unique('code')) => ({
      hash,
      realmId: realm,
      userId,
      ip: '203.0.113.7',
      provider: 'apple',
      createdAt: at,
      expiresAt: at + 2 * MINUTE,
    });
    /** A pending transaction and the code issued from it. */
    const issuedCode = async (at: number) => {
      const state = unique('state');
      assert.equal(await s.auth.createAuthorizeTransaction(transaction(state, at)), true);
      const code = codeFor(at);
      assert.equal((await s.auth.issueCode(realm, state, at, () => null, code)).kind, 'ok');
      return code.hash;
    };
    const familyFromCode = (at: number) => (c: AuthorizationCode) => ({ family: family(at, { clientId: c.clientId }), refresh: refresh(at) });

    const attempt = (at: number, over: Partial<WebLoginAttempt> = {}): WebLoginAttempt => ({
      stateHash: unique('state-hash'),
      realmId: realm,
      clientId: 'app',
      downstreamState: null,
      nonce: unique('nonce'),
      createdAt: at,
      expiresAt: at + 10 * MINUTE,
      consumedAt: null,
      ...over,
    });

    describe('signing keys', () => {
      const key = (realmId: string, kid = unique('kid'), at = T0): SigningKeyRecord => ({
        kid,
        realmId,
        alg: 'EdDSA',
        privatePem: `pem-${kid}`,
        publicJwk: { kty: 'OKP', crv: 'Ed25519', x: kid, kid },
        createdAt: at,
        retiredAt: null,
      });

      it("creates a realm's key once and then answers it, without calling create again", async () => {
        const r = await seedRealm(s);
        let calls = 0;
        const first = await s.auth.currentSigningKey(r, () => (calls++, key(r)));
        const again = await s.auth.currentSigningKey(r, () => (calls++, key(r)));
        assert.equal(calls, 1);
        assert.deepEqual(again, first);
        assert.deepEqual(await s.auth.signingKey(first.kid), first);
        assert.deepEqual(await s.auth.signingKeys(r), [first]);
        assert.equal(await s.auth.signingKey('no-such-kid'), null);
      });

      it('makes one key for a realm however many callers ask for it at once', async () => {
        const r = await seedRealm(s);
        const got = await Promise.all(Array.from({ length: N }, () => s.auth.currentSigningKey(r, () => key(r))));
        assert.equal(new Set(got.map((k) => k.kid)).size, 1);
        assert.equal((await s.auth.signingKeys(r)).length, 1);
      });

      it("keeps each realm's keys apart", async () => {
        const a = await seedRealm(s);
        const b = await seedRealm(s);
        const ka = await s.auth.currentSigningKey(a, () => key(a));
        const kb = await s.auth.currentSigningKey(b, () => key(b));
        assert.notEqual(ka.kid, kb.kid);
        assert.deepEqual(
          (await s.auth.signingKeys(a)).map((k) => k.kid),
          [ka.kid],
        );
      });
    });

    describe('signing-key rotation', () => {
      const key = (realmId: string, at = T0): SigningKeyRecord => ({
        kid: unique('kid'),
        realmId,
        alg: 'EdDSA',
        privatePem: 'pem',
        publicJwk: { kty: 'OKP', crv: 'Ed25519', x: 'x' },
        createdAt: at,
        retiredAt: null,
      });
      const operator = (now: number) => (current: SigningKeyRecord | null, longest: number | null) =>
        decideRotation(current, now, longest, { kind: 'operator' });

      it("retires the replaced key after the realm's longest access-token lifetime, and the new one is current", async () => {
        const r = await seedRealm(s);
        await s.admin.createClient(clientApp(r, 'short', { accessTokenTtlSeconds: 60 }));
        await s.admin.createClient(clientApp(r, 'long', { accessTokenTtlSeconds: 600 }));
        const old = await s.auth.currentSigningKey(r, () => key(r));
        const at = T0 + HOUR;
        let seenLongest: number | null = -1;
        const rotation = await s.auth.rotateSigningKey(
          r,
          at,
          (current, longest) => ((seenLongest = longest), decideRotation(current, at, longest, { kind: 'operator' })),
          () => key(r, at),
        );
        assert.equal(seenLongest, 600);
        assert.equal(rotation.rotated, true);
        assert.deepEqual(rotation.replaced, { ...old, retiredAt: at + 600_000 });
        assert.deepEqual(await s.auth.currentSigningKey(r, () => assert.fail('a current key exists')), rotation.current);
        assert.deepEqual(await s.auth.signingKey(old.kid), { ...old, retiredAt: at + 600_000 });
        assert.deepEqual(
          (await s.auth.signingKeys(r)).map((k) => k.kid),
          [old.kid, rotation.current.kid],
        );
      });

      it("counts a session's access-token lifetime until the instant the session expires, and none without client or session (sessionIsLive)", async () => {
        const r = await seedRealm(s);
        const u = (await seedUser(s, r)).id;
        const longestAt = async (at: number) => {
          let seen: number | null = -1;
          await s.auth.rotateSigningKey(
            r,
            at,
            (current, longest) => ((seen = longest), decideRotation(current, at, longest, { kind: 'operator' })),
            () => key(r, at),
          );
          return seen;
        };
        assert.equal(await longestAt(T0), null);
        await s.admin.createClient(clientApp(r, 'app', { accessTokenTtlSeconds: 60 }));
        // 600 s access tokens, given before the client's lifetime was lowered; the family lapses with its refresh token.
        await s.auth.createFamily(family(T0, { realmId: r, userId: u, accessTtlS: 600 }), refresh(T0, 10 * MINUTE));
        assert.equal(await longestAt(T0 + 10 * MINUTE - 1), 600);
        assert.equal(await longestAt(T0 + 10 * MINUTE), 60);
      });

      it('disabling a client ends its sessions still live at that instant, not one that expires at it (sessionIsLive)', async () => {
        const r = await seedRealm(s);
        const u = (await seedUser(s, r)).id;
        await s.admin.createClient(clientApp(r, 'app'));
        const lapsing = family(T0, { realmId: r, userId: u });
        const lapsingToken = refresh(T0, 10 * MINUTE);
        await s.auth.createFamily(lapsing, lapsingToken);
        const live = family(T0 + 1, { realmId: r, userId: u });
        const liveToken = refresh(T0 + 1, 10 * MINUTE);
        await s.auth.createFamily(live, liveToken);
        await s.admin.updateClient(r, 'app', { enabled: false }, () => {}, T0 + 10 * MINUTE);
        assert.equal((await s.auth.familyOfRefreshToken(lapsingToken.hash))!.family.revokedAt, null);
        assert.equal((await s.auth.familyOfRefreshToken(liveToken.hash))!.family.revokedAt, T0 + 10 * MINUTE);
      });

      it('rotates once however many replicas rotate a due key at once', async () => {
        const r = await seedRealm(s);
        await s.auth.currentSigningKey(r, () => key(r));
        const peer = await s.peer();
        const at = T0 + DAY;
        const schedule = { kind: 'schedule', maxAgeMs: HOUR } as const;
        const results = await Promise.all(
          Array.from({ length: N }, (_, i) =>
            (i % 2 ? peer : s).auth.rotateSigningKey(
              r,
              at,
              (c, longest) => decideRotation(c, at, longest, schedule),
              () => key(r, at),
            ),
          ),
        );
        assert.equal(results.filter((x) => x.rotated).length, 1);
        assert.equal((await s.auth.signingKeys(r)).filter((k) => k.retiredAt === null).length, 1);
        assert.deepEqual(await s.auth.realmsWithKeysCreatedBy(at - HOUR).then((rs) => rs.includes(r)), false);
      });

      it('lists the realms whose current key was made at or before a time', async () => {
        const r = await seedRealm(s);
        await s.auth.currentSigningKey(r, () => key(r, T0 + 5 * MINUTE));
        assert.equal((await s.auth.realmsWithKeysCreatedBy(T0 + 5 * MINUTE)).includes(r), true);
        assert.equal((await s.auth.realmsWithKeysCreatedBy(T0 + 5 * MINUTE - 1)).includes(r), false);
      });

      it('moves the signing-keys version when another replica rotates', async () => {
        const r = await seedRealm(s);
        await s.auth.currentSigningKey(r, () => key(r));
        const peer = await s.peer();
        await new Promise((done) => setImmediate(done));
        const before = await s.auth.signingKeysVersion();
        await peer.auth.rotateSigningKey(r, T0 + 1, operator(T0 + 1), () => key(r, T0 + 1));
        await new Promise((done) => setImmediate(done)); // the version is read once per turn
        assert.notEqual(await s.auth.signingKeysVersion(), before);
      });
    });

    describe('refresh-token families', () => {
      it('stores a family with its first token, and finds the family from the token', async () => {
        const before = await s.auth.totals();
        const { f, rt } = await newFamily(T0);
        assert.deepEqual(await s.auth.totals(), { ...before, families: before.families + 1, refreshTokens: before.refreshTokens + 1 });
        assert.deepEqual(await s.auth.getFamily(f.id), f);
        assert.deepEqual(await s.auth.familyOfRefreshToken(rt.hash), { family: f, expiresAt: rt.expiresAt, rotatedAt: null });
        assert.equal(await s.auth.familyOfRefreshToken('no-such-token'), null);
        assert.equal(await s.auth.getFamily('no-such-family'), null);
      });

      it('records the provider whose sign-in opened a family, and a code hands its provider to the family it makes', async () => {
        const { f } = await newFamily(T0, { provider: 'google' });
        assert.equal((await s.auth.getFamily(f.id))!.provider, 'google');
        let seen: string | null | undefined;
        const hash = await issuedCode(T0);
        const made = await s.auth.exchangeCode(
          hash,
          T0 + 1,
          () => null,
          (c) => {
            seen = c.provider;
            return { family: family(T0, { provider: c.provider }), refresh: refresh(T0) };
          },
        );
        assert.equal(made.kind, 'ok');
        assert.equal(seen, 'apple');
      });

      it('rotates a token into the next one: the old one is marked rotated, the new one belongs to the family', async () => {
        const { f, rt } = await newFamily(T0);
        const r = await rotate(rt.hash, T0 + MINUTE, 'next-' + rt.hash);
        assert.deepEqual(r, { kind: 'ok', family: f });
        assert.equal((await s.auth.familyOfRefreshToken(rt.hash))!.rotatedAt, T0 + MINUTE);
        const next = await s.auth.familyOfRefreshToken('next-' + rt.hash);
        assert.deepEqual(next, { family: f, expiresAt: T0 + 11 * MINUTE, rotatedAt: null });
      });

      it('a rotated token presented again is reuse: refused, and the whole family is revoked', async () => {
        const { f, rt } = await newFamily(T0);
        const second = unique('rt');
        assert.equal((await rotate(rt.hash, T0 + MINUTE, second)).kind, 'ok');
        const reused = await s.auth.rotateRefreshToken(rt.hash, T0 + 2 * MINUTE, () => null, never);
        assert.equal(reused.kind, 'reused');
        assert.equal(reused.kind === 'reused' && reused.family.id, f.id);
        assert.equal((await s.auth.getFamily(f.id))!.revokedAt, T0 + 2 * MINUTE);
        // The token issued by the legitimate rotation died with its family.
        assert.deepEqual(await s.auth.rotateRefreshToken(second, T0 + 3 * MINUTE, () => null, never), { kind: 'revoked' });
      });

      it('a rotated token can never rotate again, even after the family was revoked for its reuse', async () => {
        const { rt } = await newFamily(T0);
        assert.equal((await rotate(rt.hash, T0 + 1)).kind, 'ok');
        assert.equal((await rotate(rt.hash, T0 + 2)).kind, 'reused');
        assert.equal((await rotate(rt.hash, T0 + 3)).kind, 'revoked');
      });

      it('refuses an unknown, an expired and a revoked-family token without issuing anything', async () => {
        assert.deepEqual(await s.auth.rotateRefreshToken('no-such-token', T0, () => null, never), { kind: 'unknown' });
        const { rt } = await newFamily(T0);
        assert.deepEqual(await s.auth.rotateRefreshToken(rt.hash, rt.expiresAt, () => null, never), { kind: 'expired' });
        assert.equal((await s.auth.familyOfRefreshToken(rt.hash))!.rotatedAt, null, 'an expired token is not consumed');
        const other = await newFamily(T0);
        await s.auth.revokeFamily(other.f.id, T0 + 1, 'logout');
        assert.deepEqual(await s.auth.rotateRefreshToken(other.rt.hash, T0 + 2, () => null, never), { kind: 'revoked' });
      });

      it('a refusal of the check changes nothing: the token stays usable', async () => {
        const { f, rt } = await newFamily(T0);
        let seen: TokenFamily | null = null;
        const refused = await s.auth.rotateRefreshToken(rt.hash, T0 + 1, (fam) => ((seen = fam), 'ip_binding'), never);
        assert.deepEqual(refused, { kind: 'refused', reason: 'ip_binding' });
        assert.deepEqual(seen, f);
        assert.equal((await s.auth.familyOfRefreshToken(rt.hash))!.rotatedAt, null);
        assert.equal((await rotate(rt.hash, T0 + 2)).kind, 'ok');
      });

      it('revoking a family keeps its first revocation time', async () => {
        const { f } = await newFamily(T0);
        await s.auth.revokeFamily(f.id, T0 + 10, 'logout');
        await s.auth.revokeFamily(f.id, T0 + 20, 'again');
        assert.equal((await s.auth.getFamily(f.id))!.revokedAt, T0 + 10);
      });

      it("revokes every live family of one user and only theirs, keeping an earlier revocation's time", async () => {
        const owner = (await seedUser(s, realm)).id;
        const other = (await seedUser(s, realm)).id;
        const a = await newFamily(T0, { userId: owner });
        const b = await newFamily(T0 + 1, { userId: owner, clientId: 'web' });
        const revokedBefore = await newFamily(T0, { userId: owner });
        await s.auth.revokeFamily(revokedBefore.f.id, T0 + 5, 'logout');
        const theirs = await newFamily(T0, { userId: other });
        assert.equal(await s.auth.revokeFamiliesOfUser(realm, owner, T0 + 10, 'signed_out_everywhere'), 2);
        assert.equal((await s.auth.getFamily(a.f.id))!.revokedAt, T0 + 10);
        assert.equal((await s.auth.getFamily(b.f.id))!.revokedAt, T0 + 10);
        assert.equal((await s.auth.getFamily(revokedBefore.f.id))!.revokedAt, T0 + 5);
        assert.equal((await s.auth.getFamily(theirs.f.id))!.revokedAt, null);
        assert.equal((await rotate(a.rt.hash, T0 + 11)).kind, 'revoked', 'its refresh tokens no longer rotate');
        assert.equal(await s.auth.revokeFamiliesOfUser(realm, owner, T0 + 20, 'again'), 0, 'nothing left to revoke');
        assert.equal(await s.auth.revokeFamiliesOfUser(await seedRealm(s), owner, T0 + 20, 'other realm'), 0);
      });

      it(`rotates a token once when ${N} rotations of it race: one new token, and the family revoked for the reuse`, async () => {
        const { f, rt } = await newFamily(T0);
        const issued: string[] = [];
        const results = await Promise.all(
          Array.from({ length: N }, (_, i) =>
            s.auth.rotateRefreshToken(
              rt.hash,
              T0 + MINUTE,
              () => null,
              () => {
                const hash = `${rt.hash}-race-${i}`;
                issued.push(hash);
                return { hash, expiresAt: T0 + 11 * MINUTE };
              },
            ),
          ),
        );
        assert.equal(results.filter((r) => r.kind === 'ok').length, 1, JSON.stringify(results.map((r) => r.kind)));
        for (const r of results) assert.ok(['ok', 'reused', 'revoked'].includes(r.kind), r.kind);
        const stored = [];
        for (let i = 0; i < N; i++) if (await s.auth.familyOfRefreshToken(`${rt.hash}-race-${i}`)) stored.push(i);
        assert.equal(stored.length, 1, 'exactly one next token was stored');
        assert.notEqual((await s.auth.getFamily(f.id))!.revokedAt, null, 'the losers presented a rotated token');
      });

      it('rotations of different tokens at once all succeed', async () => {
        const families = await Promise.all(Array.from({ length: N }, () => newFamily(T0)));
        const results = await Promise.all(families.map(({ rt }) => rotate(rt.hash, T0 + 1)));
        assert.deepEqual(
          results.map((r) => r.kind),
          families.map(() => 'ok'),
        );
      });
    });

    describe('authorize transactions and codes', () => {
      it('stores a pending transaction and refuses a second one with the same state while it is pending', async () => {
        const state = unique('state');
        const tx = transaction(state, T0);
        assert.equal(await s.auth.createAuthorizeTransaction(tx), true);
        assert.equal(await s.auth.createAuthorizeTransaction(transaction(state, T0 + MINUTE, { clientId: 'partner2' })), false);
        assert.deepEqual(await s.auth.getAuthorizeTransaction(realm, state), tx);
        assert.equal(await s.auth.getAuthorizeTransaction(realm, 'no-such-state'), null);
      });

      it('lets the state be used again once the pending transaction expired', async () => {
        const state = unique('state');
        await s.auth.createAuthorizeTransaction(transaction(state, T0));
        const again = transaction(state, T0 + 5 * MINUTE, { clientId: 'partner2' });
        assert.equal(await s.auth.createAuthorizeTransaction(again), true);
        assert.deepEqual(await s.auth.getAuthorizeTransaction(realm, state), again);
      });

      it('lets the state be used again once the transaction was consumed by a code', async () => {
        const state = unique('state');
        await s.auth.createAuthorizeTransaction(transaction(state, T0));
        assert.equal((await s.auth.issueCode(realm, state, T0 + 1, () => null, codeFor(T0 + 1))).kind, 'ok');
        assert.equal((await s.auth.getAuthorizeTransaction(realm, state))!.consumedAt, T0 + 1);
        const again = transaction(state, T0 + 2);
        assert.equal(await s.auth.createAuthorizeTransaction(again), true);
        assert.deepEqual(await s.auth.getAuthorizeTransaction(realm, state), again, 'pending again');
      });

      it('keeps the same state in two realms apart', async () => {
        const other = await seedRealm(s);
        const state = unique('state');
        assert.equal(await s.auth.createAuthorizeTransaction(transaction(state, T0)), true);
        assert.equal(await s.auth.createAuthorizeTransaction({ ...transaction(state, T0), realmId: other }), true);
      });

      it('issues one code per transaction, bound to its client, redirect URI, challenge and scope', async () => {
        const state = unique('state');
        const tx = transaction(state, T0);
        await s.auth.createAuthorizeTransaction(tx);
        const code = codeFor(T0 + 1);
        const issued = await s.auth.issueCode(realm, state, T0 + 1, () => null, code);
        assert.deepEqual(issued, { kind: 'ok', tx });
        assert.deepEqual(await s.auth.issueCode(realm, state, T0 + 2, () => null, codeFor(T0 + 2)), { kind: 'refused', reason: 'consumed' });
        let seen: AuthorizationCode | null = null;
        const r = await s.auth.exchangeCode(code.hash, T0 + 3, (c) => ((seen = c), 'stop'), never);
        assert.deepEqual(r, { kind: 'refused', reason: 'stop' });
        assert.deepEqual(seen, {
          ...code,
          clientId: tx.clientId,
          redirectUri: tx.redirectUri,
          codeChallenge: tx.codeChallenge,
          scope: tx.scope,
          usedAt: null,
          familyId: null,
        });
      });

      it('refuses a code for an unknown state, and changes nothing when the check refuses', async () => {
        assert.deepEqual(await s.auth.issueCode(realm, 'no-such-state', T0, () => null, codeFor(T0)), { kind: 'refused', reason: 'unknown' });
        const state = unique('state');
        await s.auth.createAuthorizeTransaction(transaction(state, T0));
        const code = codeFor(T0);
        assert.deepEqual(await s.auth.issueCode(realm, state, T0, () => 'expired', code), { kind: 'refused', reason: 'expired' });
        assert.equal((await s.auth.getAuthorizeTransaction(realm, state))!.consumedAt, null, 'still pending');
        assert.deepEqual(await s.auth.exchangeCode(code.hash, T0, () => null, never), { kind: 'unknown' }, 'no code stored');
      });

      it(`issues one code when ${N} callers race for one transaction`, async () => {
        const state = unique('state');
        await s.auth.createAuthorizeTransaction(transaction(state, T0));
        const codes = Array.from({ length: N }, () => codeFor(T0 + 1));
        const results = await Promise.all(codes.map((c) => s.auth.issueCode(realm, state, T0 + 1, () => null, c)));
        assert.equal(results.filter((r) => r.kind === 'ok').length, 1);
        for (const r of results) if (r.kind !== 'ok') assert.equal(r.reason, 'consumed');
        let stored = 0;
        for (const c of codes) if ((await s.auth.exchangeCode(c.hash, T0 + 2, () => 'peek', never)).kind !== 'unknown') stored++;
        assert.equal(stored, 1);
      });

      it('exchanges a code once: the family issued from it is stored and the code marked used', async () => {
        const hash = await issuedCode(T0);
        let made: TokenFamily | null = null;
        let rt: NewRefreshToken | null = null;
        const r = await s.auth.exchangeCode(
          hash,
          T0 + 1,
          () => null,
          (c) => {
            made = family(T0 + 1, { clientId: c.clientId });
            rt = refresh(T0 + 1);
            return { family: made, refresh: rt };
          },
        );
        assert.equal(r.kind, 'ok');
        assert.equal(r.kind === 'ok' && r.code.usedAt, null, 'the code as it was before this use');
        assert.deepEqual(await s.auth.getFamily(made!.id), made);
        assert.equal((await s.auth.familyOfRefreshToken(rt!.hash))!.family.id, made!.id);
      });

      it('refuses a replayed code and revokes the family issued from it', async () => {
        const hash = await issuedCode(T0);
        let issued: TokenFamily | null = null;
        await s.auth.exchangeCode(
          hash,
          T0 + 1,
          () => null,
          (c) => {
            const out = familyFromCode(T0 + 1)(c);
            issued = out.family;
            return out;
          },
        );
        assert.equal((await s.auth.getFamily(issued!.id))!.revokedAt, null);
        assert.deepEqual(await s.auth.exchangeCode(hash, T0 + 2, () => null, never), { kind: 'replayed' });
        assert.equal((await s.auth.getFamily(issued!.id))!.revokedAt, T0 + 2);
      });

      it('a code the check refused can still be exchanged (nothing was used)', async () => {
        const hash = await issuedCode(T0);
        assert.deepEqual(await s.auth.exchangeCode(hash, T0 + 1, () => 'pkce', never), { kind: 'refused', reason: 'pkce' });
        assert.equal((await s.auth.exchangeCode(hash, T0 + 2, () => null, familyFromCode(T0 + 2))).kind, 'ok');
      });

      it(`exchanges a code once when ${N} exchanges of it race: the others are replays and revoke that family`, async () => {
        const hash = await issuedCode(T0);
        const made: TokenFamily[] = [];
        const results = await Promise.all(
          Array.from({ length: N }, () =>
            s.auth.exchangeCode(
              hash,
              T0 + 1,
              () => null,
              (c) => {
                const out = familyFromCode(T0 + 1)(c);
                made.push(out.family);
                return out;
              },
            ),
          ),
        );
        assert.equal(results.filter((r) => r.kind === 'ok').length, 1, JSON.stringify(results.map((r) => r.kind)));
        assert.equal(results.filter((r) => r.kind === 'replayed').length, N - 1);
        const stored = [];
        for (const f of made) if (await s.auth.getFamily(f.id)) stored.push(f.id);
        assert.equal(stored.length, 1, 'one family was issued from the code');
        assert.notEqual((await s.auth.getFamily(stored[0]!))!.revokedAt, null);
      });
    });

    describe('Sign in with Apple web attempts', () => {
      it('an attempt is used once: the second use, another realm, an unknown and an expired state are refused', async () => {
        const a = attempt(T0, { downstreamState: 'down-1' });
        await s.auth.createWebAttempt(a);
        assert.deepEqual(await s.auth.consumeWebAttempt(await seedRealm(s), a.stateHash, T0 + 1), { kind: 'refused', reason: 'unknown' });
        assert.deepEqual(await s.auth.consumeWebAttempt(realm, a.stateHash, T0 + 1), { kind: 'ok', attempt: { ...a, consumedAt: T0 + 1 } });
        assert.deepEqual(await s.auth.consumeWebAttempt(realm, a.stateHash, T0 + 2), { kind: 'refused', reason: 'consumed' });
        assert.deepEqual(await s.auth.consumeWebAttempt(realm, 'no-such-state', T0), { kind: 'refused', reason: 'unknown' });
        const old = attempt(T0);
        await s.auth.createWebAttempt(old);
        assert.deepEqual(await s.auth.consumeWebAttempt(realm, old.stateHash, old.expiresAt), { kind: 'refused', reason: 'expired' });
      });

      it(`an attempt is used once when ${N} callbacks race for it`, async () => {
        const a = attempt(T0);
        await s.auth.createWebAttempt(a);
        const results = await Promise.all(Array.from({ length: N }, () => s.auth.consumeWebAttempt(realm, a.stateHash, T0 + 1)));
        assert.equal(results.filter((r) => r.kind === 'ok').length, 1);
        for (const r of results) if (r.kind !== 'ok') assert.equal(r.reason, 'consumed');
      });
    });

    describe('the sweep', () => {
      // Each case works at its own later time and first clears what earlier cases left behind.
      const drain = async (kind: SweepKind, now: number) => {
        while ((await s.auth.sweep(kind, now, 500)) > 0);
      };
      const sweepAll = async (kind: SweepKind, now: number, limit: number) => {
        const batches: number[] = [];
        for (let n = -1; n !== 0; ) batches.push((n = await s.auth.sweep(kind, now, limit)));
        return batches;
      };

      it('deletes expired transactions in bounded batches until none is left, and keeps a pending one', async () => {
        const at = T0 + 1000 * MINUTE;
        await drain('transactions', at + 10 * MINUTE);
        for (let i = 0; i < 30; i++) await s.auth.createAuthorizeTransaction(transaction(`old-${at}-${i}`, at));
        await s.auth.createAuthorizeTransaction(transaction(`live-${at}`, at + 4 * MINUTE));
        const batches = await sweepAll('transactions', at + 5 * MINUTE, 10);
        assert.equal(
          batches.reduce((x, y) => x + y, 0),
          30,
        );
        assert.ok(batches.length >= 4, `30 rows at most 10 a statement take several calls: ${batches}`);
        assert.equal(await s.auth.getAuthorizeTransaction(realm, `old-${at}-0`), null);
        assert.notEqual(await s.auth.getAuthorizeTransaction(realm, `live-${at}`), null);
      });

      it('deletes a consumed transaction before it expires', async () => {
        const at = T0 + 2000 * MINUTE;
        await drain('transactions', at);
        const state = unique('state');
        await s.auth.createAuthorizeTransaction(transaction(state, at));
        await s.auth.issueCode(realm, state, at, () => null, codeFor(at));
        assert.equal(await s.auth.sweep('transactions', at, 500), 1);
        assert.equal(await s.auth.getAuthorizeTransaction(realm, state), null);
      });

      it('keeps a used code until it expires (a replay must still revoke its family), then deletes it', async () => {
        const at = T0 + 3000 * MINUTE;
        for (const k of ['transactions', 'codes', 'families'] as const) await drain(k, at);
        const hash = await issuedCode(at);
        let f: TokenFamily | null = null;
        await s.auth.exchangeCode(
          hash,
          at,
          () => null,
          (c) => {
            const out = familyFromCode(at)(c);
            f = out.family;
            return out;
          },
        );
        assert.equal(await s.auth.sweep('codes', at + MINUTE, 500), 0, 'used but alive: kept');
        assert.deepEqual(await s.auth.exchangeCode(hash, at + MINUTE, () => null, never), { kind: 'replayed' });
        assert.notEqual((await s.auth.getFamily(f!.id))!.revokedAt, null);
        assert.equal(await s.auth.sweep('codes', at + 2 * MINUTE, 500), 1);
        assert.deepEqual(await s.auth.exchangeCode(hash, at + 2 * MINUTE, () => null, never), { kind: 'unknown' });
      });

      it('keeps an unused code until it expires', async () => {
        const at = T0 + 3500 * MINUTE;
        await drain('codes', at);
        const hash = await issuedCode(at);
        assert.equal(await s.auth.sweep('codes', at + 2 * MINUTE - 1, 500), 0);
        assert.equal((await s.auth.exchangeCode(hash, at + MINUTE, () => 'peek', never)).kind, 'refused', 'still there');
        assert.equal(await s.auth.sweep('codes', at + 2 * MINUTE, 500), 1);
      });

      it('keeps every rotated token while its family lives, then deletes the whole family', async () => {
        const at = T0 + 4000 * MINUTE;
        await drain('families', at);
        const { f, rt } = await newFamily(at);
        let hash = rt.hash;
        for (let i = 1; i <= 25; i++) {
          const next = unique('rt');
          assert.equal((await rotate(hash, at + i * 1000, next)).kind, 'ok');
          hash = next;
        }
        const last = at + 25 * 1000;
        // The family lives until its last token lapses, ten minutes after the last rotation.
        assert.equal(await s.auth.sweep('families', last + 10 * MINUTE - 1, 10), 0, 'alive: the first token lapsed long ago, the family has not');
        assert.notEqual(await s.auth.familyOfRefreshToken(rt.hash), null);
        assert.equal((await rotate(rt.hash, last + MINUTE)).kind, 'reused', 'a rotated token is still recognised');
        const batches = await sweepAll('families', last + 10 * MINUTE, 10);
        assert.ok(batches.length >= 3, `26 tokens at most 10 a statement take several calls: ${batches}`);
        assert.equal(await s.auth.familyOfRefreshToken(rt.hash), null);
        assert.equal(await s.auth.familyOfRefreshToken(hash), null);
        assert.equal(await s.auth.getFamily(f.id), null);
      });

      it('keeps a family until its last access token has expired when that outlives the refresh token', async () => {
        const at = T0 + 5000 * MINUTE;
        await drain('families', at);
        const f = family(at, { refreshTtlS: 60, accessTtlS: 3600 });
        await s.auth.createFamily(f, { hash: unique('rt'), expiresAt: at + MINUTE });
        assert.equal(await s.auth.sweep('families', at + 59 * MINUTE, 500), 0);
        assert.notEqual(await s.auth.getFamily(f.id), null);
        assert.ok((await s.auth.sweep('families', at + 60 * MINUTE, 500)) > 0);
        assert.equal(await s.auth.getFamily(f.id), null);
      });

      it('deletes a web attempt once used or expired, and keeps a pending one', async () => {
        const at = T0 + 6000 * MINUTE;
        await drain('webAttempts', at);
        const used = attempt(at);
        const pending = attempt(at);
        await s.auth.createWebAttempt(used);
        await s.auth.createWebAttempt(pending);
        assert.equal((await s.auth.consumeWebAttempt(realm, used.stateHash, at)).kind, 'ok');
        assert.equal(await s.auth.sweep('webAttempts', at + MINUTE, 500), 1);
        assert.deepEqual(await s.auth.consumeWebAttempt(realm, used.stateHash, at + MINUTE), { kind: 'refused', reason: 'unknown' });
        assert.equal(await s.auth.sweep('webAttempts', at + 10 * MINUTE - 1, 500), 0);
        assert.equal(await s.auth.sweep('webAttempts', at + 10 * MINUTE, 500), 1);
        assert.deepEqual(await s.auth.consumeWebAttempt(realm, pending.stateHash, at + 10 * MINUTE), { kind: 'refused', reason: 'unknown' });
      });
    });
  });
}
