import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCache } from './cache.ts';

describe('a cache with an invalidation signal', () => {
  it('keeps what was set until the signal says others committed', () => {
    let others = false;
    const c = createCache<number>({ max: 10, invalidation: () => others });
    c.set('a', 1);
    assert.equal(c.get('a'), 1);
    others = true;
    assert.equal(c.get('a'), undefined);
    others = false;
    c.set('a', 2);
    assert.equal(c.get('a'), 2);
  });

  it('asks the signal on every read', () => {
    let asked = 0;
    const c = createCache<number>({ max: 10, invalidation: () => (asked++, false) });
    c.get('a');
    c.get('b');
    assert.equal(asked, 2);
  });

  it("clear() empties it (a store's own writes)", () => {
    const c = createCache<number>({ max: 10, invalidation: () => false });
    c.set('a', 1);
    c.clear();
    assert.equal(c.get('a'), undefined);
  });

  it('starts again past max entries: memory stays bounded whatever the keys', () => {
    const c = createCache<number>({ max: 2, invalidation: () => false });
    c.set('a', 1);
    c.set('b', 2);
    c.set('c', 3);
    assert.equal(c.get('a'), undefined);
    assert.equal(c.get('b'), undefined);
    assert.equal(c.get('c'), 3);
  });
});
