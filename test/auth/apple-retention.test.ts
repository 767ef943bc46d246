// What the periodic sweep keeps of Apple notifications and deleted accounts (docs/login.md "Apple
// server notifications", docs/events.md "Retention"): a processed notification's jti for exactly
// 30 days (a replay inside them changes nothing; after them and a sweep, the same notification is
// processed again), and a deleted account's tombstone for good (after sweeps past 30 and 400 days
// the same Apple subject signing in again is a new account without a second registration credit,
// and the tombstone's rows are still there). The server's clock is manual; the test runs the sweep.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, it } from 'node:test';
import { ManualClock } from '../../server/lib/clock.ts';
import { NOTIFICATION_JTI_RETENTION_MS } from '../../server/users/apple-notification.ts';
import { describeEachBackend } from '../helpers/backends.ts';
import { http } from '../helpers/http.ts';
import { type RawDb, rawDb } from '../helpers/raw-db.ts';
import type { InProcessServer } from '../helpers/server.ts';
import { type AuthFixture, authFixture, REALM } from './fixture.ts';

const DAY = 86_400_000;

describeEachBackend('what the sweeps keep of Apple notifications and deleted accounts', (backend) => {
  const clock = new ManualClock(Date.UTC(2026, 10, 1));
  let f: AuthFixture;
  let db: RawDb;
  const sweep = () => (f.srv as InProcessServer).running.sweeper.runOnce();
  const seconds = () => Math.floor(clock.now() / 1000);

  before(async () => {
    f = await authFixture({ backend, inProcess: { clock, tuning: { sweepIntervalMs: 3_600_000, jobIntervalMs: 3_600_000 } } });
    const bonus = await f.admin.put(`/api/points/${REALM}/default-config`, { registrationBonusPoints: 100 });
    assert.equal(bonus.status, 200, bonus.text);
    db = await rawDb(f.srv.dbPath, backend);
  });
  after(async () => {
    await db.close();
    await f.close();
  });

  const appleLogin = async (sub: string) => {
    const r = await f.login('apple', { identityToken: await f.apple.token({ sub }, { now: seconds() }), clientId: 'app' });
    assert.equal(r.status, 200, r.text);
    return r.body as { userId: string; accessToken: string };
  };
  /** A notification as Apple signs it, valid for 40 days (longer than its jti is kept). */
  const notification = (type: string, sub: string) =>
    f.apple.token({ sub: undefined, jti: randomUUID(), events: JSON.stringify({ type, sub, event_time: clock.now() }) }, { now: seconds(), ttl: 40 * 86_400 });
  const post = async (payload: string) => {
    const r = await http(f.srv.http, 'POST', `/api/oauth/${REALM}/apple/notifications`, { body: { payload } });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, {});
  };
  const forwarding = async (userId: string) => {
    const user = await f.admin.get(`/api/admin/realms/${REALM}/users/${userId}`);
    assert.equal(user.status, 200, user.text);
    return user.body.identities[0].emailForwarding as string;
  };

  it("keeps a notification's jti 30 days: a replay inside them changes nothing, one after them and a sweep is processed again", async () => {
    assert.equal(NOTIFICATION_JTI_RETENTION_MS, 30 * DAY);
    const start = clock.now();
    const { userId } = await appleLogin('jti-kept');
    const disabled = await notification('email-disabled', 'jti-kept');
    await post(disabled);
    assert.equal(await forwarding(userId), 'disabled');
    await post(await notification('email-enabled', 'jti-kept'));
    assert.equal(await forwarding(userId), 'enabled');

    clock.set(start + 30 * DAY - 1000);
    await sweep();
    await post(disabled);
    assert.equal(await forwarding(userId), 'enabled', 'a replay inside the 30 days is refused as one');

    clock.set(start + 30 * DAY + 1000);
    assert.ok((await sweep()).appleNotifications! >= 1);
    await post(disabled);
    assert.equal(await forwarding(userId), 'disabled', 'its jti forgotten, the notification is new again');
  });

  it("keeps a deleted account's tombstone through sweeps past 30 and 400 days: the same subject signing in again is a new account without a second registration credit", async () => {
    const start = clock.now();
    const first = await appleLogin('tombstone-kept');
    const registration = async (userId: string) => {
      const summary = await f.admin.get(`/api/points/${REALM}/users/${userId}/summary`);
      assert.equal(summary.status, 200, summary.text);
      return summary.body.balances.registration as number;
    };
    assert.equal(await registration(first.userId), 100);
    const deleted = await http(f.srv.http, 'DELETE', `/api/oauth/${REALM}/me`, { token: first.accessToken });
    assert.equal(deleted.status, 200, deleted.text);
    // The tombstone and its identity's hash (what the registration credit is given once by).
    const tombstones = async () => [
      await db.count('SELECT count(*) FROM user_tombstones WHERE user_id = $1', [first.userId]),
      await db.count('SELECT count(*) FROM deleted_subjects WHERE user_id = $1', [first.userId]),
    ];
    assert.deepEqual(await tombstones(), [1, 1]);

    for (const days of [31, 401, 800]) {
      clock.set(start + days * DAY);
      await sweep();
      assert.deepEqual(await tombstones(), [1, 1], `kept after a sweep ${days} days on`);
      assert.equal((await f.admin.get(`/api/admin/realms/${REALM}/users/${first.userId}`)).status, 404, 'still deleted');
    }
    const again = await appleLogin('tombstone-kept');
    assert.notEqual(again.userId, first.userId, 'a new account');
    assert.equal(await registration(again.userId), 0, 'no second registration credit');
    assert.equal(await registration((await appleLogin('tombstone-never-deleted')).userId), 100, 'a new subject still gets it');
  });
});
