import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { familyExpiresAt, revocationApplies, sessionIsLive } from './family-lifetime.ts';
import type { TokenFamily } from './store.ts';

describe("a token family's lifetime", () => {
  const f: TokenFamily = {
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
  const table: Array<[string, TokenFamily, number, number | null, number]> = [
    ['lasts until its refresh token lapses', f, 600_000, null, 600_000],
    ['lasts until its access token lapses when that is later', { ...f, accessTtlS: 3600 }, 600_000, null, 3_600_000],
    ['is never shortened', f, 600_000, 900_000, 900_000],
  ];
  for (const [name, family, refreshExpiry, stored, want] of table) {
    it(name, () => assert.equal(familyExpiresAt(family, { hash: 'h', expiresAt: refreshExpiry }, 0, stored), want));
  }
  it('is revoked once: a later revocation keeps the first', () => {
    assert.equal(revocationApplies(f), true);
    assert.equal(revocationApplies({ revokedAt: 5 }), false);
  });
});

describe('session liveness', () => {
  it('a session is live until its expiry, not at it, and never once revoked', () => {
    assert.equal(sessionIsLive({ revokedAt: null, expiresAt: 11 }, 10), true);
    assert.equal(sessionIsLive({ revokedAt: null, expiresAt: 10 }, 10), false);
    assert.equal(sessionIsLive({ revokedAt: 5, expiresAt: 11 }, 10), false);
  });
});
