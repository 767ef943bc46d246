import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GatehouseError } from '../../errors.ts';
import { httpStatusOf } from '../../rpc/status.ts';
import { UserGate } from './user-gate.ts';

/** A call that runs until the test ends it. */
function held() {
  let end!: () => void;
  const done = new Promise<void>((r) => (end = r));
  const call = { started: false, end, fn: async () => void ((call.started = true), await done) };
  return call;
}
const turn = () => new Promise((r) => setImmediate(r));

describe('the gate of one user’s calls to the pool', () => {
  it('lets a quarter of the pool’s connections (at least one) hold or wait for a user’s lock; the next call of that user waits its turn, other users’ calls go on', async () => {
    const gate = UserGate.forPool(8, 0);
    const [a1, a2, a3, b1] = [held(), held(), held(), held()];
    const runs = [gate.run('a', a1.fn), gate.run('a', a2.fn), gate.run('a', a3.fn), gate.run('b', b1.fn)];
    await turn();
    assert.deepEqual([a1.started, a2.started, a3.started, b1.started], [true, true, false, true]);
    assert.equal(gate.waiting('a'), 1);
    a1.end();
    await turn();
    assert.ok(a3.started, 'the turn passes to the next call of the user');
    for (const c of [a2, a3, b1]) c.end();
    await Promise.all(runs);
    assert.equal(gate.waiting('a'), 0);

    const small = UserGate.forPool(3, 0);
    const [c1, c2] = [held(), held()];
    const both = [small.run('c', c1.fn), small.run('c', c2.fn)];
    await turn();
    assert.deepEqual([c1.started, c2.started], [true, false]);
    c1.end();
    c2.end();
    await Promise.all(both);
  });

  it('answers 503 "Database is busy" to a call whose turn did not come within the lock wait, without running it', async () => {
    const gate = new UserGate(1, 20);
    const a1 = held();
    const first = gate.run('a', a1.fn);
    let ran = false;
    await assert.rejects(
      gate.run('a', async () => void (ran = true)),
      (e) => e instanceof GatehouseError && e.code === 'service_unavailable' && e.message === 'Database is busy, try again' && httpStatusOf(e) === 503,
    );
    assert.equal(ran, false);
    assert.equal(gate.waiting('a'), 0);
    a1.end();
    await first;
    // The user's turns are free again.
    assert.equal(await gate.run('a', async () => 'next'), 'next');
  });

  it('counts a call that failed as done', async () => {
    const gate = new UserGate(1, 0);
    await assert.rejects(
      gate.run('a', async () => {
        throw new Error('boom');
      }),
      /boom/,
    );
    assert.equal(await gate.run('a', async () => 'after'), 'after');
  });
});
