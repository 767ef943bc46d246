import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decideRotation, type RotationDecision } from './refresh-rotation.ts';
import type { RefreshTokenRecord, TokenFamily } from './store.ts';

describe('refresh token rotation', () => {
  const now = 1_000_000;
  const family: TokenFamily = {
    id: 'sid_1',
    realmId: 'r',
    userId: 'u',
    clientId: 'c',
    ip: '10.0.0.1',
    ipBinding: 'off',
    accessTtlS: 60,
    refreshTtlS: 600,
    createdAt: 0,
    revokedAt: null,
    provider: null,
  };
  // An event's id is fresh: compared without it.
  const reuseEvent = { type: 'session.revoked', realmId: 'r', createdAt: now, data: { userId: 'u', sessionId: 'sid_1', reason: 'refresh_reuse' } };
  const withoutEventIds = (d: RotationDecision): unknown => (d.kind === 'reused' ? { ...d, events: d.events.map(({ id: _id, ...rest }) => rest) } : d);
  const token: RefreshTokenRecord = { hash: 'h1', familyId: 'sid_1', expiresAt: now + 1, rotatedAt: null };
  const next = (f: TokenFamily) => ({ hash: 'h2', expiresAt: now + f.refreshTtlS * 1000 });
  const accept = () => null;
  const refuse = () => 'client';

  const table: Array<[string, RefreshTokenRecord | null, TokenFamily | null, (f: TokenFamily) => string | null, unknown]> = [
    ['an unknown token is unknown', null, null, accept, { kind: 'unknown' }],
    ['a token without its family is unknown', token, null, accept, { kind: 'unknown' }],
    [
      'a live token rotates: the next one is stored and the family lasts until it lapses',
      token,
      family,
      accept,
      { kind: 'ok', family, next: { hash: 'h2', expiresAt: now + 600_000 }, familyExpiresAt: now + 600_000 },
    ],
    [
      'a rotated token coming back revokes the family',
      { ...token, rotatedAt: now - 5 },
      family,
      accept,
      { kind: 'reused', family: { ...family, revokedAt: now }, reason: 'refresh_token_reused', events: [reuseEvent] },
    ],
    [
      'a rotated token coming back is a reuse even when expired and refused',
      { ...token, rotatedAt: now - 5, expiresAt: now - 1 },
      family,
      refuse,
      { kind: 'reused', family: { ...family, revokedAt: now }, reason: 'refresh_token_reused', events: [reuseEvent] },
    ],
    [
      'a revoked family refuses any token and revokes nothing again',
      { ...token, rotatedAt: now - 5 },
      { ...family, revokedAt: 7 },
      accept,
      { kind: 'revoked' },
    ],
    ['an expired token is refused (the expiry instant included)', { ...token, expiresAt: now }, family, accept, { kind: 'expired' }],
    ["an expired token is expired before the caller's check is asked", { ...token, expiresAt: now }, family, refuse, { kind: 'expired' }],
    ["the caller's refusal changes nothing", token, family, refuse, { kind: 'refused', reason: 'client' }],
  ];
  for (const [name, t, f, check, want] of table) {
    it(name, () => assert.deepEqual(withoutEventIds(decideRotation(t, f, null, now, check, next)), want));
  }

  it('never shortens the family: the stored expiry wins when later, the access token when it outlives the refresh token', () => {
    const far = now + 10_000_000;
    const d = decideRotation(token, family, far, now, accept, next);
    assert.equal(d.kind === 'ok' && d.familyExpiresAt, far);
    const longAccess = { ...family, accessTtlS: 3600 };
    const e = decideRotation(token, longAccess, null, now, accept, next);
    assert.equal(e.kind === 'ok' && e.familyExpiresAt, now + 3_600_000);
  });

  it('asks for the next token only when it rotates', () => {
    let asked = 0;
    const counting = (f: TokenFamily) => (asked++, next(f));
    decideRotation({ ...token, rotatedAt: 1 }, family, null, now, accept, counting);
    decideRotation(token, family, null, now, refuse, counting);
    assert.equal(asked, 0);
    decideRotation(token, family, null, now, accept, counting);
    assert.equal(asked, 1);
  });
});
