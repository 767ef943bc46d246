import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type LedgerHead,
  ledgerAppend,
  ledgerIsEmpty,
  ledgerPruning,
  prunableReturnBlocks,
  pruneAfter,
  RETURN_FANOUT,
  RETURN_LEVELS,
  returnBlocks,
  returnRanges,
  seqBeforeWindow,
  type WindowReads,
  windowFacts,
  windowUsage,
} from './ledger.ts';

const head = (seq: number, cum: number, lastAt: number, returned = 0): LedgerHead => ({ seq, cum, lastAt, returned });
const DAY = 86_400_000;
const times = (oldestAt: number | null, newestAt: number | null) => ({ oldestAt, newestAt });

describe('running-total ledger: usage of a window', () => {
  it('nothing consumed yet (no head, or a head at seq 0) is 0 used, without times', () => {
    assert.ok(ledgerIsEmpty(undefined));
    assert.ok(ledgerIsEmpty(head(0, 0, 0)));
    assert.ok(!ledgerIsEmpty(head(1, 5, 10)));
    assert.deepEqual(windowUsage(undefined, undefined, undefined, 0, null), { used: 0, oldestAt: null, newestAt: null });
    assert.deepEqual(windowUsage(head(0, 0, 0), undefined, undefined, 0, null), { used: 0, oldestAt: null, newestAt: null });
  });

  it('used = cum now − cum at the last row at or before the start, with the times handed in', () => {
    assert.deepEqual(windowUsage(head(9, 100, 5000), { seq: 6, cum: 60 }, { at: 1200, seq: 7, cum: 70, amount: 10 }, 0, times(1200, 5000)), {
      used: 40,
      oldestAt: 1200,
      newestAt: 5000,
    });
  });

  it('with every earlier row pruned, cum at the start is the first row after it less its own amount', () => {
    assert.equal(windowUsage(head(9, 100, 5000), undefined, { at: 1200, seq: 7, cum: 70, amount: 10 }, 0, null).used, 40);
  });

  it('nothing after the start: 0 used, no recovery times', () => {
    assert.deepEqual(windowUsage(head(9, 100, 5000), { seq: 9, cum: 100 }, undefined, 0, times(null, 5000)), { used: 0, oldestAt: null, newestAt: null });
    assert.deepEqual(windowUsage(head(9, 100, 5000), undefined, undefined, 0, null), { used: 0, oldestAt: null, newestAt: null });
  });

  it('subtracts what went back to rows inside the window; all of it back is 0 used', () => {
    assert.equal(windowUsage(head(9, 100, 5000, 15), { seq: 6, cum: 60 }, undefined, 15, null).used, 25);
    assert.deepEqual(windowUsage(head(9, 100, 5000, 40), { seq: 6, cum: 60 }, undefined, 40, times(null, null)), { used: 0, oldestAt: null, newestAt: null });
  });

  it('the window starts after the last row at or before it, else just before the first row after it, else at the head', () => {
    assert.equal(seqBeforeWindow(head(9, 100, 5000), { seq: 6, cum: 60 }, undefined), 6);
    assert.equal(seqBeforeWindow(head(9, 100, 5000), undefined, { at: 1200, seq: 7, cum: 70, amount: 10 }), 6);
    assert.equal(seqBeforeWindow(head(9, 100, 5000), undefined, undefined), 9);
  });
});

describe('running-total ledger: which facts a window takes', () => {
  /** Reads answering these facts, recording which were asked (and the seq returnedAfter was asked at). */
  const reads = (f: {
    before?: { seq: number; cum: number };
    first?: { at: number; seq: number; cum: number; amount: number };
    returned?: number;
    newestAt?: number;
  }) => {
    const asked: string[] = [];
    const read: WindowReads<string> = {
      before: (q) => (asked.push(`${q} before`), f.before),
      first: (q) => (asked.push(`${q} first`), f.first),
      returnedAfter: (q, s) => (asked.push(`${q} returnedAfter ${s}`), f.returned ?? 0),
      newestAt: (q) => (asked.push(`${q} newestAt`), f.newestAt ?? null),
    };
    return { read, asked };
  };
  const before = { seq: 6, cum: 60 };
  const first = { at: 1200, seq: 7, cum: 70, amount: 10 };

  it('reads nothing when nothing was ever consumed from the kind', () => {
    for (const h of [undefined, head(0, 0, 0)]) {
      const r = reads({ before, first });
      assert.deepEqual(windowFacts(h, true, r.read, 'w'), { used: 0, oldestAt: null, newestAt: null });
      assert.deepEqual(r.asked, []);
    }
  });

  it('without the times, the row after the start is read only when no row at or before it answers used', () => {
    const r = reads({ before, first });
    assert.deepEqual(windowFacts(head(9, 100, 5000), false, r.read, 'w'), { used: 40, oldestAt: null, newestAt: null });
    assert.deepEqual(r.asked, ['w before']);
    const pruned = reads({ first });
    assert.equal(windowFacts(head(9, 100, 5000), false, pruned.read, 'w').used, 40);
    assert.deepEqual(pruned.asked, ['w before', 'w first']);
  });

  it('with the times: the oldest is the row after the start, the newest the head’s while nothing went back', () => {
    const r = reads({ before, first, newestAt: 4000 });
    assert.deepEqual(windowFacts(head(9, 100, 5000), true, r.read, 'w'), { used: 40, oldestAt: 1200, newestAt: 5000 });
    assert.deepEqual(r.asked, ['w before', 'w first']);
  });

  it('once quota went back: what was returned after the window’s start, and the newest row left', () => {
    const r = reads({ before, first, returned: 15, newestAt: 4000 });
    assert.deepEqual(windowFacts(head(9, 100, 5000, 20), true, r.read, 'w'), { used: 25, oldestAt: 1200, newestAt: 4000 });
    assert.deepEqual(r.asked, ['w before', 'w first', 'w returnedAfter 6', 'w newestAt']);
    const quick = reads({ first, returned: 15 });
    assert.equal(windowFacts(head(9, 100, 5000, 20), false, quick.read, 'w').used, 25);
    assert.deepEqual(quick.asked, ['w before', 'w first', 'w returnedAfter 6']);
  });
});

describe('running-total ledger: block sums of returned quota', () => {
  const F = RETURN_FANOUT;

  /** Sums returned rows after `s` the way a store does: blocks per returnRanges. */
  function sumAfter(returned: Map<number, number>, s: number, headSeq: number): number {
    const blocks = new Map<string, number>();
    for (const [seq, amount] of returned)
      for (const b of returnBlocks(seq)) blocks.set(`${b.level}:${b.idx}`, (blocks.get(`${b.level}:${b.idx}`) ?? 0) + amount);
    let total = 0;
    for (const r of returnRanges(s, headSeq)) for (let i = r.from; i <= r.to; i++) total += blocks.get(`${r.level}:${i}`) ?? 0;
    return total;
  }

  it('a return adds to the row and to one block per level above it', () => {
    assert.deepEqual(
      returnBlocks(F * F + 3).map((b) => [b.level, b.idx]),
      [
        [0, F * F + 3],
        [1, F],
        [2, 1],
        [3, 0],
        [4, 0],
        [5, 0],
      ],
    );
    assert.equal(returnBlocks(1).length, RETURN_LEVELS + 1);
  });

  it('the ranges after any seq add up exactly what was returned to later rows (every split point, up to 3 levels deep)', () => {
    const headSeq = F * F * 2 + 37;
    const returned = new Map<number, number>();
    for (let seq = 1; seq <= headSeq; seq += 7) returned.set(seq, (seq % 5) + 1);
    for (let s = 0; s <= headSeq; s++) {
      let want = 0;
      for (const [seq, a] of returned) if (seq > s) want += a;
      assert.equal(sumAfter(returned, s, headSeq), want, `after seq ${s}`);
    }
  });

  it('reads few ranges: at most one per level, each within one parent', () => {
    const ranges = returnRanges(3, 1_000_000);
    assert.ok(ranges.length <= RETURN_LEVELS + 1);
    for (const r of ranges.slice(0, -1)) assert.ok(r.to - r.from < F, `level ${r.level} spans ${r.to - r.from + 1} blocks`);
    assert.deepEqual(returnRanges(9, 9), []);
    assert.deepEqual(returnRanges(3, 7), [{ level: 0, from: 4, to: 7 }]);
  });

  it('pruning keeps every block a later window can ask for', () => {
    const firstSeq = F * F + 5;
    const keep = prunableReturnBlocks(firstSeq);
    for (let s = firstSeq - 1; s < firstSeq + 3 * F; s++) {
      for (const r of returnRanges(s, F * F * F)) assert.ok(r.from >= keep[r.level]!, `seq ${s}: level ${r.level} from ${r.from} < ${keep[r.level]}`);
    }
  });
});

describe('running-total ledger: appending a consume', () => {
  it('continues seq and cum after the head', () => {
    const a = ledgerAppend('subscription_credit', head(4, 30, 1000), 7, 2000);
    assert.deepEqual({ ...a, prune: null }, { kind: 'subscription_credit', at: 2000, seq: 5, amount: 7, cum: 37, createsHead: false, prune: null });
  });

  it('never runs time backwards: a clock stepped back appends at the head time', () => {
    assert.equal(ledgerAppend('free_periodic_credit', head(4, 30, 5000), 1, 4000).at, 5000);
  });

  it('without a head, starts at seq 1 and asks for the head row to be created', () => {
    const a = ledgerAppend('free_periodic_credit', undefined, 3, 100);
    assert.equal(a.seq, 1);
    assert.equal(a.cum, 3);
    assert.equal(a.createsHead, true);
  });
});

describe('running-total ledger: pruning policy', () => {
  it(`prunes every ${ledgerPruning.every}th append only`, () => {
    assert.equal(pruneAfter(ledgerPruning.every - 1, DAY * 100), null);
    assert.notEqual(pruneAfter(ledgerPruning.every, DAY * 100), null);
    assert.equal(pruneAfter(ledgerPruning.every + 1, DAY * 100), null);
    assert.equal(ledgerAppend('subscription_credit', head(ledgerPruning.every - 1, 0, 0), 1, 0).prune !== null, true);
  });

  it('keeps the longest window there can be, 366 days, whatever windows the user held', () => {
    const now = 400 * DAY;
    assert.deepEqual(pruneAfter(ledgerPruning.every, now), { cutoff: now - 366 * DAY, batch: ledgerPruning.batch });
  });
});
