import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nextPurgeDelete, PURGE_TABLES, type PurgeDone, purgeApplies, purgeOutcome } from './purge.ts';

/** A batch size of the tests' own, round for reading; the server's is PURGE_BATCH_ROWS. */
const ROWS = 1000;

/** Runs a batch as a store does against `rows` (rows left per table), returning its deletes. */
function batch(rows: Map<string, number>, accountDeleted = true, batchRows = ROWS): PurgeDone[] {
  const done: PurgeDone[] = [];
  for (let d = nextPurgeDelete(accountDeleted, done, batchRows); d !== null; d = nextPurgeDelete(accountDeleted, done, batchRows)) {
    const deleted = Math.min(d.limit, rows.get(d.table) ?? 0);
    rows.set(d.table, (rows.get(d.table) ?? 0) - deleted);
    done.push({ ...d, deleted });
  }
  return done;
}

describe('account purge plan', () => {
  it('deletes at most the batch size per batch, table after table, until every table is found empty', () => {
    const rows = new Map<string, number>([
      ['points_idempotency', 30],
      ['points_transactions', 2500],
      ['points_usage_ledger', 700],
    ]);
    const batches: Array<{ deleted: number; finished: boolean }> = [];
    for (let i = 0; i < 10 && !batches.at(-1)?.finished; i++) batches.push(purgeOutcome(true, batch(rows)));
    assert.deepEqual(batches, [
      { deleted: 1000, finished: false },
      { deleted: 1000, finished: false },
      { deleted: 1000, finished: false },
      { deleted: 230, finished: true },
    ]);
    assert.ok([...rows.values()].every((n) => n === 0));
  });

  it('gives each delete what is left of the batch, and stops once it is spent', () => {
    const done = batch(
      new Map([
        ['points_idempotency', 30],
        ['points_transactions', 5000],
      ]),
    );
    assert.deepEqual(
      done.map((d) => [d.table, d.limit, d.deleted]),
      [
        ['points_idempotency', 1000, 30],
        ['points_transactions', 970, 970],
      ],
    );
    assert.equal(nextPurgeDelete(true, done, ROWS), null);
  });

  it('finds an account with no rows left finished in one batch of empty deletes, one per table', () => {
    const done = batch(new Map());
    assert.deepEqual(
      done.map((d) => d.table),
      [...PURGE_TABLES],
    );
    assert.deepEqual(purgeOutcome(true, done), { deleted: 0, finished: true });
  });

  it('is not finished when the last table took exactly what it was given (rows may be left): the next batch finds out', () => {
    const rows = new Map([
      ['points_alert_state', 0],
      ['points_transactions', 1000],
    ]);
    assert.deepEqual(purgeOutcome(true, batch(rows)), { deleted: 1000, finished: false });
    assert.deepEqual(purgeOutcome(true, batch(rows)), { deleted: 0, finished: true });
  });

  it('deletes nothing of an account that is not deleted, and is done with it', () => {
    assert.equal(nextPurgeDelete(false, []), null);
    assert.deepEqual(purgeOutcome(false, []), { deleted: 0, finished: true });
  });
});

describe('which account a purge acts on', () => {
  it('only on one marked deleted: not a live account, nor one without a row', () => {
    assert.equal(purgeApplies(1_700_000_000_000), true);
    assert.equal(purgeApplies(0), true);
    assert.equal(purgeApplies(null), false);
    assert.equal(purgeApplies(undefined), false);
  });
});
