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
  const first = { at: 1200, seq: 7, cum: 70, amount: 10 };

  it('nothing consumed yet (no head, or a head at seq 0) is 0 used, without times', () => {
    assert.ok(ledgerIsEmpty(undefined));
    assert.ok(ledgerIsEmpty(head(0, 0, 0)));
    assert.ok(!ledgerIsEmpty(head(1, 5, 10)));
    assert.deepEqual(windowUsage(undefined, undefined, 0, null), { used: 0, oldestAt: null, newestAt: null });
    assert.deepEqual(windowUsage(head(0, 0, 0), undefined, 0, null), { used: 0, oldestAt: null, newestAt: null });
  });

  it('used = cum now − cum at the start, the first row after it less its own amount, with the times handed in', () => {
    assert.deepEqual(windowUsage(head(9, 100, 5000), first, 0, times(1200, 5000)), { used: 40, oldestAt: 1200, newestAt: 5000 });
  });

  it('nothing after the start: 0 used, no recovery times', () => {
    assert.deepEqual(windowUsage(head(9, 100, 5000), undefined, 0, times(null, 5000)), { used: 0, oldestAt: null, newestAt: null });
    assert.deepEqual(windowUsage(head(9, 100, 5000), undefined, 0, null), { used: 0, oldestAt: null, newestAt: null });
  });

  it('subtracts what went back to rows inside the window; all of it back is 0 used', () => {
    assert.equal(windowUsage(head(9, 100, 5000, 15), first, 15, null).used, 25);
    assert.deepEqual(windowUsage(head(9, 100, 5000, 40), first, 40, times(1200, null)), { used: 0, oldestAt: null, newestAt: null });
  });

  it('the window starts just before the first row after it, else at the head', () => {
    assert.equal(seqBeforeWindow(head(9, 100, 5000), first), 6);
    assert.equal(seqBeforeWindow(head(9, 100, 5000), undefined), 9);
  });

  it('answers what the rows left in the window hold, through appends, returns (rows given back whole are deleted) and prunes', () => {
    // A ledger kept as the stores keep it, against the sum over the rows inside each window of
    // what is left of them: 2 000 random operations, checked after each for 5 window starts.
    let seed = 42;
    const random = () => {
      seed = (seed * 48_271) % 2_147_483_647; // MINSTD: the same run every time
      return seed / 2_147_483_647;
    };
    interface Row {
      at: number;
      seq: number;
      cum: number;
      amount: number;
      returned: number;
    }
    const rows = new Map<number, Row>(); // by seq, the rows left
    const returnedTo = new Map<number, number>(); // by seq: the block sums' level 0, deleted rows' kept
    let h: LedgerHead | undefined;
    let now = 1_000;
    // The case the first row alone has to answer for: rows given back whole between the last one
    // left at or before the start and the first after it.
    let gaps = 0;
    let used = 0;
    for (let step = 0; step < 2_000; step++) {
      now += Math.floor(random() * 50);
      const r = random();
      if (r < 0.6 || rows.size === 0) {
        const a = ledgerAppend('subscription_credit', h, 1 + Math.floor(random() * 9), now - Math.floor(random() * 30)); // a clock a little behind sometimes
        rows.set(a.seq, { at: a.at, seq: a.seq, cum: a.cum, amount: a.amount, returned: 0 });
        h = { seq: a.seq, cum: a.cum, lastAt: a.at, returned: h?.returned ?? 0 };
      } else if (r < 0.9) {
        const left = [...rows.values()];
        const row = left[Math.floor(random() * left.length)]!;
        const back = random() < 0.5 ? row.amount - row.returned : 1 + Math.floor(random() * (row.amount - row.returned));
        row.returned += back;
        returnedTo.set(row.seq, (returnedTo.get(row.seq) ?? 0) + back);
        if (row.returned === row.amount) rows.delete(row.seq);
        h = { ...h!, returned: h!.returned + back };
      } else {
        // A prune: the oldest rows up to a cutoff, the blocks before what is kept go with them.
        const cutoff = now - 400;
        for (const row of [...rows.values()].sort((x, y) => x.seq - y.seq)) {
          if (row.at > cutoff) break;
          rows.delete(row.seq);
        }
      }
      for (const back of [30, 100, 250, 400]) {
        const from = now - back;
        if (from < now - 400) continue;
        const after = [...rows.values()].filter((row) => row.at > from).sort((x, y) => x.seq - y.seq);
        const truth = after.reduce((sum, row) => sum + row.amount - row.returned, 0);
        const before = [...rows.values()].filter((row) => row.at <= from).sort((x, y) => y.seq - x.seq)[0];
        if (before !== undefined && after[0] !== undefined && before.seq !== after[0].seq - 1) gaps++;
        if (truth > 0) used++;
        const read: WindowReads<null> = {
          first: () => after[0],
          returnedAfter: (_q, s) => [...returnedTo].reduce((sum, [seq, amount]) => (seq > s ? sum + amount : sum), 0),
          newestAt: () => null,
        };
        assert.equal(windowFacts(h, false, read, null).used, truth, `step ${step}, window from ${from}`);
      }
    }
    assert.ok(gaps > 100 && used > 1_000, `${gaps} windows after rows given back whole, ${used} with something used`);
  });
});

describe('running-total ledger: which facts a window takes', () => {
  /** Reads answering these facts, recording which were asked (and the seq returnedAfter was asked at). */
  const reads = (f: { first?: { at: number; seq: number; cum: number; amount: number }; returned?: number; newestAt?: number }) => {
    const asked: string[] = [];
    const read: WindowReads<string> = {
      first: (q) => (asked.push(`${q} first`), f.first),
      returnedAfter: (q, s) => (asked.push(`${q} returnedAfter ${s}`), f.returned ?? 0),
      newestAt: (q) => (asked.push(`${q} newestAt`), f.newestAt ?? null),
    };
    return { read, asked };
  };
  const first = { at: 1200, seq: 7, cum: 70, amount: 10 };

  it('reads nothing when nothing was ever consumed from the kind', () => {
    for (const h of [undefined, head(0, 0, 0)]) {
      const r = reads({ first });
      assert.deepEqual(windowFacts(h, true, r.read, 'w'), { used: 0, oldestAt: null, newestAt: null });
      assert.deepEqual(r.asked, []);
    }
  });

  it('without the times, the first row after the start alone answers used', () => {
    const r = reads({ first });
    assert.deepEqual(windowFacts(head(9, 100, 5000), false, r.read, 'w'), { used: 40, oldestAt: null, newestAt: null });
    assert.deepEqual(r.asked, ['w first']);
  });

  it('with the times: the oldest is the row after the start, the newest the head’s while nothing went back', () => {
    const r = reads({ first, newestAt: 4000 });
    assert.deepEqual(windowFacts(head(9, 100, 5000), true, r.read, 'w'), { used: 40, oldestAt: 1200, newestAt: 5000 });
    assert.deepEqual(r.asked, ['w first']);
  });

  it('once quota went back: what was returned after the window’s start, and the newest row left', () => {
    const r = reads({ first, returned: 15, newestAt: 4000 });
    assert.deepEqual(windowFacts(head(9, 100, 5000, 20), true, r.read, 'w'), { used: 25, oldestAt: 1200, newestAt: 4000 });
    assert.deepEqual(r.asked, ['w first', 'w returnedAfter 6', 'w newestAt']);
    const quick = reads({ first, returned: 15 });
    assert.equal(windowFacts(head(9, 100, 5000, 20), false, quick.read, 'w').used, 25);
    assert.deepEqual(quick.asked, ['w first', 'w returnedAfter 6']);
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
