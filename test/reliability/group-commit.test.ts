// Group commit (server/store/sqlite/group-commit.ts): use cases queued in one turn share a transaction,
// yet each stays all or nothing, and nothing is acknowledged before COMMIT.

import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { AnswerTurns } from '../../server/lib/answer-turns.ts';
import { waitForAnswers } from '../../server/store/sqlite/group-commit.ts';
import { type Db, immediate, openDatabase } from '../../server/store/sqlite/open.ts';
import { tempDir } from '../helpers/server.ts';

describe('group commit', () => {
  let dir: string;
  let path: string;
  let db: Db;
  let other: Db; // a second connection: what another process sees
  const answers = new AnswerTurns(); // what the gRPC server marks
  before(() => {
    dir = tempDir();
    path = join(dir, 'g.db');
    db = openDatabase(path);
    waitForAnswers(db, answers);
    db.exec('CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER NOT NULL)');
    other = new Database(path);
    other.pragma('busy_timeout = 0');
  });
  after(() => {
    other.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const rows = () => other.prepare('SELECT k, v FROM t ORDER BY k').all() as Array<{ k: string; v: number }>;
  const put = (k: string, v: number) => db.prepare('INSERT INTO t (k, v) VALUES (?, ?)').run(k, v);

  it('commits the units of one turn together; each sees the ones before it', async () => {
    db.exec('DELETE FROM t');
    const results = await Promise.all([
      immediate(db, () => (put('a', 1), 'first')),
      immediate(db, () => {
        const a = db.prepare('SELECT v FROM t WHERE k = ?').pluck().get('a') as number;
        put('b', a + 1);
        return a;
      }),
    ]);
    assert.deepEqual(results, ['first', 1]);
    assert.deepEqual(rows(), [
      { k: 'a', v: 1 },
      { k: 'b', v: 2 },
    ]);
  });

  it('rolls back only the unit that throws; the others of the batch commit', async () => {
    db.exec('DELETE FROM t');
    const [ok1, bad, ok2] = await Promise.allSettled([
      immediate(db, () => put('x', 1)),
      immediate(db, () => {
        put('half', 1); // written, then undone with the rest of this unit
        throw new Error('refused');
      }),
      immediate(db, () => put('y', 2)),
    ]);
    assert.equal(ok1.status, 'fulfilled');
    assert.equal(bad.status, 'rejected');
    assert.equal((bad as PromiseRejectedResult).reason.message, 'refused');
    assert.equal(ok2.status, 'fulfilled');
    assert.deepEqual(rows(), [
      { k: 'x', v: 1 },
      { k: 'y', v: 2 },
    ]);
  });

  it('settles a unit only once its writes are committed (visible to another connection)', async () => {
    db.exec('DELETE FROM t');
    let seenAtResolve: unknown[] = [];
    await immediate(db, () => put('z', 9)).then(() => {
      seenAtResolve = rows();
    });
    assert.deepEqual(seenAtResolve, [{ k: 'z', v: 9 }]);
  });

  it('fails every unit, and keeps none of their writes, when the write lock cannot be had', async () => {
    db.exec('DELETE FROM t');
    db.pragma('busy_timeout = 50');
    other.exec('BEGIN IMMEDIATE'); // another process holds the write lock
    try {
      const settled = await Promise.allSettled([immediate(db, () => put('p', 1)), immediate(db, () => put('q', 2))]);
      for (const s of settled) {
        assert.equal(s.status, 'rejected');
        assert.equal((s as PromiseRejectedResult).reason.code, 'SQLITE_BUSY');
      }
    } finally {
      other.exec('ROLLBACK');
      db.pragma('busy_timeout = 5000');
    }
    assert.deepEqual(rows(), []);
    // And the queue carries on once the lock is free.
    await immediate(db, () => put('r', 3));
    assert.deepEqual(rows(), [{ k: 'r', v: 3 }]);
  });

  it('fails the whole batch when the transaction is lost under a unit, earlier units included', async () => {
    db.exec('DELETE FROM t');
    const settled = await Promise.allSettled([
      immediate(db, () => put('early', 1)),
      immediate(db, () => {
        db.exec('ROLLBACK'); // what SQLITE_FULL or SQLITE_IOERR does to a transaction
        throw new Error('disk full');
      }),
      immediate(db, () => put('late', 1)),
    ]);
    assert.deepEqual(
      settled.map((s) => s.status),
      ['rejected', 'rejected', 'rejected'],
    );
    assert.deepEqual(rows(), [], 'nothing acknowledged, nothing kept');
    assert.equal(db.inTransaction, false);
  });

  // Turns of the event loop (setImmediate rounds) until `p` settles.
  const turnsUntil = async (p: Promise<unknown>, eachTurn: () => void = () => {}): Promise<number> => {
    let turns = 0;
    let done = false;
    const tick = () => {
      if (done) return;
      turns++;
      eachTurn();
      setImmediate(tick);
    };
    setImmediate(tick);
    await p;
    done = true;
    return turns;
  };

  it('starts a batch one turn late after gRPC answers (their trailers go first), and only once', async () => {
    db.exec('DELETE FROM t');
    const plain = await turnsUntil(immediate(db, () => put('a', 1)));
    answers.answeredThisTurn();
    const afterAnswers = await turnsUntil(immediate(db, () => put('b', 2)));
    assert.equal(afterAnswers, plain + 1);
    // Answers in every turn (a busy gRPC server) still delay a batch by one turn, not for ever.
    // (Marks stop after 20 turns, so a batch that waited for a quiet turn fails here, not hangs.)
    let marks = 0;
    answers.answeredThisTurn();
    const underStream = await turnsUntil(
      immediate(db, () => put('c', 3)),
      () => {
        if (++marks < 20) answers.answeredThisTurn();
      },
    );
    assert.equal(underStream, plain + 1);
    answers.takeAnswered();
    assert.deepEqual(rows(), [
      { k: 'a', v: 1 },
      { k: 'b', v: 2 },
      { k: 'c', v: 3 },
    ]);
  });

  it("does not wait for the answers of another server's gRPC (each server has its own signal)", async () => {
    db.exec('DELETE FROM t');
    const plain = await turnsUntil(immediate(db, () => put('a', 1)));
    new AnswerTurns().answeredThisTurn();
    const afterOthers = await turnsUntil(immediate(db, () => put('b', 2)));
    assert.equal(afterOthers, plain);
  });
});
