// A database written by an earlier build may hold windows longer than 366 days, which that build
// accepted: upgrading brings them down to the longest allowed, so the users' summaries answer again.

import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { api } from '../helpers/http.ts';
import { startInProcess, tempDir } from '../helpers/server.ts';
import { createRealm, createUser, w } from '../points/helpers.ts';

const TOO_LONG = 9007199254740991;
const LONGEST = 31_622_400;

describe('upgrading a database that holds windows longer than 366 days', () => {
  const dir = tempDir();

  it('brings every stored window down to 366 days, and the summary answers', async () => {
    const first = await startInProcess({ dir });
    const h = api(first.http, first.adminKey);
    await createRealm(h, 'old');
    const userId = await createUser(h, 'old', 'old@example.com');
    assert.equal(
      (await h.put('/api/points/old/default-config', { freePeriodicPointsAmount: 0, freePeriodicQuotaWindows: [w(3600, 5), w(86_400, 50)] })).status,
      200,
    );
    assert.equal((await h.get(`/api/points/old/users/${userId}/summary`)).status, 200); // materialises the entitlement
    await first.stop();

    // What the earlier build let through, written as it stored it; the upgrade has not run yet.
    const db = new Database(first.dbPath);
    const bad = JSON.stringify([w(3600, 5), w(TOO_LONG, 50)]);
    db.prepare('UPDATE points_default_config SET free_periodic_quota_windows = ?').run(bad);
    db.prepare('UPDATE points_window_entitlements SET windows = ?').run(bad);
    db.prepare('DELETE FROM schema_migrations WHERE version = 6').run();
    db.close();

    const upgraded = await startInProcess({ dir, dbPath: first.dbPath });
    try {
      const u = api(upgraded.http, upgraded.adminKey);
      const s = await u.get(`/api/points/old/users/${userId}/summary`);
      assert.equal(s.status, 200, s.text);
      assert.deepEqual(
        s.body.windows.map((r: { windowSeconds: number; limit: number }) => [r.windowSeconds, r.limit]),
        [
          [3600, 5],
          [LONGEST, 50],
        ],
      );
      const cfg = await u.get('/api/points/old/default-config');
      assert.deepEqual(cfg.body.freePeriodicQuotaWindows, [w(3600, 5), w(LONGEST, 50)]);
    } finally {
      await upgraded.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
