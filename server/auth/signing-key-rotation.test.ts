import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decideRotation, keyInService, rotationDue, rotationWrites } from './signing-key-rotation.ts';
import type { SigningKeyRecord } from './store.ts';

const T0 = 1_700_000_000_000;
const key = (createdAt: number, retiredAt: number | null = null): SigningKeyRecord => ({
  kid: 'k',
  realmId: 'r',
  alg: 'EdDSA',
  privatePem: '',
  publicJwk: {},
  createdAt,
  retiredAt,
});

test('an operator rotation always rotates, retiring the old key after the longest access-token lifetime', () => {
  assert.deepEqual(decideRotation(key(T0), T0 + 1, 900, { kind: 'operator' }), { rotate: true, retireAt: T0 + 1 + 900_000 });
  assert.deepEqual(decideRotation(null, T0, 60, { kind: 'operator' }), { rotate: true, retireAt: T0 + 60_000 });
  assert.deepEqual(decideRotation(key(T0), T0 + 1, null, { kind: 'operator' }), { rotate: true, retireAt: T0 + 1 }, 'no client, no live session');
});

test('a scheduled rotation waits until the key is max-age old', () => {
  const schedule = { kind: 'schedule', maxAgeMs: 3_600_000 } as const;
  assert.deepEqual(decideRotation(key(T0), T0 + 3_599_999, 900, schedule), { rotate: false });
  assert.deepEqual(decideRotation(key(T0), T0 + 3_600_000, 900, schedule), { rotate: true, retireAt: T0 + 3_600_000 + 900_000 });
  assert.equal(rotationDue(key(T0), T0 + 10, 10), true);
  assert.equal(rotationDue(key(T0), T0 + 9, 10), false);
});

test('a key serves until its retirement, the current one always', () => {
  for (const [retiredAt, now, inService] of [
    [null, T0, true],
    [T0 + 1, T0, true],
    [T0, T0, false],
    [T0, T0 + 1, false],
  ] as const) {
    assert.equal(keyInService(key(T0, retiredAt), now), inService, `retiredAt ${retiredAt} at ${now}`);
  }
});

test('a rotation retires the current key and inserts the new one, with its audit record; keeping writes nothing', () => {
  const current = key(T0);
  const next = { ...key(T0 + 5), kid: 'next' };
  const by = { actor: { type: 'api_key' as const, id: 'ak_1' }, requestId: 'req_1' };
  const { audit, ...writes } = rotationWrites(current, { rotate: true, retireAt: T0 + 9 }, () => next, by);
  assert.deepEqual(writes, {
    retire: { kid: 'k', at: T0 + 9 },
    insert: next,
    answer: { current: next, replaced: { ...current, retiredAt: T0 + 9 }, rotated: true },
  });
  assert.deepEqual(
    audit.map(({ auditId: _, ...r }) => r),
    [
      {
        at: next.createdAt,
        realmId: next.realmId,
        actor: by.actor,
        action: 'signing_key.rotate',
        targetId: 'next',
        changes: { previousKid: { before: null, after: 'k' }, previousRetiresAt: { before: null, after: T0 + 9 } },
        requestId: 'req_1',
      },
    ],
  );
  const first = rotationWrites(null, { rotate: true, retireAt: T0 + 9 }, () => next, by);
  assert.deepEqual([first.retire, first.insert, first.answer], [null, next, { current: next, replaced: null, rotated: true }]);
  assert.deepEqual(first.audit[0]!.changes, {});
  assert.deepEqual(
    rotationWrites(current, { rotate: false }, () => assert.fail('no key is made'), by),
    { retire: null, insert: null, answer: { current, replaced: null, rotated: false }, audit: [] },
  );
});
