import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ConsumeWebAttemptResult, WebLoginAttempt } from './store.ts';
import { decideAttemptUse } from './web-attempt.ts';

describe('using a Sign in with Apple web attempt', () => {
  const now = 1_000_000;
  const attempt: WebLoginAttempt = {
    stateHash: 'h',
    realmId: 'r',
    clientId: 'c',
    downstreamState: null,
    nonce: 'n',
    createdAt: now - 1000,
    expiresAt: now + 1,
    consumedAt: null,
  };
  const table: Array<[string, WebLoginAttempt | null, ConsumeWebAttemptResult]> = [
    ['an unknown state is refused', null, { kind: 'refused', reason: 'unknown' }],
    ['a used attempt is refused, expired or not', { ...attempt, consumedAt: now - 5, expiresAt: now - 1 }, { kind: 'refused', reason: 'consumed' }],
    ['an expired attempt is refused (the expiry instant included)', { ...attempt, expiresAt: now }, { kind: 'refused', reason: 'expired' }],
    ['a live attempt is used now', attempt, { kind: 'ok', attempt: { ...attempt, consumedAt: now } }],
  ];
  for (const [name, a, want] of table) it(name, () => assert.deepEqual(decideAttemptUse(a, now), want));
});
