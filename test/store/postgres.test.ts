// What only the PostgreSQL backend has to show, beyond the storage contract suite it passes like
// SQLite: replicas that start together migrate once, a consume's round trips, races between
// replicas that the database settles, and `keys create --db URL` on an empty database reached the
// libpq way (host=/socket/dir, PG* variables for the rest).

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { authenticateApiKey } from '../../server/admin/api-keys.ts';
import { SecretBox } from '../../server/crypto/secrets.ts';
import type { Job } from '../../server/jobs/model.ts';
import { afterAttempt, claimed } from '../../server/jobs/retry.ts';
import { consumedEventId } from '../../server/points/events.ts';
import { prunableReturnBlocks, returnBlocks, returnRanges } from '../../server/points/ledger.ts';
import { freePeriodicGrantAt } from '../../server/points/periods.ts';
import { createClient } from '../../server/store/postgres/connect.ts';
import { listPostgresMigrations, migratePostgres } from '../../server/store/postgres/migrate.ts';
import { openPostgres } from '../../server/store/postgres/open.ts';
import { keptReturnBlocksSql, returnRangesSql } from '../../server/store/postgres/points-sql.ts';
import { postgresStores } from '../../server/store/postgres/stores.ts';
import type { TxCost } from '../../server/store/postgres/tx.ts';
import { planAccountDeletion } from '../../server/users/deletion.ts';
import { afterDeliveryAttempts, createdEndpoint, DELIVER, DELIVERY_POLICY, newDelivery, webhookAuditRecord } from '../../server/webhooks/model.ts';
import type { ClaimedAttempt } from '../../server/webhooks/store.ts';
import { runCli } from '../helpers/cli.ts';
import { freshDatabase, freshPostgresStores, postgresUnavailable, testPostgres, testPostgresOptions } from '../helpers/postgres.ts';
import { openStoresAt, subscribeToEveryEvent } from '../helpers/stores.ts';
import { DAY, HOUR, rejectsWith, type StoreFixture, seedRealm, seedUser, T0, unique } from './contract.ts';

const skip = postgresUnavailable() ?? undefined;

describe('PostgreSQL backend', { skip }, () => {
  it('migrates once when several replicas start together on an empty database, and each serves', async () => {
    const db = await freshDatabase();
    try {
      const pools = await Promise.all([1, 2, 3, 4].map(() => openPostgres(testPostgresOptions(db.url), () => {})));
      try {
        const realms = await Promise.all(
          pools.map((p, i) => postgresStores(p, { secrets: SecretBox.ephemeral() }).admin.createRealm({ id: `r${i}`, name: 'r', createdAt: T0 })),
        );
        assert.deepEqual(realms, [true, true, true, true]);
        assert.equal((await postgresStores(pools[0]!, { secrets: SecretBox.ephemeral() }).admin.listRealms()).length, 4);
      } finally {
        await Promise.all(pools.map((p) => p.end()));
      }
    } finally {
      await db.drop();
    }
  });

  it('upgrades a database of schema 6: the grants made appear in the history, the period already granted is not granted again, a consume made before stays listed and refundable', async () => {
    const db = await freshDatabase();
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      // Schema 6 as an earlier build left it, with a user's points in it.
      await client.query('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)');
      for (const m of listPostgresMigrations().filter((x) => x.version <= 6)) {
        await client.query(m.sql);
        await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, 0)', [m.version, m.name]);
      }
      const free = freePeriodicGrantAt('daily', 0, T0).source;
      await client.query(`INSERT INTO realms (id, name, created_at) VALUES ('old', 'old', ${T0});
        INSERT INTO users (id, realm_id, email, created_at) VALUES ('usr_old', 'old', 'old@example.com', ${T0});
        INSERT INTO points_default_config (realm_id, registration_bonus_points, free_periodic_points_amount, free_periodic_grant_period_type,
          free_periodic_validity_days, updated_at) VALUES ('old', 50, 5, 'daily', 0, ${T0});
        INSERT INTO points_balances (id, realm_id, user_id, kind, amount, remaining, source, created_at) VALUES
          ('bal_reg', 'old', 'usr_old', 'registration_credit', 50, 47, 'registration', ${T0}),
          ('bal_free', 'old', 'usr_old', 'free_periodic_credit', 5, 5, '${free}', ${T0});
        INSERT INTO points_transactions (id, realm_id, user_id, amount, description, allocations, created_at) VALUES
          ('ptx_old', 'old', 'usr_old', 3, 'old call', '[{"creditKind":"registration_credit","sourceId":"bal_reg","amount":3}]', ${T0 + 1})`);
      assert.equal(await migratePostgres(client), listPostgresMigrations().filter((x) => x.version > 6).length);
    } finally {
      await client.end();
    }
    const stores = await openStoresAt(db.url);
    try {
      const page = await stores.points.history({ realmId: 'old', userId: 'usr_old', pageSize: 10, after: null, kind: null }, T0 + 2);
      assert.deepEqual(page.transactions.map((t) => [t.kind, t.amount, t.description]).sort(), [
        ['consume', 3, 'old call'],
        ['grant', 5, 'Free periodic grant'],
        ['grant', 50, 'Registration credit'],
      ]);
      assert.equal((await stores.points.summary('old', 'usr_old', T0 + 3)).total, 52, 'the day’s free grant was given already');
      assert.equal((await stores.points.summary('old', 'usr_old', T0 + DAY)).total, 57, 'the next day’s is given');
      const refund = await stores.points.refund(
        { realmId: 'old', transactionId: 'ptx_old', amount: null, reason: null, idempotencyKey: null, requestHash: '', refundId: unique('rfd') },
        T0 + DAY,
      );
      assert.deepEqual([refund.refunded, refund.remaining.total], [3, 60], 'a consume made before the upgrade is refundable');
      assert.match(
        (await stores.users.appAccountTokenOf('usr_old')) ?? '',
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
        'migration 014 gave it a UUID',
      );
    } finally {
      await stores.close();
      await db.drop();
    }
  });

  describe('round trips', () => {
    const costs: Array<{ useCase: string; cost: TxCost }> = [];
    let s: StoreFixture;
    before(async () => {
      s = await freshPostgresStores((useCase, cost) => costs.push({ useCase, cost: { ...cost } }));
    });
    after(() => s.close());

    it('a consume costs two round trips (BEGIN with the lock and one read; one write statement with COMMIT) once the period is materialised', async () => {
      const realm = await seedRealm(s);
      // Window quota, a free periodic grant and a subscription's fixed grants: every read the rules need.
      await s.points.putDefaultConfig(realm, { freePeriodicQuotaWindows: [{ windowSeconds: 18000, limit: 50 }], freePeriodicGrantPeriodType: 'daily' }, T0);
      const user = await seedUser(s, realm);
      await s.points.grantRegistration(realm, user.id, T0);
      const [m] = await s.billing.applyMappingBatch(realm, 'stripe', 'pro', [{ entitlementKey: 'pro', pointsPerPeriod: 500, grantOnSubscribe: true }], T0);
      await s.billing.createSubscription({ realmId: realm, userId: user.id, mappingId: m!.id, externalSubscriptionId: null, id: unique('sub') }, T0);
      const consume = (i: number, key: string | null = null) =>
        s.points.consume(
          { realmId: realm, userId: user.id, amount: 7, description: null, idempotencyKey: key, requestHash: 'h', transactionId: unique('ptx') },
          T0 + i,
        );
      await consume(1); // the first call of this process for the user learns its grant sources and windows
      costs.length = 0;
      for (let i = 2; i < 12; i++) await consume(i, i % 2 ? `k${i}` : null);
      const consumes = costs.filter((c) => c.useCase === 'consume').map((c) => c.cost);
      assert.equal(consumes.length, 10);
      // BEGIN, lock, context and state | write with its outbox event, COMMIT (a prune every 16th
      // consume of a kind adds one).
      for (const c of consumes) assert.deepEqual(c, { statements: 5, roundTrips: 2 });
      const spent = (await s.points.summary(realm, user.id, T0 + 20)).windows[0]!.used;
      assert.equal(spent, 50, 'the window filled first, as on SQLite');
    });

    it('a grant costs two round trips too, and a summary two (it ends its transaction)', async () => {
      const realm = await seedRealm(s);
      const user = await seedUser(s, realm);
      const grant = () =>
        s.points.grant(
          {
            realmId: realm,
            userId: user.id,
            kind: 'topup_credit',
            amount: 5,
            expiresAt: null,
            idempotencyKey: null,
            requestHash: 'g',
            grantId: unique('grt'),
          },
          T0,
        );
      await grant();
      costs.length = 0;
      await grant();
      await s.points.summary(realm, user.id, T0);
      assert.deepEqual(
        costs.map((c) => [c.useCase, c.cost.roundTrips]),
        [
          ['grant', 2],
          ['summary', 2],
        ],
      );
    });
    it('a hold costs two round trips, and so do its settlement, release and reads on the replica that made it; a settlement kept under an idempotency key three, or made on another replica one more outside its transaction', async () => {
      const realm = await seedRealm(s);
      await s.points.putDefaultConfig(realm, { freePeriodicQuotaWindows: [{ windowSeconds: 18000, limit: 50 }], freePeriodicGrantPeriodType: 'daily' }, T0);
      const user = await seedUser(s, realm);
      await s.points.grantRegistration(realm, user.id, T0);
      await s.points.grant(
        { realmId: realm, userId: user.id, kind: 'topup_credit', amount: 100, expiresAt: null, idempotencyKey: null, requestHash: 'g', grantId: unique('grt') },
        T0,
      );
      const peer = await s.peer();
      // Each replica's first call for the user learns its grant sources and windows.
      await s.points.summary(realm, user.id, T0 + 1);
      await peer.points.summary(realm, user.id, T0 + 1);
      const hold = (amount: number, at: number) =>
        s.points.hold(
          { realmId: realm, userId: user.id, amount, ttlSeconds: 600, description: null, idempotencyKey: null, requestHash: 'h', holdId: unique('hld') },
          at,
        );
      const settle = (on: typeof s.points, holdId: string, amount: number, at: number, key: string | null = null) =>
        on.settle({ realmId: realm, holdId, amount, description: null, idempotencyKey: key, requestHash: 's', transactionId: unique('ptx') }, at);
      costs.length = 0;
      const h1 = await hold(10, T0 + 2);
      const st = await settle(s.points, h1.holdId, 4, T0 + 3);
      await settle(s.points, (await hold(10, T0 + 4)).holdId, 12, T0 + 5, 'settle-key');
      await settle(peer.points, (await hold(3, T0 + 6)).holdId, 1, T0 + 7);
      // Quota has gone back to the kind: its windows subtract what came back, in the same read.
      await s.points.consume(
        { realmId: realm, userId: user.id, amount: 2, description: null, idempotencyKey: null, requestHash: 'c', transactionId: unique('ptx') },
        T0 + 8,
      );
      await s.points.refund(
        { realmId: realm, transactionId: st.transactionId, amount: 2, reason: null, idempotencyKey: null, requestHash: 'r', refundId: unique('rfd') },
        T0 + 9,
      );
      const h5 = await hold(5, T0 + 10);
      await s.points.release({ realmId: realm, holdId: h5.holdId, idempotencyKey: null, requestHash: 'x', transactionId: unique('ptx') }, T0 + 11);
      await s.points.getHold(realm, h5.holdId, T0 + 12);
      await s.points.history({ realmId: realm, userId: user.id, pageSize: 5, after: null, kind: null }, T0 + 13);
      await s.points.summary(realm, user.id, T0 + 14);
      assert.deepEqual(
        costs.map((c) => [c.useCase, c.cost.statements, c.cost.roundTrips]),
        [
          // BEGIN, lock, context and state, the open holds counted | one write statement, the hold's
          // row, COMMIT.
          ['hold', 7, 2],
          // BEGIN, lock, context and state, the hold | give back, close, one write statement with its
          // outbox event, the state after, COMMIT.
          ['settle', 9, 2],
          // Quota has gone back to the kind since this replica's last read, which left out what
          // returns are read from: its windows are seeked again with them (one more round trip, once).
          ['hold', 8, 3],
          // Above the held amount (nothing goes back); the answer is kept before COMMIT: one more round trip.
          ['settle', 9, 3],
          ['hold', 7, 2],
          // The other replica reads the hold's user first, before its transaction (to wait its turn
          // at the user's gate, user-gate.ts): one round trip outside it; and seeks again as above.
          ['settle', 10, 3],
          ['consume', 5, 2],
          // BEGIN, lock, context and state, the transaction | give back, mark it, its movement, its
          // outbox event, the state after, COMMIT.
          ['refund', 10, 2],
          ['hold', 7, 2],
          ['release', 9, 2],
          ['getHold', 5, 2],
          // BEGIN, lock, context, the page | COMMIT.
          ['history', 5, 2],
          ['summary', 5, 2],
        ],
      );
      const sum = await s.points.summary(realm, user.id, T0 + 15);
      assert.deepEqual([sum.windows[0]!.used, sum.balances.topup, sum.held], [4 - 2 + 12 + 1 + 2, 100, 0]);
    });
    it("a claim of webhook deliveries costs two round trips whatever its size, and so does recording its attempts, which locks the endpoint's row only when its failing streak changes", async () => {
      const realm = await seedRealm(s);
      const endpoint = createdEndpoint({ realmId: realm, url: 'https://hooks.example/in', eventTypes: ['*'], description: '', enabled: true }, T0);
      await s.webhooks.create(endpoint, webhookAuditRecord('create', null, endpoint, { type: 'system', id: 'gatehouse' }, null, T0));
      const at = T0 + HOUR;
      const claimAll = async (n: number): Promise<Job[]> => {
        const ids: string[] = [];
        for (let i = 0; i < n; i++) {
          const m = newDelivery(endpoint, { id: unique('evt'), type: 'webhook.test' }, T0 + i);
          await s.webhooks.queueDirect({ id: m.delivery.eventId, type: 'webhook.test', realmId: realm, createdAt: T0 + i, data: {} }, m.delivery, m.job);
          ids.push(m.job.id);
        }
        // No other test of this database queues jobs: the claim takes these.
        costs.length = 0;
        const mine = await s.jobs.claim(at, n, [DELIVER], (j) => claimed(j, 'me', at, DELIVERY_POLICY));
        assert.deepEqual(mine.map((j) => j.id).sort(), [...ids].sort());
        return mine;
      };
      const attempts = (jobs: Job[], error: string | null): ClaimedAttempt[] =>
        jobs.map((job, i) => ({
          deliveryId: job.id,
          attempt: { id: unique('wha'), deliveryId: job.id, webhookId: endpoint.id, at: at + i, httpStatus: error === null ? 204 : 500, error, durationMs: 1 },
          delivered: error === null,
          endedAt: at + i,
          outcome: afterAttempt(job, error === null ? { kind: 'done' } : { kind: 'retry', error }, at + i, DELIVERY_POLICY, 0),
        }));
      const costOf = (useCase: string) => costs.filter((c) => c.useCase === useCase).map((c) => [c.cost.statements, c.cost.roundTrips]);

      const delivered = await claimAll(20);
      // BEGIN, the due jobs locked | their new state in one statement, COMMIT.
      assert.deepEqual(costOf('claimJobs'), [[4, 2]]);
      costs.length = 0;
      assert.deepEqual(await s.webhooks.recordAttempts('me', attempts(delivered, null), afterDeliveryAttempts), Array(20).fill(true));
      // BEGIN, the jobs' new state where the lease is still this replica's, the endpoint read | the
      // attempts, COMMIT: a healthy endpoint's deliveries change nothing there, so its row is not
      // locked.
      assert.deepEqual(costOf('recordWebhookAttempts'), [[5, 2]]);

      const failed = await claimAll(3);
      costs.length = 0;
      await s.webhooks.recordAttempts('me', attempts(failed, 'HTTP 500'), afterDeliveryAttempts);
      // A failing streak starts: the endpoint's row locked (one more round trip) and written.
      assert.deepEqual(costOf('recordWebhookAttempts'), [[7, 3]]);
      assert.equal((await s.webhooks.get(realm, endpoint.id))?.failingSince, at);
    });
  });

  describe('returned quota in SQL', () => {
    let client: pg.Client;
    before(async () => {
      client = new pg.Client({ connectionString: (await testPostgres()).url('postgres') });
      await client.connect();
    });
    after(() => client.end());

    const ranges = async (s: number) =>
      (await client.query<{ level: number; lo: string; hi: string }>(`SELECT * FROM (${returnRangesSql('$1::bigint')}) AS r`, [s])).rows.map((r) => ({
        level: r.level,
        from: Number(r.lo),
        to: Number(r.hi),
      }));

    it('sums the block ranges of ledger.ts: what was returned to the rows after a seq, whatever the newest row', async () => {
      let seed = 11;
      const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
      for (const [s, head] of [
        [0, 1],
        [0, 300],
        [15, 16],
        [16, 4097],
        [255, 70_000],
        [4095, 4096],
        [65_535, 1_048_577],
        [1_048_575, 1_100_000],
        [3_000_001, 5_000_000],
        [12_345_678, 12_400_000],
      ] as const) {
        // Returns to random rows up to the head, as block sums (returnBlocks).
        const blocks = new Map<string, number>();
        let want = 0;
        for (let i = 0; i < 200; i++) {
          const seq = 1 + rnd(head);
          const amount = 1 + rnd(9);
          if (seq > s) want += amount;
          for (const b of returnBlocks(seq)) blocks.set(`${b.level}/${b.idx}`, (blocks.get(`${b.level}/${b.idx}`) ?? 0) + amount);
        }
        const sumOver = (rs: Array<{ level: number; from: number; to: number }>) => {
          let n = 0;
          for (const [k, v] of blocks) {
            const [level, idx] = k.split('/').map(Number) as [number, number];
            if (rs.some((r) => r.level === level && idx >= r.from && idx <= r.to)) n += v;
          }
          return n;
        };
        assert.equal(sumOver(await ranges(s)), want, `after ${s}, head ${head}`);
        assert.equal(sumOver(returnRanges(s, head)), want, `ledger.ts after ${s}, head ${head}`);
      }
    });

    it('keeps the block sums prunableReturnBlocks keeps', async () => {
      for (const first of [1, 15, 16, 17, 4096, 1_048_576, 123_456_789]) {
        const { rows } = await client.query<{ keep: string }>(`SELECT keep FROM (${keptReturnBlocksSql('$1::bigint')}) AS k ORDER BY level`, [first]);
        assert.deepEqual(
          rows.map((r) => Number(r.keep)),
          prunableReturnBlocks(first),
        );
      }
    });
  });

  describe('races between replicas', () => {
    let s: StoreFixture;
    before(async () => {
      s = await freshPostgresStores();
    });
    after(() => s.close());

    it('one idempotency key sent for two users at once through two replicas: one consume, the other refused as a conflict', async () => {
      const peer = await s.peer();
      const realm = await seedRealm(s);
      for (let round = 0; round < 8; round++) {
        const users = await Promise.all([seedUser(s, realm), seedUser(s, realm)]);
        for (const u of users)
          await s.points.grant(
            { realmId: realm, userId: u.id, kind: 'topup_credit', amount: 10, expiresAt: null, idempotencyKey: null, requestHash: 'g', grantId: unique('grt') },
            T0,
          );
        const key = unique('shared-key');
        const results = await Promise.allSettled(
          [s, peer].map((st, i) =>
            st.points.consume(
              {
                realmId: realm,
                userId: users[i]!.id,
                amount: 4,
                description: null,
                idempotencyKey: key,
                requestHash: `user=${users[i]!.id}`,
                transactionId: unique('ptx'),
              },
              T0 + DAY,
            ),
          ),
        );
        const ok = results.filter((r) => r.status === 'fulfilled');
        assert.equal(ok.length, 1, JSON.stringify(results));
        const refused = results.find((r) => r.status === 'rejected')!;
        await rejectsWith(Promise.reject(refused.reason), 'idempotency_conflict');
        const totals = await Promise.all(users.map((u) => s.points.summary(realm, u.id, T0 + DAY).then((x) => x.total)));
        assert.deepEqual(
          [...totals].sort((a, b) => a - b),
          [6, 10],
          'one user paid 4, the other nothing',
        );
      }
    });

    it("an account deleted while a relay hands its consume's event out: the deletion waits, meets the event the relay wrote, runs again, and the event is kept once", async () => {
      const db = await freshDatabase('markrace');
      const stores = await openStoresAt(db.url);
      const relay = createClient(testPostgresOptions(db.url));
      try {
        const realm = await seedRealm(stores);
        await subscribeToEveryEvent(stores, realm, T0);
        const user = await seedUser(stores, realm);
        await stores.points.grant(
          {
            realmId: realm,
            userId: user.id,
            kind: 'topup_credit',
            amount: 10,
            expiresAt: null,
            idempotencyKey: null,
            requestHash: 'g',
            grantId: unique('grt'),
          },
          T0,
        );
        const c = await stores.points.consume(
          { realmId: realm, userId: user.id, amount: 1, description: null, idempotencyKey: null, requestHash: '', transactionId: unique('ptx') },
          T0,
        );
        const id = consumedEventId(c.transactionId);
        // A relay's hand-out in flight, as the store's dispatch writes it: the mark locked and
        // cleared, the event written dispatched; not committed yet.
        await relay.connect();
        await relay.query('BEGIN');
        await relay.query('SELECT 1 FROM points_transactions WHERE id = $1 AND event_pending IS NOT NULL FOR UPDATE SKIP LOCKED', [c.transactionId]);
        await relay.query('UPDATE points_transactions SET event_pending = NULL WHERE id = $1', [c.transactionId]);
        await relay.query("INSERT INTO events (id, type, realm_id, created_at, data, dispatched_at) VALUES ($1, 'points.consumed', $2, $3, '{}', $3)", [
          id,
          realm,
          T0,
        ]);
        let settled = false;
        const deletion = stores.users
          .deleteAccount(realm, user.id, (snap) =>
            planAccountDeletion(snap, { realmId: realm, userId: user.id, actor: { type: 'system', id: 'test' }, requestId: null }, T0 + 1, []),
          )
          .finally(() => (settled = true));
        await new Promise((r) => setTimeout(r, 300));
        assert.equal(settled, false, 'the deletion waits for the hand-out');
        await relay.query('COMMIT');
        assert.ok(await deletion);
        const consumed = await stores.records.events(realm, { type: 'points.consumed', limit: 10 });
        assert.deepEqual(
          consumed.map((e) => e.id),
          [id],
          'once, as the relay wrote it',
        );
      } finally {
        await relay.end();
        await stores.close();
        await db.drop();
      }
    });

    it('a client disabled and a key revoked through one replica are refused by the other on its next call', async () => {
      const peer = await s.peer();
      const realm = await seedRealm(s);
      const { createApiKey } = await import('../../server/admin/api-keys.ts');
      const { record, key } = await createApiKey(s.admin, { realm, permissions: ['points.view'], name: 'k' }, T0);
      await s.admin.createClient({
        realmId: realm,
        clientId: 'app',
        name: 'app',
        type: 'first_party',
        redirectUris: [],
        ipBinding: 'off',
        enabled: true,
        accessTokenTtlSeconds: 900,
        refreshTokenTtlSeconds: 3600,
        createdAt: T0,
      });
      // Both cached on `s`, then changed through the peer; no turn of the event loop in between is
      // needed: the next call reads the version.
      assert.notEqual(await authenticateApiKey(s.admin, key), null);
      assert.equal((await s.admin.getClient(realm, 'app'))!.enabled, true);
      await peer.admin.revokeApiKey(record.id, T0 + 1);
      await peer.admin.updateClient(realm, 'app', { enabled: false }, () => {}, T0);
      await new Promise((r) => setImmediate(r));
      assert.equal(await authenticateApiKey(s.admin, key), null);
      assert.equal((await s.admin.getClient(realm, 'app'))!.enabled, false);
    });
  });

  it('keys create --db with a libpq URL (host=/socket/dir, PG* variables for the rest) migrates an empty database and stores the key', async (t) => {
    const srv = await testPostgres();
    if (!srv.owned) {
      t.skip('needs the tests’ own cluster (its socket folder)');
      return;
    }
    const db = await freshDatabase();
    try {
      const url = `postgres:///${db.name}?host=${encodeURIComponent(srv.socketDir!)}`;
      const res = await runCli(['keys', 'create', '--db', url, '--key-realm', '*', '--permission', '*', '--json'], {
        env: { PGUSER: 'postgres', PGPORT: String(srv.port) },
      });
      assert.equal(res.code, 0, res.stderr);
      const created = res.json();
      const stores = await openStoresAt(db.url);
      try {
        assert.equal((await authenticateApiKey(stores.admin, created.key))?.keyId, created.id);
      } finally {
        await stores.close();
      }
      const unreachable = await runCli(['keys', 'create', '--db', 'postgres://postgres@127.0.0.1:1/none', '--key-realm', '*', '--permission', '*']);
      assert.equal(unreachable.code, 1);
      assert.match(unreachable.stderr, /cannot open database postgres:\/\/postgres@127\.0\.0\.1:1\/none/);
    } finally {
      await db.drop();
    }
  });
});
