// The operators' console — scripted set/apply round trips, --json output, the 409 message,
// non-TTY refusal, the interactive window editor in a real pseudo-terminal, and the simulator
// against hand-computed answers.

import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { api } from '../helpers/http.ts';
import { KEYS, runInPty } from '../helpers/pty.ts';
import { BIN, type SpawnedServer, spawnServer, tempDir } from '../helpers/server.ts';

describe('the operators’ console', () => {
  let srv: SpawnedServer;
  let env: Record<string, string>;
  const dir = tempDir();
  before(async () => {
    srv = await spawnServer();
    env = { GATEHOUSE_SERVER: srv.grpc, GATEHOUSE_API_KEY: srv.adminKey, GATEHOUSE_REALM: 'ops' };
    assert.equal((await api(srv.http, srv.adminKey).post('/api/admin/realms', { id: 'ops', name: 'Ops' })).status, 200);
  });
  after(() => srv.stop());

  describe('default-config from scripts', () => {
    it('sets windows with --window flags and reads them back as JSON', async () => {
      const set = await runCli(
        ['default-config', 'set', '--free-amount', '100', '--free-period-type', 'daily', '--window', '5h=500', '--window', '1w=5000', '--json'],
        { env },
      );
      assert.equal(set.code, 0, set.stderr);
      assert.deepEqual(set.json().freePeriodicQuotaWindows, [
        { windowSeconds: 18000, limit: 500 },
        { windowSeconds: 604800, limit: 5000 },
      ]);
      const get = await runCli(['default-config', 'get', '--json'], { env });
      assert.equal(get.json().freePeriodicPointsAmount, 100);
      assert.equal(get.json().freePeriodicGrantPeriodType, 'daily');
      assert.equal(get.json().freePeriodicQuotaWindows.length, 2);
      const text = await runCli(['default-config', 'get'], { env });
      assert.match(text.stdout, /5h\s+18000\s+500/);
    });

    it('leaves windows alone when not given and clears them with --clear-free-windows', async () => {
      const other = await runCli(['default-config', 'set', '--registration-bonus', '25', '--json'], { env });
      assert.equal(other.json().freePeriodicQuotaWindows.length, 2);
      const cleared = await runCli(['default-config', 'set', '--clear-free-windows', '--json'], { env });
      assert.deepEqual(cleared.json().freePeriodicQuotaWindows, []);
      assert.equal(cleared.json().registrationBonusPoints, 25);
    });

    it('refuses a broken window before calling the server (exit 2, the rule named)', async () => {
      for (const [flag, pattern] of [
        ['0=5', /longer than 0/],
        ['5h=-1', /limit/],
        ['5h', /LENGTH=LIMIT/],
      ] as const) {
        const r = await runCli(['default-config', 'set', '--window', flag], { env });
        assert.equal(r.code, 2, `${flag}: ${r.stderr}`);
        assert.match(r.stderr, pattern);
      }
      const dup = await runCli(['default-config', 'set', '--window', '1h=5', '--window', '60m=9'], { env });
      assert.equal(dup.code, 2);
      assert.match(dup.stderr, /duplicate/);
      const nine = await runCli(['default-config', 'set', ...Array.from({ length: 9 }, (_, i) => ['--window', `${i + 1}h=1`]).flat()], { env });
      assert.equal(nine.code, 2);
      assert.match(nine.stderr, /at most 8/);
    });
  });

  describe('mappings from scripts', () => {
    let premium: string;
    it('applies a batch file and lists the result', async () => {
      const file = join(dir, 'batch.json');
      writeFileSync(
        file,
        JSON.stringify({
          paymentProvider: 'stripe',
          externalProductId: 'prod_pro',
          updates: [
            {
              entitlementKey: 'pro',
              billingType: 'recurring',
              billingPeriod: 'monthly',
              pointsPerPeriod: 0,
              grantPeriodType: 'monthly',
              validityDays: 30,
              grantOnSubscribe: true,
              maxPeriods: 0,
              enabled: true,
              quotaWindows: [{ windowSeconds: 18000, limit: 100 }],
            },
            {
              entitlementKey: 'pro-bonus',
              billingType: 'recurring',
              billingPeriod: 'monthly',
              pointsPerPeriod: 50,
              grantPeriodType: 'monthly',
              validityDays: 30,
              grantOnSubscribe: true,
              maxPeriods: 0,
              enabled: true,
            },
          ],
        }),
      );
      const r = await runCli(['mappings', 'apply', '--file', file, '--json'], { env });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.json().saved, 2);
      premium = r.json().mappings[0].mappingId;
      const list = await runCli(['mappings', 'list', '--json'], { env });
      assert.equal(list.json().mappings.length, 2);
      const text = await runCli(['mappings', 'list'], { env });
      assert.match(text.stdout, /5h=100/);
    });

    it('names the field of a malformed batch file (exit 2)', async () => {
      const file = join(dir, 'bad.json');
      writeFileSync(file, JSON.stringify({ paymentProvider: 'stripe', externalProductId: 'x', updates: [{ entitlementKey: 'k', pointsPerPeriod: 'ten' }] }));
      const r = await runCli(['mappings', 'apply', '--file', file], { env });
      assert.equal(r.code, 2);
      assert.match(r.stderr, /updates\[0\]\.pointsPerPeriod/);
    });

    it('asks before disabling a mapping; without a terminal it fails naming --yes and saves nothing', async () => {
      const file = join(dir, 'disable.json');
      writeFileSync(file, JSON.stringify({ paymentProvider: 'stripe', externalProductId: 'prod_pro', updates: [{ mappingId: premium, enabled: false }] }));
      const r = await runCli(['mappings', 'apply', '--file', file], { env });
      assert.equal(r.code, 2);
      assert.match(r.stderr, /--yes/);
      const list = await runCli(['mappings', 'list', '--json'], { env });
      assert.equal(list.json().mappings.find((m: any) => m.mappingId === premium).enabled, true);
    });

    it('reports how many active subscriptions block a disabling batch, and that nothing was saved', async () => {
      const h = api(srv.http, srv.adminKey);
      for (const email of ['a@ops.example', 'b@ops.example']) {
        const u = await h.post('/api/admin/realms/ops/users', { email });
        assert.equal(u.status, 200, JSON.stringify(u.body));
        assert.equal((await h.post('/api/bill/ops/subscriptions', { userId: u.body.id, mappingId: premium })).status, 200);
      }
      const file = join(dir, 'disable2.json');
      writeFileSync(
        file,
        JSON.stringify({
          paymentProvider: 'stripe',
          externalProductId: 'prod_pro',
          updates: [{ mappingId: premium, enabled: false, quotaWindows: [{ windowSeconds: 3600, limit: 1 }] }],
        }),
      );
      const r = await runCli(['mappings', 'apply', '--file', file, '--yes'], { env });
      assert.equal(r.code, 1);
      assert.match(r.stderr, /mapping_in_use/);
      assert.match(r.stderr, /has 2 active subscription/);
      assert.match(r.stderr, /nothing saved/);
      const j = await runCli(['mappings', 'apply', '--file', file, '--yes', '--json'], { env });
      const err = JSON.parse(j.stderr);
      assert.equal(err.error, 'mapping_in_use');
      assert.equal(err.activeSubscriptions, 2);
      const m = (await runCli(['mappings', 'list', '--json'], { env })).json().mappings.find((x: any) => x.mappingId === premium);
      assert.equal(m.enabled, true);
      assert.deepEqual(m.quotaWindows, [{ windowSeconds: 18000, limit: 100 }]);
    });

    it('refuses interactive editing without a terminal', async () => {
      const r = await runCli(['mappings', 'edit', premium], { env });
      assert.equal(r.code, 2);
      assert.match(r.stderr, /terminal/);
      const d = await runCli(['default-config', 'edit'], { env });
      assert.equal(d.code, 2);
    });
  });

  describe('the interactive window editor in a pseudo-terminal', () => {
    it('adds, validates as typed, reorders, previews and saves', async () => {
      await runCli(['default-config', 'set', '--window', '1d=50'], { env });
      const pty = runInPty(`${process.execPath} ${BIN} default-config edit`, env);
      try {
        await pty.waitFor(/What now\?/);
        await pty.choose(/Add a window/);
        await pty.waitFor(/Window length/);
        pty.mark();
        pty.type('0' + KEYS.enter);
        await pty.waitFor(/longer than 0 seconds/);
        pty.mark();
        pty.type('\x7f' + '1d' + KEYS.enter);
        await pty.waitFor(/exists already/);
        pty.mark();
        pty.type('\x7f\x7f' + '5h' + KEYS.enter);
        await pty.waitFor(/Limit/);
        pty.mark();
        pty.type('x' + KEYS.enter);
        await pty.waitFor(/whole number/);
        pty.mark();
        pty.type('\x7f' + '10' + KEYS.enter);
        await pty.waitFor(/What now\?/);
        await pty.choose(/Move a window up/);
        await pty.waitFor(/Move which window up\?/);
        await pty.choose(/2\. 5h/);
        await pty.waitFor(/What now\?/);
        await pty.choose(/Done: preview and save/);
        await pty.waitFor(/Save these 2 window/);
        assert.match(pty.screen(), /after:[\s\S]*1\s+5h\s+18000\s+10[\s\S]*2\s+day\s+86400\s+50/);
        pty.type('y' + KEYS.enter);
        assert.equal(await pty.exit, 0, pty.screen());
      } finally {
        pty.kill();
      }
      const get = await runCli(['default-config', 'get', '--json'], { env });
      assert.deepEqual(get.json().freePeriodicQuotaWindows, [
        { windowSeconds: 18000, limit: 10 },
        { windowSeconds: 86400, limit: 50 },
      ]);
    });

    it('cancels without saving anything', async () => {
      const pty = runInPty(`${process.execPath} ${BIN} default-config edit`, env);
      try {
        await pty.waitFor(/What now\?/);
        await pty.choose(/Cancel without saving/);
        assert.equal(await pty.exit, 0, pty.screen());
        assert.match(pty.screen(), /cancelled; nothing saved/);
      } finally {
        pty.kill();
      }
      const get = await runCli(['default-config', 'get', '--json'], { env });
      assert.equal(get.json().freePeriodicQuotaWindows.length, 2);
    });
  });

  describe('gatehouse simulate', () => {
    it('blocks 5h=10 with one unit every 20 minutes for exactly the hand-computed spans', async () => {
      // Units at 0, 20, …, 180 min fill the window; 200–280 are refused; the unit of minute 0 returns
      // at exactly 300, and from then on each 100 minutes of every 300 are blocked.
      const r = await runCli(['simulate', '--window', '5h=10', '--every', '20m', '--duration', '1d', '--json']);
      assert.equal(r.code, 0, r.stderr);
      const out = r.json();
      assert.equal(out.requests, 73);
      assert.deepEqual(
        out.blocked.map((b: any) => [b.from.slice(11, 16), b.until.slice(11, 16), b.window, b.refused]),
        [
          ['03:20', '05:00', '5h', 5],
          ['08:20', '10:00', '5h', 5],
          ['13:20', '15:00', '5h', 5],
          ['18:20', '20:00', '5h', 5],
          ['23:20', '00:00', '5h', 3],
        ],
      );
      assert.equal(out.refused, 23);
      assert.equal(out.served, 50);
      assert.equal(out.firstRefusalAt, '2026-01-01T03:20:00.000Z');
    });

    it('drains the pools when the window runs out and says when they emptied', async () => {
      const r = await runCli(['simulate', '--window', '5h=10', '--every', '20m', '--duration', '6h', '--pool', 'topup=3', '--json']);
      const out = r.json();
      assert.equal(out.pool.start, 3);
      assert.equal(out.pool.end, 0);
      assert.equal(out.pool.emptiedAt, '2026-01-01T04:00:00.000Z'); // 200, 220 and 240 min come from the pool
      assert.equal(out.servedFromPool, 3);
      assert.equal(out.blocked[0].servedFromPool, 3);
      assert.equal(out.blocked[0].refused, 2);
    });

    it('takes bursts and a CSV, and names the tightest of several windows', async () => {
      // Bursts of 15 at 0, 24 h and 48 h: each day 10 fit the day window (each call frees the one made
      // exactly a day before), 5 are refused; the week window (100) never binds.
      const b = (await runCli(['simulate', '--window', '1d=10', '--window', '1w=100', '--burst', '15@1d', '--duration', '71h', '--json'])).json();
      assert.equal(b.requests, 45);
      assert.equal(b.served, 30);
      assert.equal(b.refused, 15);
      assert.ok(b.blocked.every((s: any) => s.window === 'day'));
      const csv = join(dir, 'usage.csv');
      writeFileSync(csv, 'time,amount\n0,4\n10m,4\n20m,4\n5h,4\n');
      const c = (await runCli(['simulate', '--window', '5h=10', '--csv', csv, '--duration', '6h', '--json'])).json();
      assert.equal(c.served, 3); // 4 + 4 fit, 4 more does not (8 + 4 > 10); at 5h the first 4 have returned
      assert.equal(c.refused, 1);
      assert.equal(c.pointsServed, 12);
    });

    it('models holds: a call must find --hold free before it settles --settle, so it is refused sooner than a consume of the same cost', async () => {
      // 5h=10, a call every 20 minutes holding 4 and settling 1: a hold fits while at most 6 are used,
      // so 7 calls (0–120 min) are served, 140–280 are refused, and from 300 on each returning unit
      // lets one call through: 7 served of every 15.
      const r = await runCli(['simulate', '--window', '5h=10', '--every', '20m', '--duration', '1d', '--hold', '4', '--settle', '1', '--json']);
      assert.equal(r.code, 0, r.stderr);
      const out = r.json();
      assert.deepEqual([out.requests, out.served, out.refused, out.pointsServed], [73, 35, 38, 35]);
      assert.deepEqual(out.holds, { amount: 4, refusedAtHold: 38, refusedAtSettle: 0 });
      assert.deepEqual(
        out.blocked.map((b: any) => [b.from.slice(11, 16), b.until.slice(11, 16), b.refused]),
        [
          ['02:20', '05:00', 8],
          ['07:20', '10:00', 8],
          ['12:20', '15:00', 8],
          ['17:20', '20:00', 8],
          ['22:20', '00:00', 6],
        ],
      );
      const text = await runCli(['simulate', '--window', '5h=10', '--every', '20m', '--duration', '1d', '--hold', '4', '--settle', '1']);
      assert.match(text.stdout, /^Holds: 4 held per call; refused when holding: 38, when settling above the hold: 0$/m);
    });

    it('models a settle above the hold: the extra is drawn when settling, and a call whose extra does not fit is refused and its hold released', async () => {
      // 5h=10, holding 1 and settling 3: 3 + 3 + 3 fit; the fourth call holds (10 used) but its extra
      // 2 does not fit, so it is released; the first 3 come back at 300 min.
      const r = await runCli(['simulate', '--window', '5h=10', '--every', '20m', '--duration', '6h', '--hold', '1', '--settle', '3', '--json']);
      assert.equal(r.code, 0, r.stderr);
      const out = r.json();
      assert.deepEqual([out.requests, out.served, out.refused, out.pointsServed], [19, 6, 13, 18]);
      assert.deepEqual(out.holds, { amount: 1, refusedAtHold: 0, refusedAtSettle: 13 });
      assert.equal(out.firstRefusalAt, '2026-01-01T01:00:00.000Z');
    });

    it('refuses --hold without --settle, --settle without --hold, and --hold beside --amount or --csv (exit 2)', async () => {
      for (const extra of [
        ['--hold', '4'],
        ['--settle', '1'],
        ['--hold', '4', '--settle', '1', '--amount', '2'],
        ['--hold', '0', '--settle', '1'],
        ['--hold', '4', '--settle', '-1'],
      ]) {
        const r = await runCli(['simulate', '--window', '5h=10', '--every', '20m', '--duration', '1d', ...extra]);
        assert.equal(r.code, 2, `${extra.join(' ')}: ${r.stderr}`);
        assert.match(r.stderr, /--(hold|settle|amount)/);
      }
      const csv = join(dir, 'hold.csv');
      writeFileSync(csv, '0,4\n');
      const r = await runCli(['simulate', '--window', '5h=10', '--csv', csv, '--duration', '1h', '--hold', '4', '--settle', '1']);
      assert.equal(r.code, 2);
      assert.match(r.stderr, /--csv: not with --hold/);
    });

    it('prints a human report with an ASCII chart', async () => {
      const r = await runCli(['simulate', '--window', '5h=10', '--every', '20m', '--duration', '1d']);
      assert.equal(r.code, 0);
      assert.match(r.stdout, /Requests: 73\s+served: 50\s+refused: 23/);
      assert.match(r.stdout, /Available quota over time:\n\s+10 │█/);
    });
  });
});
