// The copy module (server/store/copy.ts) over real databases, at an instant the CLI cannot choose:
// when a grant falls due that no call has materialised yet. Both sides must materialise it to
// answer their summaries, and neither may keep it: the source is never written, and the target
// holds exactly the source's rows. And a copy whose rows do not read back as the source's is
// refused by the summary check and rolled back.

import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SecretBox } from '../../server/crypto/secrets.ts';
import { consumedEventId } from '../../server/points/events.ts';
import { type CopyProgress, type CopyTarget, copyDatabase } from '../../server/store/copy.ts';
import { openPostgresSource, openPostgresTarget } from '../../server/store/postgres/copy.ts';
import { openSqliteSource, openSqliteTarget } from '../../server/store/sqlite/copy.ts';
import { openDatabase } from '../../server/store/sqlite/open.ts';
import { sqliteStores } from '../../server/store/sqlite/stores.ts';
import { planAccountDeletion } from '../../server/users/deletion.ts';
import { freshDatabase, postgresUnavailable, type TestDatabase } from '../helpers/postgres.ts';
import { tempDir } from '../helpers/server.ts';
import { subscribeToEveryEvent, withStores } from '../helpers/stores.ts';
import { DAY, seedUser, T0 } from './contract.ts';

const skip = postgresUnavailable() ?? undefined;
const REALM = 'r';
const USERS = ['usr_a', 'usr_b', 'usr_c'];
const GONE = 'usr_gone';
/** Past the first month's end: the second month's free grant is due, and not materialised. */
const LATER = T0 + 45 * DAY;
const quiet: CopyProgress = { begin() {}, advance() {}, end() {}, note() {} };

/** Every user's balances as stored (reading materialises nothing): ids, so a row added shows. */
async function storedBalances(db: string): Promise<Record<string, string[]>> {
  return withStores(db, async (s) => {
    const out: Record<string, string[]> = {};
    for (const u of USERS) out[u] = (await s.points.listBalances(REALM, u)).map((b) => b.id);
    return out;
  });
}

describe('copyDatabase', { skip }, () => {
  const dir = tempDir();
  const sqlite = join(dir, 'source.db');
  let pg: TestDatabase;
  let stored: Record<string, string[]>;

  before(async () => {
    pg = await freshDatabase('copymod');
    const db = openDatabase(sqlite);
    const s = sqliteStores(db, SecretBox.ephemeral());
    await s.admin.createRealm({ id: REALM, name: 'R', createdAt: T0 });
    await s.points.putDefaultConfig(
      REALM,
      {
        registrationBonusPoints: 20,
        freePeriodicPointsAmount: 100,
        freePeriodicGrantPeriodType: 'monthly',
        freePeriodicValidityDays: 31,
      },
      T0,
    );
    for (const id of USERS) {
      await seedUser(s, REALM, { id });
      await s.points.grantRegistration(REALM, id, T0);
    }
    // Owed to an endpoint and not yet handed out: the consume's event is a mark on its movement.
    await subscribeToEveryEvent(s, REALM, T0);
    await s.points.consume(
      { realmId: REALM, userId: 'usr_a', amount: 4, description: null, idempotencyKey: null, requestHash: 'h', transactionId: 'ptx_a' },
      T0,
    );
    // A deleted account: its row and tombstone are copied, it has no summary to compare.
    await s.users.createUser({
      id: GONE,
      realmId: REALM,
      email: 'gone@example.com',
      emailVerified: true,
      givenName: null,
      familyName: null,
      createdAt: T0,
      updatedAt: T0,
      disabledAt: null,
    });
    const request = { realmId: REALM, userId: GONE, actor: { type: 'system' as const, id: 'test' }, requestId: null };
    assert.ok(await s.users.deleteAccount(REALM, GONE, (snapshot) => planAccountDeletion(snapshot, request, T0, [])));
    db.close();
    stored = await storedBalances(sqlite);
  });
  after(async () => {
    await pg?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('copies SQLite to PostgreSQL when grants are due: both sides answer with them, neither keeps them', async () => {
    const source = await openSqliteSource(sqlite, quiet);
    const target = await openPostgresTarget(pg.url);
    let copied = false;
    try {
      const report = await copyDatabase(source, target, { force: false, batchRows: 2, now: LATER, progress: quiet });
      copied = true;
      assert.equal(report.usersChecked, USERS.length);
      // What the check faced: at LATER the first month's grant has expired and the next one, not
      // stored, is due (the snapshot's store materialises it to answer).
      const due = await (await source.points()).summary(REALM, 'usr_b', LATER);
      assert.equal(due.balances.freePeriodic, 100);
      assert.equal(stored.usr_b!.length, 2, 'registration and the first month only');
    } finally {
      await target.close(copied);
      await source.close();
    }
    assert.deepEqual(await storedBalances(sqlite), stored, 'the source is not written');
    assert.deepEqual(await storedBalances(pg.url), stored, 'the target holds the source rows, none more');
    await withStores(pg.url, async (s) => {
      assert.equal(await s.users.getUser(REALM, GONE), null, 'still deleted');
      assert.equal((await s.records.audit(REALM, { action: 'user.delete', targetId: GONE, limit: 5 })).length, 1, 'the audit log came along');
      const [owed] = await s.records.events(REALM, { type: 'points.consumed', limit: 5 });
      assert.deepEqual([owed?.id, owed?.data.transactionId], [consumedEventId('ptx_a'), 'ptx_a'], "the consume's event still owed");
      const handed: string[] = [];
      while ((await s.webhooks.dispatch(LATER, 100, (events) => (handed.push(...events.map((e) => e.id)), { deliveries: [], jobs: [] }))).events > 0);
      assert.ok(handed.includes(consumedEventId('ptx_a')), 'and handed out by the copy');
    });
  });

  it('copies PostgreSQL to SQLite when grants are due: both sides answer with them, neither keeps them', async () => {
    const back = join(dir, 'back.db');
    const source = await openPostgresSource(pg.url);
    const target = openSqliteTarget(back);
    let copied = false;
    try {
      const report = await copyDatabase(source, target, { force: false, batchRows: 2, now: LATER, progress: quiet });
      copied = true;
      assert.equal(report.usersChecked, USERS.length);
    } finally {
      await target.close(copied);
      await source.close();
    }
    assert.deepEqual(await storedBalances(pg.url), stored, 'the source is not written');
    assert.deepEqual(await storedBalances(back), stored, 'the target holds the source rows, none more');
  });

  it('refuses a copy whose balances read back otherwise than the source, and rolls it back', async () => {
    const empty = await freshDatabase('copymod');
    const source = await openSqliteSource(sqlite, quiet);
    const real = await openPostgresTarget(empty.url);
    // A writer that loses a point of one balance: what a faulty conversion would do.
    const faulty: CopyTarget = {
      ...real,
      write: (plan, rows) => {
        if (plan.name !== 'points_balances') return real.write(plan, rows);
        const at = plan.target.findIndex((c) => c.name === 'remaining');
        return real.write(
          plan,
          rows.map((r, i) => (i === 0 ? r.map((v, j) => (j === at ? (v as bigint) - 1n : v)) : r)),
        );
      },
    };
    try {
      await assert.rejects(copyDatabase(source, faulty, { force: false, batchRows: 100, now: T0 + DAY, progress: quiet }), (e: Error & { code?: string }) => {
        assert.equal(e.code, 'copy_check_failed');
        assert.match(e.message, /the copy answers other points summaries than the source: user usr_\w of realm r: source \{/);
        return true;
      });
    } finally {
      await real.close(false);
      await source.close();
    }
    await withStores(empty.url, async (s) => assert.deepEqual(await s.admin.listRealms(), []));
    await empty.drop();
  });
});
