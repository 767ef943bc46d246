// The CLI as a newcomer meets it: help and usage errors, messages without transport noise, lengths
// of time typed as 15m or 30d, one name per window, errors as data with --json, settings that stay
// when not given, a clean backup, and the interactive editor's guard rails in a real terminal.

import assert from 'node:assert/strict';
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { api } from '../helpers/http.ts';
import { KEYS, runInPty } from '../helpers/pty.ts';
import { BIN, type InProcessServer, startInProcess, tempDir } from '../helpers/server.ts';

describe('the CLI as a newcomer meets it', () => {
  // The server runs in this process: the CLI, a child process, is what is tested.
  let srv: InProcessServer;
  let env: Record<string, string>;
  const dir = tempDir();
  before(async () => {
    srv = await startInProcess();
    env = { GATEHOUSE_SERVER: srv.grpc, GATEHOUSE_API_KEY: srv.adminKey, GATEHOUSE_REALM: 'first' };
    assert.equal((await api(srv.http, srv.adminKey).post('/api/admin/realms', { id: 'first', name: 'First' })).status, 200);
  });
  after(() => srv.stop());

  describe('help and usage', () => {
    it('prints help to stderr and exits 2 when run with no arguments or no subcommand', async () => {
      for (const args of [[], ['default-config']]) {
        const r = await runCli(args);
        assert.equal(r.code, 2, `gatehouse ${args.join(' ')}`);
        assert.equal(r.stdout, '');
        assert.match(r.stderr, /Usage: gatehouse/);
      }
      const asked = await runCli(['--help']);
      assert.equal(asked.code, 0);
      assert.match(asked.stdout, /Usage: gatehouse/);
    });

    it('says which part of a --window is wrong in plain words', async () => {
      const r = await runCli(['default-config', 'set', '--window', '0=5'], { env });
      assert.equal(r.code, 2);
      assert.match(r.stderr, /--window 0=5: length: must be longer than 0 seconds/);
      assert.doesNotMatch(r.stderr, /is must|length is/);
    });

    it('says the server cannot be reached, without grpc-js wording', async () => {
      const r = await runCli(['realm', 'list', '--server', '127.0.0.1:1'], { env });
      assert.equal(r.code, 1);
      assert.match(r.stderr, /cannot reach the server at 127\.0\.0\.1:1 \(connection refused\)/);
      assert.doesNotMatch(r.stderr, /Resolution note|No connection established|ECONNREFUSED/);
    });

    it('refuses an http URL for --server or GATEHOUSE_SERVER with a usage error naming the gRPC listener', async () => {
      const flag = await runCli(['realm', 'list', '--server', 'http://127.0.0.1:8080'], { env });
      assert.equal(flag.code, 2);
      assert.match(flag.stderr, /--server http:\/\/127\.0\.0\.1:8080: expected HOST:PORT of gatehouse's gRPC listener/);
      const fromEnv = await runCli(['realm', 'list'], { env: { ...env, GATEHOUSE_SERVER: 'https://gatehouse.example' } });
      assert.equal(fromEnv.code, 2);
      assert.match(fromEnv.stderr, /GATEHOUSE_SERVER=https:\/\/gatehouse\.example: expected HOST:PORT/);
    });
  });

  describe('lengths of time', () => {
    it('takes token lifetimes as 15m / 30d or as seconds', async () => {
      const created = await runCli(
        ['client', 'create', 'web', '--name', 'Web', '--type', 'first_party', '--access-ttl', '15m', '--refresh-ttl', '30d', '--json'],
        { env },
      );
      assert.equal(created.code, 0, created.stderr);
      assert.equal(created.json().accessTokenTtlSeconds, 900);
      assert.equal(created.json().refreshTokenTtlSeconds, 2_592_000);
      const updated = await runCli(['client', 'update', 'web', '--access-ttl', '3600', '--refresh-ttl', '1w', '--json'], { env });
      assert.equal(updated.code, 0, updated.stderr);
      assert.equal(updated.json().accessTokenTtlSeconds, 3600);
      assert.equal(updated.json().refreshTokenTtlSeconds, 604_800);
      const bad = await runCli(['client', 'update', 'web', '--access-ttl', '15x'], { env });
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /--access-ttl 15x: expected a length like 5h/);
    });
  });

  describe('window names', () => {
    it('names windows by the summary keys (day, week, month) in every command, and takes those names back', async () => {
      const set = await runCli(['default-config', 'set', '--window', '1d=50', '--window', 'week=500', '--window', '30d=900', '--window', '14d=950'], { env });
      assert.equal(set.code, 0, set.stderr);
      assert.match(set.stdout, /1\s+day\s+86400\s+50\n\s+2\s+week\s+604800\s+500\n\s+3\s+month\s+2592000\s+900\n\s+4\s+14d\s+1209600\s+950/);
      const file = join(dir, 'named.json');
      writeFileSync(
        file,
        JSON.stringify({
          paymentProvider: 'stripe',
          externalProductId: 'named',
          updates: [
            {
              entitlementKey: 'named',
              billingType: 'recurring',
              billingPeriod: 'monthly',
              pointsPerPeriod: 0,
              grantPeriodType: 'monthly',
              validityDays: 30,
              grantOnSubscribe: true,
              maxPeriods: 0,
              enabled: true,
              quotaWindows: [
                { windowSeconds: 18000, limit: 10 },
                { windowSeconds: 604800, limit: 70 },
              ],
            },
          ],
        }),
      );
      const applied = await runCli(['mappings', 'apply', '--file', file], { env });
      assert.equal(applied.code, 0, applied.stderr);
      assert.match(applied.stdout, /5h=10 week=70/);
      const sim = await runCli(['simulate', '--window', 'day=10', '--window', '1w=100', '--burst', '15@1d', '--duration', '1d']);
      assert.equal(sim.code, 0, sim.stderr);
      assert.match(sim.stdout, /Windows \(subscription_credit\): day=10 week=100/);
      assert.match(sim.stdout, /\bday\s+\d+\s+\d+\s*$/m, 'the blocked span names the same window');
      await runCli(['default-config', 'set', '--clear-free-windows'], { env });
    });
  });

  describe('gatehouse simulate limits', () => {
    it('plays the last burst whole when it starts at the very end', async () => {
      // Bursts of 15 at 0, 24 h, 48 h and 72 h: four whole bursts, 10 served from each (the day window).
      const r = await runCli(['simulate', '--window', '1d=10', '--burst', '15@1d', '--duration', '72h', '--json']);
      assert.equal(r.code, 0, r.stderr);
      const out = r.json();
      assert.equal(out.requests, 60);
      assert.equal(out.served, 40);
      assert.equal(out.refused, 20);
    });

    it('refuses a --duration over ten years (exit 2) and takes ten years', async () => {
      for (const d of ['11y', '3651d']) {
        const r = await runCli(['simulate', '--window', '5h=10', '--every', '1w', '--duration', d]);
        assert.equal(r.code, 2, d);
        assert.match(r.stderr, new RegExp(`--duration ${d}: at most 10 years`));
      }
      const ten = await runCli(['simulate', '--window', '5h=10', '--every', '1w', '--duration', '10y', '--json']);
      assert.equal(ten.code, 0, ten.stderr);
      assert.equal(ten.json().requests, 522);
    });
  });

  describe('errors as data (--json)', () => {
    it('keeps numbers as numbers and carries status and requestId, as the HTTP error body does', async () => {
      const missing = await runCli(['realm', 'get', 'missing', '--json'], { env });
      assert.equal(missing.code, 1);
      const e1 = JSON.parse(missing.stderr);
      assert.equal(e1.error, 'not_found');
      assert.equal(e1.status, 404);
      assert.match(e1.requestId, /^req_/);
      const h = api(srv.http, srv.adminKey);
      const user = (await h.post('/api/admin/realms/first/users', { email: 'json@first.example' })).body.id;
      const poor = await runCli(['points', 'consume', user, '--amount', '100', '--json'], { env });
      assert.equal(poor.code, 1);
      const e2 = JSON.parse(poor.stderr);
      assert.deepEqual({ error: e2.error, status: e2.status, have: e2.have, need: e2.need }, { error: 'insufficient_points', status: 409, have: 0, need: 100 });
      assert.match(e2.requestId, /^req_/);
      // Digits under a key's name stay text: an idempotency key "12345" is not the number 12345.
      assert.equal((await runCli(['points', 'grant', user, '--amount', '10'], { env })).code, 0);
      assert.equal((await runCli(['points', 'consume', user, '--amount', '1', '--idempotency-key', '12345'], { env })).code, 0);
      const reused = await runCli(['points', 'consume', user, '--amount', '2', '--idempotency-key', '12345', '--json'], { env });
      const e3 = JSON.parse(reused.stderr);
      assert.deepEqual([e3.error, e3.status, e3.idempotencyKey], ['idempotency_conflict', 409, '12345']);
    });
  });

  describe('default-config set', () => {
    it('warns on stderr that a fixed free amount is not granted while free windows are set', async () => {
      const withWindows = await runCli(['default-config', 'set', '--free-amount', '100', '--window', '5h=20'], { env });
      assert.equal(withWindows.code, 0, withWindows.stderr);
      assert.match(withWindows.stderr, /warning: the free periodic grant uses its windows \(5h=20\), so freePeriodicPointsAmount 100 is not granted/);
      const amountOnly = await runCli(['default-config', 'set', '--free-amount', '120'], { env });
      assert.match(amountOnly.stderr, /freePeriodicPointsAmount 120 is not granted/, 'the stored windows still win');
      const cleared = await runCli(['default-config', 'set', '--free-amount', '100', '--clear-free-windows'], { env });
      assert.equal(cleared.code, 0, cleared.stderr);
      assert.doesNotMatch(cleared.stderr, /warning/);
      const unrelated = await runCli(['default-config', 'set', '--registration-bonus', '5', '--window', '5h=20'], { env });
      assert.match(unrelated.stderr, /warning/, 'windows set over a stored amount');
      await runCli(['default-config', 'set', '--free-amount', '0', '--clear-free-windows'], { env });
    });
  });

  describe('provider set', () => {
    it('keeps enabled, the additional audiences and the secret when they are not given', async () => {
      const first = await runCli(
        [
          'provider',
          'set',
          'apple',
          '--client-id',
          'com.first.app',
          '--enabled',
          'false',
          '--additional-client-id',
          'com.first.watch',
          '--client-secret',
          's3cret',
          '--json',
        ],
        { env },
      );
      assert.equal(first.code, 0, first.stderr);
      const again = await runCli(['provider', 'set', 'apple', '--team-id', 'TEAM123', '--json'], { env });
      assert.equal(again.code, 0, again.stderr);
      const p = again.json();
      assert.deepEqual(
        { clientId: p.clientId, enabled: p.enabled, additionalClientIds: p.additionalClientIds, hasClientSecret: p.hasClientSecret, teamId: p.teamId },
        { clientId: 'com.first.app', enabled: false, additionalClientIds: ['com.first.watch'], hasClientSecret: true, teamId: 'TEAM123' },
      );
      const cleared = await runCli(['provider', 'set', 'apple', '--clear-additional-client-ids', '--enabled', 'true', '--json'], { env });
      assert.deepEqual([cleared.json().additionalClientIds, cleared.json().enabled], [[], true]);
      const fresh = await runCli(['provider', 'set', 'google'], { env });
      assert.equal(fresh.code, 2);
      assert.match(fresh.stderr, /--client-id: required to configure google/);
    });
  });

  describe('mappings apply', () => {
    it('does not offer to disable a mapping with active subscriptions: it names the mapping and saves nothing', async () => {
      const file = join(dir, 'busy.json');
      writeFileSync(
        file,
        JSON.stringify({
          paymentProvider: 'stripe',
          externalProductId: 'busy',
          updates: [
            {
              entitlementKey: 'busy',
              billingType: 'recurring',
              billingPeriod: 'monthly',
              pointsPerPeriod: 5,
              grantPeriodType: 'monthly',
              validityDays: 30,
              grantOnSubscribe: true,
              maxPeriods: 0,
              enabled: true,
            },
          ],
        }),
      );
      const mappingId = (await runCli(['mappings', 'apply', '--file', file, '--json'], { env })).json().mappings[0].mappingId;
      const h = api(srv.http, srv.adminKey);
      for (const email of ['x@first.example', 'y@first.example']) {
        const u = await h.post('/api/admin/realms/first/users', { email });
        assert.equal((await h.post('/api/bill/first/subscriptions', { userId: u.body.id, mappingId })).status, 200);
      }
      writeFileSync(
        file,
        JSON.stringify({ paymentProvider: 'stripe', externalProductId: 'busy', updates: [{ mappingId, enabled: false, pointsPerPeriod: 9 }] }),
      );
      const r = await runCli(['mappings', 'apply', '--file', file], { env });
      assert.equal(r.code, 1);
      assert.doesNotMatch(r.stderr, /--yes|terminal/, 'no question it would then refuse');
      assert.match(r.stderr, new RegExp(`mapping_in_use.*mapping ${mappingId} \\(busy\\) has 2 active subscription\\(s\\).*nothing saved`));
      const j = await runCli(['mappings', 'apply', '--file', file, '--json'], { env });
      const err = JSON.parse(j.stderr);
      assert.deepEqual([err.error, err.status, err.mappingId, err.activeSubscriptions], ['mapping_in_use', 409, mappingId, 2]);
      const m = (await runCli(['mappings', 'list', '--json'], { env })).json().mappings.find((x: any) => x.mappingId === mappingId);
      assert.deepEqual([m.enabled, m.pointsPerPeriod], [true, 5]);
    });
  });

  describe('gatehouse backup', () => {
    it('leaves one self-contained file, readable by its owner only, and no -wal or -shm beside it or the source', async () => {
      const out = join(tempDir(), 'copy.db');
      const live = await runCli(['backup', '--db', srv.dbPath, '--out', out, '--json']);
      assert.equal(live.code, 0, live.stderr);
      const stopped = await startInProcess({ dir: tempDir() });
      await stopped.stop();
      const out2 = join(tempDir(), 'copy.db');
      const cold = await runCli(['backup', '--db', stopped.dbPath, '--out', out2]);
      assert.equal(cold.code, 0, cold.stderr);
      for (const file of [out, out2]) {
        const dirOf = join(file, '..');
        assert.deepEqual(readdirSync(dirOf), ['copy.db']);
        assert.equal(statSync(file).mode & 0o777, 0o600);
      }
      assert.deepEqual(
        readdirSync(stopped.dir).filter((f) => /-(wal|shm)$/.test(f)),
        [],
        'nothing left beside a stopped server’s database',
      );
    });
  });

  describe('the window editor in a pseudo-terminal', () => {
    const eight = Array.from({ length: 8 }, (_, i) => ['--window', `${i + 1}h=${i + 1}`]).flat();

    it('offers no Add at 8 windows, no Move up for the first row nor Move down for the last, and Ctrl-C saves nothing (exit 130)', async () => {
      assert.equal((await runCli(['default-config', 'set', ...eight], { env })).code, 0);
      const pty = runInPty(`${process.execPath} ${BIN} default-config edit`, env);
      try {
        await pty.waitFor(/What now\?/);
        assert.match(pty.screen(), /Add a window \(maximum 8 windows: remove one first\)/);
        await pty.choose(/Move a window up/);
        await pty.waitFor(/Move which window up\?[\s\S]*8\. 8h/);
        assert.doesNotMatch(pty.screen().slice(pty.screen().lastIndexOf('Move which window up?')), /1\. 1h — limit/);
        await pty.choose(/2\. 2h/);
        await pty.waitFor(/What now\?/);
        await pty.choose(/Move a window down/);
        await pty.waitFor(/Move which window down\?[\s\S]*7\. /);
        assert.doesNotMatch(pty.screen().slice(pty.screen().lastIndexOf('Move which window down?')), /8\. 8h — limit/);
        pty.mark();
        pty.type('\x03');
        assert.equal(await pty.exit, 130, pty.screen());
        assert.match(pty.screen(), /cancelled; nothing saved/);
      } finally {
        pty.kill();
      }
      const get = await runCli(['default-config', 'get', '--json'], { env });
      assert.deepEqual(
        get.json().freePeriodicQuotaWindows.map((w: any) => w.windowSeconds / 3600),
        [1, 2, 3, 4, 5, 6, 7, 8],
      );
    });

    it('asks before saving no windows with No as the default, and says changes apply to grants made from now on', async () => {
      const pty = runInPty(`${process.execPath} ${BIN} default-config edit`, env);
      try {
        await pty.waitFor(/What now\?/);
        await pty.choose(/Clear all windows/);
        await pty.waitFor(/What now\?/);
        await pty.choose(/Done: preview and save/);
        await pty.waitFor(/Save with no windows \(clears the window configuration\)\? \(y\/N\)/);
        assert.match(pty.screen(), /Changes apply to grants made from now on/);
        pty.mark();
        pty.type(KEYS.enter);
        await pty.waitFor(/What now\?/);
        await pty.choose(/Cancel without saving/);
        assert.equal(await pty.exit, 0, pty.screen());
        assert.match(pty.screen(), /cancelled; nothing saved/);
      } finally {
        pty.kill();
      }
      const get = await runCli(['default-config', 'get', '--json'], { env });
      assert.equal(get.json().freePeriodicQuotaWindows.length, 8);
    });
  });
});
