import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type CodeIssueDecision, decideCodeIssue, mayStartTransaction } from './authorize-transaction.ts';
import type { AuthorizeTransaction } from './store.ts';

const now = 1_000_000;
const tx: AuthorizeTransaction = {
  realmId: 'r',
  state: 'state-123',
  clientId: 'c',
  redirectUri: 'https://x.example/cb',
  codeChallenge: 'x'.repeat(43),
  scope: 'openid',
  createdAt: now - 1000,
  expiresAt: now + 299_000,
  consumedAt: null,
};

describe('starting an authorization transaction', () => {
  const table: Array<[string, AuthorizeTransaction | null, boolean]> = [
    ['a new state starts', null, true],
    ['a state still pending cannot be taken again', tx, false],
    ['an expired state is replaced (the expiry instant included)', { ...tx, expiresAt: now }, true],
    ['a consumed state is replaced', { ...tx, consumedAt: now - 10 }, true],
  ];
  for (const [name, existing, want] of table) it(name, () => assert.equal(mayStartTransaction(existing, now), want));
});

describe('issuing a code for a transaction', () => {
  const draft = { hash: 'c1', realmId: 'r', userId: 'u', ip: '10.0.0.1', provider: 'apple', createdAt: now, expiresAt: now + 120_000 };
  const issued = { ...draft, clientId: 'c', redirectUri: 'https://x.example/cb', codeChallenge: 'x'.repeat(43), scope: 'openid', usedAt: null, familyId: null };
  const table: Array<[string, AuthorizeTransaction | null, string | null, CodeIssueDecision]> = [
    ['an unknown transaction is refused', null, null, { kind: 'refused', reason: 'unknown' }],
    ["the caller's refusal wins", tx, 'client', { kind: 'refused', reason: 'client' }],
    ['a consumed transaction issues no second code', { ...tx, consumedAt: now - 1 }, null, { kind: 'refused', reason: 'consumed' }],
    ['a pending one issues a code bound to its client, redirect URI, challenge and scope', tx, null, { kind: 'ok', tx, code: issued }],
  ];
  for (const [name, t, refusal, want] of table)
    it(name, () =>
      assert.deepEqual(
        decideCodeIssue(t, () => refusal, draft),
        want,
      ),
    );
});
