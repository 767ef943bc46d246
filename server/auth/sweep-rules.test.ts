import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SweepKind } from './store.ts';
import { sweepable } from './sweep-rules.ts';

describe('what the sweep may delete', () => {
  const now = 1_000_000;
  const pending = { expiresAt: now + 1, usedAt: null };
  const used = { expiresAt: now + 1, usedAt: now - 1 };
  const expired = { expiresAt: now, usedAt: null };
  const table: Array<[SweepKind, string, { expiresAt: number | null; usedAt: number | null }, boolean]> = [
    ['transactions', 'a pending transaction stays', pending, false],
    ['transactions', 'a consumed transaction goes before it expires', used, true],
    ['transactions', 'an expired transaction goes (the expiry instant included)', expired, true],
    ['codes', 'an unused code stays', pending, false],
    ['codes', 'a used code stays until it expires, so a replay still revokes its family', used, false],
    ['codes', 'an expired code goes', expired, true],
    ['webAttempts', 'a pending attempt stays', pending, false],
    ['webAttempts', 'a used attempt goes before it expires', used, true],
    ['webAttempts', 'an expired attempt goes', expired, true],
    ['families', 'a family stays while a token of it may be live', pending, false],
    ['families', 'a family goes once its last token has lapsed', expired, true],
    ['families', 'a family without a recorded expiry stays', { expiresAt: null, usedAt: null }, false],
  ];
  for (const [kind, name, row, want] of table) it(`${kind}: ${name}`, () => assert.equal(sweepable(kind, row, now), want));
});
