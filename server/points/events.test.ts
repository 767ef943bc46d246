import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NO_ALERTS, type StoredAlertConfig } from './alerts.ts';
import { alertsUpdatedEmitted } from './events.ts';

const caller = { actor: { type: 'api_key' as const, id: 'key_1' }, requestId: 'req_1' };
const stored = (over: Partial<StoredAlertConfig>): StoredAlertConfig => ({ realmId: 'r', ...NO_ALERTS, updatedAt: null, ...over });

describe('alertsUpdatedEmitted', () => {
  it('records a put of the alerts with only the fields that changed, the realm as target, and no event', () => {
    const before = stored({ lowBalanceThresholds: [20], quotaExhausted: true, updatedAt: 1 });
    const after = stored({ lowBalanceThresholds: [20, 50], quotaExhausted: true, quotaRecovered: true, updatedAt: 2 });
    const e = alertsUpdatedEmitted(before, after, caller, 2);
    assert.deepEqual(e.events, []);
    assert.deepEqual(e.jobs, []);
    assert.deepEqual(
      { ...e.audit[0], auditId: undefined },
      {
        auditId: undefined,
        at: 2,
        realmId: 'r',
        actor: caller.actor,
        action: 'points_alerts.update',
        targetId: 'r',
        changes: { lowBalanceThresholds: { before: [20], after: [20, 50] }, quotaRecovered: { before: false, after: true } },
        requestId: 'req_1',
      },
    );
  });

  it('records nothing for a put without a caller', () => {
    assert.deepEqual(alertsUpdatedEmitted(stored({}), stored({ quotaExhausted: true }), null, 2).audit, []);
  });
});
