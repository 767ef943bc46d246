import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type EventRow, type MarkedMovementRow, outboxHead, outboxNewest } from './record-rows.ts';

const row = (id: string, at: number): EventRow => ({ id, type: 'user.created', realm_id: 'r', created_at: at, data: '{}' });
const marked = (id: string, at: number): MarkedMovementRow => ({
  id,
  realm_id: 'r',
  user_id: 'usr_1',
  kind: 'consume',
  amount: 1,
  allocations: JSON.stringify([{ creditKind: 'topup_credit', sourceId: 'bal_1', amount: 1 }]),
  related_id: null,
  created_at: at,
});

describe("the outbox's order over its rows and its marked movements", () => {
  it('hands out the oldest first, a tie by id, up to the limit, and says which to mark and which to unmark', () => {
    const head = outboxHead([row('evt_b', 1), row('evt_d', 3), row('evt_e', 5)], [marked('ptx_a', 1), marked('ptx_c', 3), marked('ptx_f', 9)], 5);
    assert.deepEqual(
      head.events.map((e) => e.id),
      ['evt_a', 'evt_b', 'evt_c', 'evt_d', 'evt_e'],
    );
    assert.deepEqual(head.rowIds, ['evt_b', 'evt_d', 'evt_e']);
    assert.deepEqual(head.movementIds, ['ptx_a', 'ptx_c']);
    assert.deepEqual(
      head.fromMarks.map((e) => [e.id, e.type, e.created_at, JSON.parse(e.data).transactionId]),
      [
        ['evt_a', 'points.consumed', 1, 'ptx_a'],
        ['evt_c', 'points.consumed', 3, 'ptx_c'],
      ],
    );
  });

  it('takes from either side alone when the other is empty', () => {
    assert.deepEqual(outboxHead([], [marked('ptx_a', 2)], 10).movementIds, ['ptx_a']);
    assert.deepEqual(outboxHead([row('evt_x', 2)], [], 10).rowIds, ['evt_x']);
    assert.equal(outboxHead([], [], 10).events.length, 0);
  });

  it("lists a realm's newest first, whichever side holds them", () => {
    const newest = outboxNewest([row('evt_b', 1), row('evt_d', 3)], [marked('ptx_c', 3), marked('ptx_a', 1)], 3);
    assert.deepEqual(
      newest.map((e) => e.id),
      ['evt_d', 'evt_c', 'evt_b'],
    );
  });
});
