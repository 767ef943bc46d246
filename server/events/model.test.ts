import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EVENT_TYPES } from './model.ts';

describe('EVENT_TYPES', () => {
  it('is exactly the list of CONTRACT §12, in its order', () => {
    assert.deepEqual(
      [...EVENT_TYPES],
      [
        'user.created',
        'user.deleted',
        'user.identity_linked',
        'user.identity_unlinked',
        'user.email_forwarding_changed',
        'session.revoked',
        'points.granted',
        'points.consumed',
        'points.hold_expired',
        'points.refunded',
        'points.balance_low',
        'points.quota_exhausted',
        'points.quota_recovered',
        'subscription.activated',
        'subscription.cancelled',
        'apple.notification',
        'webhook.test',
      ],
    );
  });
});
