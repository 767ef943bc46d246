import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GatehouseError } from '../errors.ts';
import { grantWrites } from './grant.ts';
import type { UserPointsState } from './state.ts';
import type { GrantCommand } from './store.ts';
import { MAX_POINTS } from './total-cap.ts';

const cmd = (amount: number): GrantCommand => ({
  realmId: 'r',
  userId: 'u',
  kind: 'topup_credit',
  amount,
  expiresAt: 9000,
  idempotencyKey: null,
  requestHash: '',
  grantId: 'grt_1',
});
const st = (quota: number, pool: number): UserPointsState => ({
  windows: [],
  quota: [{ kind: 'subscription_credit', sourceId: 'e', available: quota, head: undefined }],
  balances: [{ id: 'b', kind: 'granted_credit', amount: pool, remaining: pool, expiresAt: null, createdAt: 0 }],
});

describe('an operator grant', () => {
  it('adds a balance under the grant id and answers it', () => {
    const w = grantWrites(cmd(50), st(10, 10), 1000);
    assert.deepEqual(w.balance, { form: 'balance', kind: 'topup_credit', amount: 50, expiresAt: 9000, source: 'grant:grt_1' });
    assert.deepEqual(w.result, { grantId: 'grt_1', userId: 'u', kind: 'topup_credit', amount: 50, expiresAt: 9000, createdAt: 1000 });
  });

  it('is refused (400 naming amount) when quota and balances together would pass 2^53−1', () => {
    assert.doesNotThrow(() => grantWrites(cmd(10), st(5, MAX_POINTS - 15), 0));
    assert.throws(
      () => grantWrites(cmd(11), st(5, MAX_POINTS - 15), 0),
      (e: unknown) => e instanceof GatehouseError && e.code === 'bad_request' && e.extra.field === 'amount' && /^amount: would take/.test(e.message),
    );
  });
});
