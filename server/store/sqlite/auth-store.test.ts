// The sweep of expired login state through the AuthStore interface, on an in-memory database:
// what goes, what must stay, and that no statement deletes more than its batch.

import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { TokenFamily } from '../../auth/store.ts';
import { SecretBox } from '../../crypto/secrets.ts';
import { SqliteAdminStore } from './admin-store.ts';
import { SqliteAuthStore } from './auth-store.ts';
import { openDatabase } from './open.ts';
import { SqliteUserStore } from './user-store.ts';

describe('the SQLite auth store sweep', () => {
  const db = openDatabase(':memory:');
  const store = new SqliteAuthStore(db, SecretBox.ephemeral());
  const T0 = Date.UTC(2026, 0, 1);
  const MIN = 60_000;
  let seq = 0;

  before(async () => {
    await new SqliteAdminStore(db, SecretBox.ephemeral()).createRealm({ id: 'r', name: 'r', createdAt: T0 });
    await new SqliteUserStore(db, SecretBox.ephemeral()).createUser({
      id: 'u',
      realmId: 'r',
      email: 'u@example.com',
      emailVerified: true,
      givenName: null,
      familyName: null,
      createdAt: T0,
      updatedAt: T0,
      disabledAt: null,
    });
  });

  const transaction = (state: string, at: number) =>
    store.createAuthorizeTransaction({
      realmId: 'r',
      state,
      clientId: 'c',
      redirectUri: 'https://x.example/cb',
      codeChallenge: 'x'.repeat(43),
      scope: '',
      createdAt: at,
      expiresAt: at + 5 * MIN,
      consumedAt: null,
    });
  const family = (at: number, refreshTtlS = 600, accessTtlS = 60): TokenFamily => ({
    id: `sid_${++seq}`,
    realmId: 'r',
    userId: 'u',
    clientId: 'c',
    ip: '127.0.0.1',
    ipBinding: 'off',
    accessTtlS,
    refreshTtlS,
    createdAt: at,
    revokedAt: null,
    provider: null,
  });
  /** Clears what earlier cases left, as of `now` (each case works at its own later time). */
  const drain = async (kind: 'transactions' | 'codes' | 'webAttempts' | 'families', now: number) => {
    while ((await store.sweep(kind, now, 500)) > 0);
  };
  const rotate = (hash: string, now: number, next: string) =>
    store.rotateRefreshToken(
      hash,
      now,
      () => null,
      (f) => ({ hash: next, expiresAt: now + f.refreshTtlS * 1000 }),
    );

  it('deletes expired transactions in batches of at most the limit, and nothing unexpired', async () => {
    for (let i = 0; i < 1200; i++) await transaction(`old-${i}`, T0);
    await transaction('live', T0 + 10 * MIN);
    const now = T0 + 6 * MIN;
    const batches = [];
    for (let n = -1; n !== 0; ) batches.push((n = await store.sweep('transactions', now, 500)));
    assert.deepEqual(batches, [500, 500, 200, 0]);
    assert.equal(await store.getAuthorizeTransaction('r', 'old-0'), null);
    assert.notEqual(await store.getAuthorizeTransaction('r', 'live'), null);
  });

  it('deletes a consumed transaction before it expires', async () => {
    await drain('transactions', T0 + 20 * MIN);
    await transaction('to-consume', T0 + 20 * MIN);
    const issued = await store.issueCode('r', 'to-consume', T0 + 20 * MIN, () => null, {
      hash: `code-${++seq}`,
      realmId: 'r',
      userId: 'u',
      ip: '127.0.0.1',
      provider: null,
      createdAt: T0 + 20 * MIN,
      expiresAt: T0 + 22 * MIN,
    });
    assert.equal(issued.kind, 'ok');
    assert.equal(await store.sweep('transactions', T0 + 20 * MIN, 500), 1);
    assert.equal(await store.getAuthorizeTransaction('r', 'to-consume'), null);
  });

  it('keeps a used code until it expires (a replay must still revoke its family), then deletes it', async () => {
    const at = T0 + 30 * MIN;
    for (const k of ['transactions', 'codes', 'families'] as const) await drain(k, at);
    await transaction('for-code', at);
    const hash = `code-${++seq}`;
    await store.issueCode('r', 'for-code', at, () => null, {
      hash,
      realmId: 'r',
      userId: 'u',
      ip: '127.0.0.1',
      provider: null,
      createdAt: at,
      expiresAt: at + 2 * MIN,
    });
    const f = family(at);
    assert.equal(
      (
        await store.exchangeCode(
          hash,
          at,
          () => null,
          () => ({ family: f, refresh: { hash: `rt-${++seq}`, expiresAt: at + 10 * MIN } }),
        )
      ).kind,
      'ok',
    );
    assert.equal(await store.sweep('codes', at + MIN, 500), 0, 'used but alive: kept');
    assert.equal(
      (
        await store.exchangeCode(
          hash,
          at + MIN,
          () => null,
          () => {
            throw new Error('not reached');
          },
        )
      ).kind,
      'replayed',
    );
    assert.notEqual((await store.getFamily(f.id))!.revokedAt, null);
    assert.equal(await store.sweep('codes', at + 2 * MIN, 500), 1);
    assert.equal(
      (
        await store.exchangeCode(
          hash,
          at + 2 * MIN,
          () => null,
          () => {
            throw new Error('not reached');
          },
        )
      ).kind,
      'unknown',
    );
  });

  it('keeps every rotated refresh token while the family lives, then deletes the whole family in batches', async () => {
    const at = T0 + 60 * MIN;
    await drain('families', at);
    const f = family(at, 600, 60);
    const first = `rt-${++seq}`;
    await store.createFamily(f, { hash: first, expiresAt: at + 10 * MIN });
    // 1 100 rotations, one a second: the family lives until 10 minutes after the last one.
    let hash = first;
    for (let i = 1; i <= 1100; i++) {
      const next = `rt-${++seq}`;
      assert.equal((await rotate(hash, at + i * 1000, next)).kind, 'ok');
      hash = next;
    }
    const last = at + 1100 * 1000;
    assert.equal(await store.sweep('families', last + 10 * MIN - 1, 500), 0, 'alive: the first token lapsed long ago, but the family has not');
    assert.notEqual(await store.familyOfRefreshToken(first), null);
    const reused = await store.rotateRefreshToken(
      first,
      last + MIN,
      () => null,
      () => ({ hash: 'never', expiresAt: 0 }),
    );
    assert.equal(reused.kind, 'reused', 'a rotated token is still recognised');
    const batches = [];
    for (let n = -1; n !== 0; ) batches.push((n = await store.sweep('families', last + 10 * MIN, 500)));
    assert.deepEqual(batches, [500, 500, 102, 0], '1 101 refresh tokens at most 500 a statement, then the family');
    assert.equal(await store.familyOfRefreshToken(first), null);
    assert.equal(await store.familyOfRefreshToken(hash), null);
    assert.equal(await store.getFamily(f.id), null);
  });

  it('keeps a family until its last access token has expired when that outlives the refresh token', async () => {
    const at = T0 + 200 * MIN;
    await drain('families', at);
    const f = family(at, 60, 3600);
    await store.createFamily(f, { hash: `rt-${++seq}`, expiresAt: at + MIN });
    assert.equal(await store.sweep('families', at + 59 * MIN, 500), 0);
    assert.notEqual(await store.getFamily(f.id), null);
    assert.equal(await store.sweep('families', at + 60 * MIN, 500), 2);
    assert.equal(await store.getFamily(f.id), null);
  });

  it('deletes web attempts once used or expired', async () => {
    const at = T0 + 300 * MIN;
    const attempt = (stateHash: string) =>
      store.createWebAttempt({
        stateHash,
        realmId: 'r',
        clientId: 'c',
        downstreamState: null,
        nonce: 'n',
        createdAt: at,
        expiresAt: at + 10 * MIN,
        consumedAt: null,
      });
    await attempt('used');
    await attempt('pending');
    assert.equal((await store.consumeWebAttempt('r', 'used', at)).kind, 'ok');
    assert.equal(await store.sweep('webAttempts', at + MIN, 500), 1);
    assert.deepEqual(await store.consumeWebAttempt('r', 'used', at + MIN), { kind: 'refused', reason: 'unknown' });
    assert.equal(await store.sweep('webAttempts', at + 10 * MIN, 500), 1);
    assert.deepEqual(await store.consumeWebAttempt('r', 'pending', at + 10 * MIN), { kind: 'refused', reason: 'unknown' });
  });
});
