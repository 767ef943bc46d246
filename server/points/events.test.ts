import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NO_ALERTS, type StoredAlertConfig } from './alerts.ts';
import type { ChargeLine } from './charges.ts';
import { alertsUpdatedEmitted, consumedEmitted, consumedEvent, consumedEventId } from './events.ts';

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

describe('consumedEvent', () => {
  // Lines as a consume keeps them: a window line with its ledger row, a balance line, a refund counted.
  const lines: ChargeLine[] = [
    { creditKind: 'free_periodic_credit', sourceId: 'free:daily', amount: 3, at: 1_000, seq: 7, refunded: 1 },
    { creditKind: 'topup_credit', sourceId: 'bal_1', amount: 2 },
  ];
  const allocations = [
    { creditKind: 'free_periodic_credit' as const, sourceId: 'free:daily', amount: 3 },
    { creditKind: 'topup_credit' as const, sourceId: 'bal_1', amount: 2 },
  ];

  it("rebuilds from a consume's movement the event consumedEmitted planned for it, id included", () => {
    const planned = consumedEmitted('r', { userId: 'usr_1', transactionId: 'ptx_00abc', amount: 5, allocations, holdId: null }, 42).events;
    const rebuilt = consumedEvent('r', 'usr_1', { id: 'ptx_00abc', kind: 'consume', amount: 5, lines, relatedId: null }, 42);
    assert.deepEqual([rebuilt], planned);
    assert.equal(JSON.stringify(rebuilt.data), JSON.stringify(planned[0]!.data));
    assert.equal(rebuilt.id, 'evt_00abc');
  });

  it("rebuilds a settlement's with its hold, from the movement's relatedId", () => {
    const planned = consumedEmitted('r', { userId: 'usr_1', transactionId: 'ptx_9', amount: 5, allocations, holdId: 'hld_1' }, 43).events;
    assert.deepEqual([consumedEvent('r', 'usr_1', { id: 'ptx_9', kind: 'settle', amount: 5, lines, relatedId: 'hld_1' }, 43)], planned);
  });

  it('names each event after its transaction: one id per transaction, none shared', () => {
    assert.equal(consumedEventId('ptx_0mabcdefgXYZ'), 'evt_0mabcdefgXYZ');
    assert.notEqual(consumedEventId('ptx_a'), consumedEventId('ptx_b'));
  });
});
