import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type CodeExchangeDecision, decideCodeExchange } from './code-exchange.ts';
import type { AuthorizationCode, TokenFamily } from './store.ts';

describe('authorization code exchange', () => {
  const now = 1_000_000;
  const code: AuthorizationCode = {
    hash: 'c1',
    realmId: 'r',
    clientId: 'c',
    redirectUri: 'https://x.example/cb',
    codeChallenge: 'x'.repeat(43),
    scope: '',
    userId: 'u',
    ip: '10.0.0.1',
    provider: 'apple',
    createdAt: now - 1000,
    expiresAt: now + 119_000,
    usedAt: null,
    familyId: null,
  };
  const family: TokenFamily = {
    id: 'sid_1',
    realmId: 'r',
    userId: 'u',
    clientId: 'c',
    ip: '10.0.0.1',
    ipBinding: 'off',
    accessTtlS: 60,
    refreshTtlS: 600,
    createdAt: now,
    revokedAt: null,
    provider: null,
  };
  const refresh = { hash: 'h1', expiresAt: now + 600_000 };
  const make = () => ({ family, refresh });
  const accept = () => null;
  const used = { ...code, usedAt: now - 500, familyId: 'sid_0' };
  const issued = { ...family, id: 'sid_0' };

  const table: Array<[string, AuthorizationCode | null, TokenFamily | null, (c: AuthorizationCode) => string | null, CodeExchangeDecision]> = [
    ['an unknown code is unknown', null, null, accept, { kind: 'unknown' }],
    [
      'a fresh code creates the family the caller drafted, lasting as long as its refresh token',
      code,
      null,
      accept,
      { kind: 'ok', code, family, refresh, familyExpiresAt: now + 600_000 },
    ],
    ["the caller's refusal changes nothing", code, null, () => 'redirect_uri', { kind: 'refused', reason: 'redirect_uri' }],
    [
      'a used code is a replay: the family issued from it is revoked',
      used,
      issued,
      accept,
      { kind: 'replayed', revoke: 'sid_0', reason: 'authorization_code_replayed' },
    ],
    ['a replay is a replay before any other check', used, issued, () => 'realm', { kind: 'replayed', revoke: 'sid_0', reason: 'authorization_code_replayed' }],
    [
      'a replay keeps an earlier revocation of that family',
      used,
      { ...issued, revokedAt: now - 100 },
      accept,
      { kind: 'replayed', revoke: null, reason: 'authorization_code_replayed' },
    ],
    ['a replay whose family is gone revokes nothing', used, null, accept, { kind: 'replayed', revoke: null, reason: 'authorization_code_replayed' }],
  ];
  for (const [name, c, f, check, want] of table) {
    it(name, () => assert.deepEqual(decideCodeExchange(c, f, check, make), want));
  }

  it('drafts a family only for a code it accepts', () => {
    let drafted = 0;
    const counting = () => (drafted++, make());
    decideCodeExchange(used, issued, accept, counting);
    decideCodeExchange(code, null, () => 'expired', counting);
    assert.equal(drafted, 0);
    decideCodeExchange(code, null, accept, counting);
    assert.equal(drafted, 1);
  });
});
