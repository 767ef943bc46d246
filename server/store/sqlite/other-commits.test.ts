import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { immediate, openDatabase } from './open.ts';
import { otherCommitsSignal } from './other-commits.ts';

const nextTurn = () => new Promise((r) => setImmediate(r));

describe("the SQLite caches' invalidation signal (PRAGMA data_version)", () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-other-commits-'));
  const path = join(dir, 'g.db');
  const db = openDatabase(path);
  const other = openDatabase(path);
  after(() => {
    db.close();
    other.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('says true on its first call, then false until another connection commits', async () => {
    const signal = otherCommitsSignal(db);
    assert.equal(signal(), true);
    assert.equal(signal(), false);
    await nextTurn();
    assert.equal(signal(), false);
    db.prepare("INSERT INTO realms (id, name, created_at) VALUES ('own', 'own', 0)").run();
    await nextTurn();
    assert.equal(signal(), false, "the connection's own commits are not others'");
    other.prepare("INSERT INTO realms (id, name, created_at) VALUES ('other', 'other', 0)").run();
    await nextTurn();
    assert.equal(signal(), true);
    assert.equal(signal(), false);
  });

  it("every cache's signal on the connection hears of the same commit, though data_version is read once per turn", async () => {
    const a = otherCommitsSignal(db);
    const b = otherCommitsSignal(db);
    a();
    b();
    await nextTurn();
    other.prepare("INSERT INTO realms (id, name, created_at) VALUES ('other2', 'other2', 0)").run();
    await nextTurn();
    assert.equal(a(), true);
    assert.equal(b(), true);
    // Within the turn the answer is the one already read: a commit now is seen next turn.
    other.prepare("INSERT INTO realms (id, name, created_at) VALUES ('other3', 'other3', 0)").run();
    assert.equal(a(), false);
    await nextTurn();
    assert.equal(a(), true);
  });

  it('is exact inside a write transaction: a commit made after this turn read data_version is heard after BEGIN', async () => {
    const signal = otherCommitsSignal(db);
    signal();
    await nextTurn();
    // The unit is queued first, so it runs before this turn's answer is let go…
    const heard = immediate(db, () => signal());
    assert.equal(signal(), false); // …and this turn has now read data_version.
    other.prepare("INSERT INTO realms (id, name, created_at) VALUES ('other4', 'other4', 0)").run();
    assert.equal(await heard, true);
  });

  it('drops every cache of the connection when a unit of its own rolls back (what it had cached of its own writes is gone)', async () => {
    const signal = otherCommitsSignal(db);
    signal();
    await assert.rejects(
      immediate(db, () => {
        db.prepare("INSERT INTO realms (id, name, created_at) VALUES ('rolled', 'rolled', 0)").run();
        throw new Error('the unit fails');
      }),
    );
    assert.equal(signal(), true);
    assert.equal(signal(), false);
  });
});
