// Attacks an outside tester ran against the validation of windows, grants, redirect URIs, API-key
// management and the database files, each replayed over the real transports (HTTP, gRPC, the CLI
// as a child process) against a real server on port 0, asserting the safe answer.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import { status } from '@grpc/grpc-js';
import { type CliResult, runCli } from '../helpers/cli.ts';
import { closeGrpcClients, type GrpcResult, grpcCall } from '../helpers/grpc.ts';
import { api, type HttpResult, http } from '../helpers/http.ts';
import { BIN, type InProcessServer, ROOT, startInProcess, tempDir } from '../helpers/server.ts';
import { withStores } from '../helpers/stores.ts';
import { type Api, createKey, createMapping, createRealm, createUser, subscribe, w } from '../points/helpers.ts';

describe('validation attacks replayed', () => {
  const MAX = Number.MAX_SAFE_INTEGER;

  function refused(r: HttpResult, httpStatus: number, code: string, field?: string): void {
    assert.equal(r.status, httpStatus, r.text);
    assert.equal(r.body.error, code, r.text);
    if (field !== undefined) {
      assert.equal(r.body.field, field, r.text);
      assert.ok(String(r.body.message).startsWith(`${field}: `), r.body.message);
    }
  }

  function refusedOverGrpc(r: GrpcResult, code: status, reason: string, field?: string): void {
    assert.ok(!r.ok, `expected ${reason}, got ${JSON.stringify(r)}`);
    assert.equal(r.error.code, code);
    assert.equal(r.error.reason, reason);
    if (field !== undefined) assert.equal(r.error.metadata.field, field);
  }

  let srv: InProcessServer;
  let h: Api;
  before(async () => {
    srv = await startInProcess();
    h = api(srv.http, srv.adminKey);
  });
  after(async () => {
    closeGrpcClients();
    await srv.stop();
  });

  describe('quota windows: a missing field is never read as 0', () => {
    before(() => createRealm(h, 'win'));

    it('refuses a default-config window without limit (HTTP) and saves nothing', async () => {
      const before = (await h.get('/api/points/win/default-config')).body;
      refused(
        await h.put('/api/points/win/default-config', { freePeriodicQuotaWindows: [{ windowSeconds: 3600 }] }),
        400,
        'bad_request',
        'freePeriodicQuotaWindows[0].limit',
      );
      refused(
        await h.put('/api/points/win/default-config', { freePeriodicQuotaWindows: [w(60, 1), { windowSeconds: 3600, limit: null }] }),
        400,
        'bad_request',
        'freePeriodicQuotaWindows[1].limit',
      );
      assert.match((await h.put('/api/points/win/default-config', { freePeriodicQuotaWindows: [{ windowSeconds: 3600 }] })).body.message, /limit: required/);
      assert.deepEqual((await h.get('/api/points/win/default-config')).body, before);
    });

    it('refuses a default-config window without windowSeconds (HTTP)', async () => {
      const r = await h.put('/api/points/win/default-config', { freePeriodicQuotaWindows: [{ limit: 5 }] });
      refused(r, 400, 'bad_request', 'freePeriodicQuotaWindows[0].windowSeconds');
      assert.match(r.body.message, /windowSeconds: required/);
    });

    it('refuses a default-config window without limit or windowSeconds over gRPC (presence, not 0)', async () => {
      const put = (windows: object[]) =>
        grpcCall(srv.grpc, 'PointsService', 'PutDefaultConfig', { realmId: 'win', freePeriodicQuotaWindows: { windows } }, srv.adminKey);
      refusedOverGrpc(await put([{ windowSeconds: 3600 }]), status.INVALID_ARGUMENT, 'bad_request', 'freePeriodicQuotaWindows[0].limit');
      refusedOverGrpc(await put([{ limit: 5 }]), status.INVALID_ARGUMENT, 'bad_request', 'freePeriodicQuotaWindows[0].windowSeconds');
      // An explicit 0 limit is still a limit of 0.
      const zero = await put([{ windowSeconds: 3600, limit: 0 }]);
      assert.ok(zero.ok, JSON.stringify(zero));
      assert.deepEqual(zero.value.freePeriodicQuotaWindows.windows, [{ windowSeconds: 3600, limit: 0 }]);
    });

    it('refuses a mapping window without limit or windowSeconds (HTTP and gRPC) and saves nothing', async () => {
      const batch = (windows: object[]) => ({
        paymentProvider: 'stripe',
        externalProductId: 'nolimit',
        updates: [{ entitlementKey: 'k', quotaWindows: windows }],
      });
      refused(await h.put('/api/bill/win/entitlement-mappings/batch', batch([{ windowSeconds: 60 }])), 400, 'bad_request', 'updates[0].quotaWindows[0].limit');
      refused(await h.put('/api/bill/win/entitlement-mappings/batch', batch([{ limit: 60 }])), 400, 'bad_request', 'updates[0].quotaWindows[0].windowSeconds');
      const g = await grpcCall(
        srv.grpc,
        'BillingService',
        'BatchUpdateEntitlementMappings',
        {
          realmId: 'win',
          paymentProvider: 'stripe',
          externalProductId: 'nolimit',
          updates: [{ entitlementKey: 'k', quotaWindows: { windows: [{ windowSeconds: 60 }] } }],
        },
        srv.adminKey,
      );
      refusedOverGrpc(g, status.INVALID_ARGUMENT, 'bad_request', 'updates[0].quotaWindows[0].limit');
      assert.deepEqual((await h.get('/api/bill/win/entitlement-mappings?externalProductId=nolimit')).body.mappings, []);
    });

    it('the CLI still sets windows (default-config set --window, mappings apply) and reports a missing limit', async () => {
      const env = { GATEHOUSE_SERVER: srv.grpc, GATEHOUSE_API_KEY: srv.adminKey, GATEHOUSE_REALM: 'win' };
      const set = await runCli(['default-config', 'set', '--window', '5h=500', '--window', '1w=0', '--json'], { env });
      assert.equal(set.code, 0, set.stderr);
      assert.deepEqual(set.json().freePeriodicQuotaWindows, [w(18000, 500), w(604800, 0)]);

      const dir = tempDir();
      const file = join(dir, 'batch.json');
      writeFileSync(
        file,
        JSON.stringify({ paymentProvider: 'stripe', externalProductId: 'cli', updates: [{ entitlementKey: 'pro', quotaWindows: [w(3600, 0), w(86400, 40)] }] }),
      );
      const applied = await runCli(['mappings', 'apply', '--file', file, '--json'], { env });
      assert.equal(applied.code, 0, applied.stderr);
      assert.deepEqual(applied.json().mappings[0].quotaWindows, [w(3600, 0), w(86400, 40)]);

      writeFileSync(
        file,
        JSON.stringify({
          paymentProvider: 'stripe',
          externalProductId: 'cli-bad',
          updates: [{ entitlementKey: 'pro', quotaWindows: [{ windowSeconds: 3600 }] }],
        }),
      );
      const bad = await runCli(['mappings', 'apply', '--file', file], { env });
      assert.notEqual(bad.code, 0);
      assert.match(bad.stderr, /updates\[0\]\.quotaWindows\[0\]\.limit: required/);
      assert.equal((await runCli(['default-config', 'set', '--window', '367d=5'], { env })).code, 2, 'a window past 366 days is refused before sending');
    });
  });

  describe('quota windows: lengths and limits are bounded', () => {
    before(() => createRealm(h, 'huge'));

    it('refuses windowSeconds 2^53−1 in the default config, so summaries and /me keep answering', async () => {
      const user = await createUser(h, 'huge', 'huge@example.com');
      const r = await h.put('/api/points/huge/default-config', { freePeriodicPointsAmount: 0, freePeriodicQuotaWindows: [w(MAX, 10)] });
      refused(r, 400, 'bad_request', 'freePeriodicQuotaWindows[0].windowSeconds');
      assert.match(r.body.message, /at most 31622400 \(366 days\)/);
      refused(
        await h.put('/api/points/huge/default-config', { freePeriodicQuotaWindows: [w(31_622_401, 10)] }),
        400,
        'bad_request',
        'freePeriodicQuotaWindows[0].windowSeconds',
      );
      refusedOverGrpc(
        await grpcCall(srv.grpc, 'PointsService', 'PutDefaultConfig', { realmId: 'huge', freePeriodicQuotaWindows: { windows: [w(MAX, 10)] } }, srv.adminKey),
        status.INVALID_ARGUMENT,
        'bad_request',
        'freePeriodicQuotaWindows[0].windowSeconds',
      );
      assert.equal((await h.get(`/api/points/huge/users/${user}/summary`)).status, 200);
    });

    it('accepts the longest window (366 days) and its summary answers with exact times', async () => {
      assert.equal(
        (await h.put('/api/points/huge/default-config', { freePeriodicGrantPeriodType: 'once', freePeriodicQuotaWindows: [w(31_622_400, 10)] })).status,
        200,
      );
      const user = await createUser(h, 'huge', 'longest@example.com');
      const used = await h.post('/api/points/huge/consume', { userId: user, amount: 3 });
      assert.equal(used.status, 200, used.text);
      const s = await h.get(`/api/points/huge/users/${user}/summary`);
      assert.equal(s.status, 200, s.text);
      const row = s.body.windows[0];
      assert.deepEqual([row.key, row.limit, row.used, row.remaining], ['366d', 10, 3, 7]);
      assert.equal(Date.parse(row.resetsAt) - Date.parse(used.body.createdAt), 31_622_400_000);
    });

    it('refuses a mapping window of 2^53−1 seconds or a limit past 2^53−1 (HTTP and gRPC)', async () => {
      const batch = (windows: object[]) => ({
        paymentProvider: 'stripe',
        externalProductId: 'huge',
        updates: [{ entitlementKey: 'k', quotaWindows: windows }],
      });
      refused(await h.put('/api/bill/huge/entitlement-mappings/batch', batch([w(MAX, 1)])), 400, 'bad_request', 'updates[0].quotaWindows[0].windowSeconds');
      refused(
        await h.put('/api/bill/huge/entitlement-mappings/batch', batch([w(60, 1), w(0, 1)])),
        400,
        'bad_request',
        'updates[0].quotaWindows[1].windowSeconds',
      );
      const overGrpc = (windows: object[]) =>
        grpcCall(
          srv.grpc,
          'BillingService',
          'BatchUpdateEntitlementMappings',
          {
            realmId: 'huge',
            paymentProvider: 'stripe',
            externalProductId: 'huge',
            updates: [{ entitlementKey: 'k', quotaWindows: { windows } }],
          },
          srv.adminKey,
        );
      refusedOverGrpc(await overGrpc([w(MAX, 1)]), status.INVALID_ARGUMENT, 'bad_request', 'updates[0].quotaWindows[0].windowSeconds');
      refusedOverGrpc(await overGrpc([w(60, 2 ** 53)]), status.INVALID_ARGUMENT, 'bad_request', 'updates[0].quotaWindows[0].limit');
      assert.deepEqual((await h.get('/api/bill/huge/entitlement-mappings?externalProductId=huge')).body.mappings, []);
      const ok = await overGrpc([w(60, MAX)]);
      assert.ok(ok.ok, JSON.stringify(ok));
    });
  });

  describe('grants cannot take a total past 2^53−1', () => {
    before(() => createRealm(h, 'big'));

    it('refuses a second grant of 2^53−1 (400 naming amount), leaving the total exact', async () => {
      const user = await createUser(h, 'big', 'twice@example.com');
      const first = await h.post(`/api/points/big/users/${user}/grants`, { kind: 'topup_credit', amount: MAX });
      assert.equal(first.status, 200, first.text);
      refused(await h.post(`/api/points/big/users/${user}/grants`, { kind: 'granted_credit', amount: MAX }), 400, 'bad_request', 'amount');
      refused(await h.post(`/api/points/big/users/${user}/grants`, { kind: 'granted_credit', amount: 1 }), 400, 'bad_request', 'amount');
      refusedOverGrpc(
        await grpcCall(srv.grpc, 'PointsService', 'Grant', { realmId: 'big', userId: user, kind: 'granted_credit', amount: 1 }, srv.adminKey),
        status.INVALID_ARGUMENT,
        'bad_request',
        'amount',
      );
      const s = (await h.get(`/api/points/big/users/${user}/summary`)).body;
      assert.equal(s.total, MAX);
      assert.deepEqual(s.balances, { topup: MAX, registration: 0, granted: 0, subscription: 0, freePeriodic: 0 });
      // Once some is spent, a grant up to the cap fits again.
      assert.equal((await h.post('/api/points/big/consume', { userId: user, amount: 10 })).status, 200);
      assert.equal((await h.post(`/api/points/big/users/${user}/grants`, { kind: 'granted_credit', amount: 10 })).status, 200);
      assert.equal((await h.get(`/api/points/big/users/${user}/summary`)).body.total, MAX);
    });

    it('refuses an amount past 2^53−1 or below 1 on both transports', async () => {
      const user = await createUser(h, 'big', 'range@example.com');
      refused(await h.post(`/api/points/big/users/${user}/grants`, { kind: 'topup_credit', amount: MAX + 1 }), 400, 'bad_request', 'amount');
      refused(await h.post(`/api/points/big/users/${user}/grants`, { kind: 'topup_credit', amount: 0 }), 400, 'bad_request', 'amount');
      refusedOverGrpc(
        await grpcCall(srv.grpc, 'PointsService', 'Grant', { realmId: 'big', userId: user, kind: 'topup_credit', amount: 2 ** 60 }, srv.adminKey),
        status.INVALID_ARGUMENT,
        'bad_request',
        'amount',
      );
    });

    it('lets only one of several concurrent grants that together pass the cap through', async () => {
      const user = await createUser(h, 'big', 'race@example.com');
      const half = 2 ** 52; // two of them make 2^53, one more than the cap
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          i % 2 === 0
            ? h.post(`/api/points/big/users/${user}/grants`, { kind: 'topup_credit', amount: half })
            : grpcCall(srv.grpc, 'PointsService', 'Grant', { realmId: 'big', userId: user, kind: 'topup_credit', amount: half }, srv.adminKey).then((g) => ({
                status: g.ok ? 200 : 400,
              })),
        ),
      );
      assert.deepEqual(results.map((r) => r.status).sort(), [200, 400, 400, 400, 400, 400]);
      assert.equal((await h.get(`/api/points/big/users/${user}/summary`)).body.total, half);
    });

    it('keeps grants the service makes itself (registration, free periodic, subscription) within the cap', async () => {
      await createRealm(h, 'bigcfg');
      const cfg = await h.put('/api/points/bigcfg/default-config', {
        registrationBonusPoints: MAX,
        freePeriodicPointsAmount: MAX,
        freePeriodicGrantPeriodType: 'monthly',
      });
      assert.equal(cfg.status, 200, cfg.text);
      const user = await createUser(h, 'bigcfg', 'cfg@example.com');
      const m = await createMapping(h, 'bigcfg', { entitlementKey: 'fixed', pointsPerPeriod: MAX });
      await subscribe(h, 'bigcfg', user, m.mappingId);
      const s = (await h.get(`/api/points/bigcfg/users/${user}/summary`)).body;
      assert.equal(s.total, MAX);
      assert.equal(s.spendableFromPool, MAX);
      assert.equal(s.balances.registration + s.balances.freePeriodic + s.balances.subscription, MAX);
      refused(await h.post(`/api/points/bigcfg/users/${user}/grants`, { kind: 'topup_credit', amount: 1 }), 400, 'bad_request', 'amount');
    });
  });

  describe('redirect URIs are judged raw, before any parsing', () => {
    const client = (clientId: string, redirectUris: string[]) => ({ clientId, name: clientId, type: 'third_party', redirectUris });
    before(() => createRealm(h, 'redir'));

    const bad: Array<[string, string]> = [
      ['a CR/LF (header splitting)', 'https://app.example/cb\r\nSet-Cookie: a=1'],
      ['a LF inside the host', 'https://app.exa\nmple/cb'],
      ['a tab', 'https://app.example/\tcb'],
      ['a fragment', 'https://app.example/cb#frag'],
      ['plain http to a public host', 'http://app.example/cb'],
      ['a backslash', 'https:\\\\app.example/cb'],
      ['a scheme without a period', 'myapp://cb'],
      ['javascript:', 'javascript:alert(1)'],
    ];
    for (const [name, uri] of bad) {
      it(`refuses a client whose redirect URI has ${name} (HTTP), creating nothing`, async () => {
        refused(await h.post('/api/admin/realms/redir/clients', client('bad', ['https://ok.example/cb', uri])), 400, 'bad_request', 'redirectUris[1]');
        assert.equal((await h.get('/api/admin/realms/redir/clients/bad')).status, 404);
      });
    }

    it('refuses a CR/LF redirect URI over gRPC and in a PATCH, changing nothing', async () => {
      refusedOverGrpc(
        await grpcCall(srv.grpc, 'AdminService', 'CreateClient', { realmId: 'redir', ...client('bad', ['https://app.example/cb\r\n']) }, srv.adminKey),
        status.INVALID_ARGUMENT,
        'bad_request',
        'redirectUris[0]',
      );
      assert.equal((await h.post('/api/admin/realms/redir/clients', client('good', ['https://app.example/cb']))).status, 200);
      refused(
        await h.patch('/api/admin/realms/redir/clients/good', { redirectUris: ['https://app.example/cb', 'https://app.example/x\r\ny'] }),
        400,
        'bad_request',
        'redirectUris[1]',
      );
      refusedOverGrpc(
        await grpcCall(
          srv.grpc,
          'AdminService',
          'UpdateClient',
          { realmId: 'redir', clientId: 'good', redirectUris: { values: ['https://app.example/\tcb'] } },
          srv.adminKey,
        ),
        status.INVALID_ARGUMENT,
        'bad_request',
        'redirectUris[0]',
      );
      assert.deepEqual((await h.get('/api/admin/realms/redir/clients/good')).body.redirectUris, ['https://app.example/cb']);
    });

    it('keeps https, loopback http and reverse-domain private-use schemes valid', async () => {
      const uris = [
        'https://app.example/cb?tenant=7',
        'http://127.0.0.1:49152/cb',
        'http://[::1]/cb',
        'http://localhost:3000/cb',
        'com.example.app:/cb',
        'com.example.app://oauth',
      ];
      const r = await h.post('/api/admin/realms/redir/clients', client('native', uris));
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(r.body.redirectUris, uris);
    });

    it('never matches a redirect URI stored raw before the rules, so /authorize refuses it', async () => {
      // A client saved by an earlier version, straight through the store (no validation there).
      const raw = 'https://app.example/cb\r\nSet-Cookie: a=1';
      assert.ok(
        await withStores(srv.dbPath, (s) =>
          s.admin.createClient({
            realmId: 'redir',
            clientId: 'legacy',
            name: 'legacy',
            type: 'third_party',
            redirectUris: [raw],
            ipBinding: 'off',
            enabled: true,
            accessTokenTtlSeconds: 900,
            refreshTokenTtlSeconds: 2_592_000,
            createdAt: Date.now(),
          }),
        ),
      );
      const params = new URLSearchParams({
        response_type: 'code',
        client_id: 'legacy',
        redirect_uri: raw,
        state: 'state-legacy-1',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      });
      const r = await http(srv.http, 'GET', `/api/oauth/redir/authorize?${params}`);
      assert.equal(r.status, 400, r.text);
      assert.equal(r.body.error, 'invalid_request');
      assert.match(r.body.message ?? r.body.error_description ?? r.text, /redirect_uri/);
    });
  });

  describe('an API key manages only keys within its own realm and permissions', () => {
    let keysOnly: string;
    const ids: Record<string, string> = {};
    before(async () => {
      await createRealm(h, 'keys');
      await createRealm(h, 'keys2');
      keysOnly = await createKey(h, 'keys', ['api_keys.manage']);
      for (const [name, realm, permissions] of [
        ['points', 'keys', ['points.manage']],
        ['star', '*', ['*']],
        ['realmStar', 'keys', ['*']],
        ['other', 'keys2', ['api_keys.manage']],
        ['peer', 'keys', ['api_keys.manage']],
        ['peer2', 'keys', ['api_keys.manage']],
      ] as const) {
        const r = await h.post('/api/admin/api-keys', { realm, permissions, name });
        assert.equal(r.status, 200, r.text);
        ids[name] = r.body.id;
      }
    });
    const stillActive = async (id: string) => {
      const k = (await h.get('/api/admin/api-keys')).body.keys.find((x: { id: string }) => x.id === id);
      assert.equal(k.revokedAt, null, `${id} was revoked`);
    };

    it('refuses revoking a more privileged key of its realm over HTTP (403, nothing revoked)', async () => {
      for (const name of ['points', 'realmStar'] as const) {
        refused(await http(srv.http, 'DELETE', `/api/admin/api-keys/${ids[name]}`, { key: keysOnly }), 403, 'forbidden');
        await stillActive(ids[name]!);
      }
    });

    it("refuses revoking an all-realm key or another realm's key over HTTP (403, nothing revoked)", async () => {
      for (const name of ['star', 'other'] as const) {
        refused(await http(srv.http, 'DELETE', `/api/admin/api-keys/${ids[name]}`, { key: keysOnly }), 403, 'forbidden');
        await stillActive(ids[name]!);
      }
    });

    it('refuses the same revocations over gRPC (PERMISSION_DENIED, nothing revoked)', async () => {
      for (const name of ['points', 'star', 'realmStar', 'other'] as const) {
        refusedOverGrpc(await grpcCall(srv.grpc, 'AdminService', 'RevokeApiKey', { keyId: ids[name] }, keysOnly), status.PERMISSION_DENIED, 'forbidden');
        await stillActive(ids[name]!);
      }
    });

    it('refuses creating a more privileged key over HTTP and gRPC', async () => {
      refused(
        await http(srv.http, 'POST', '/api/admin/api-keys', { key: keysOnly, body: { realm: 'keys', permissions: ['points.manage'] } }),
        403,
        'forbidden',
      );
      refused(await http(srv.http, 'POST', '/api/admin/api-keys', { key: keysOnly, body: { realm: 'keys', permissions: ['*'] } }), 403, 'forbidden');
      refused(await http(srv.http, 'POST', '/api/admin/api-keys', { key: keysOnly, body: { realm: '*', permissions: ['api_keys.manage'] } }), 403, 'forbidden');
      refusedOverGrpc(
        await grpcCall(srv.grpc, 'AdminService', 'CreateApiKey', { realm: 'keys', permissions: ['points.manage'] }, keysOnly),
        status.PERMISSION_DENIED,
        'forbidden',
      );
      refusedOverGrpc(
        await grpcCall(srv.grpc, 'AdminService', 'CreateApiKey', { realm: 'keys2', permissions: ['api_keys.manage'] }, keysOnly),
        status.PERMISSION_DENIED,
        'forbidden',
      );
    });

    it('still revokes a key within its own realm and permissions (HTTP and gRPC)', async () => {
      assert.equal((await http(srv.http, 'DELETE', `/api/admin/api-keys/${ids.peer}`, { key: keysOnly })).status, 200);
      const g = await grpcCall(srv.grpc, 'AdminService', 'RevokeApiKey', { keyId: ids.peer2 }, keysOnly);
      assert.ok(g.ok, JSON.stringify(g));
      assert.notEqual(g.value.revokedAt, null);
    });
  });

  describe('the database, its -wal/-shm and backups are owner-only whatever the umask', () => {
    const mode = (p: string) => statSync(p).mode & 0o777;
    const octal = (p: string) => mode(p).toString(8);
    /** `bin/gatehouse ARGS` under umask 022 (the common default that makes files world-readable). */
    const underUmask = (args: string[]) => ['-c', 'umask 022; exec "$@"', 'sh', process.execPath, BIN, ...args];
    const cliUnderUmask = (args: string[], cwd = ROOT): Promise<CliResult> =>
      new Promise((resolve, reject) => {
        const p = spawn('sh', underUmask(args), { cwd, env: { ...process.env, GATEHOUSE_SERVER: '', GATEHOUSE_API_KEY: '', GATEHOUSE_REALM: '' } });
        let stdout = '';
        let stderr = '';
        p.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
        p.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
        p.on('error', reject);
        p.on('exit', (code) => resolve({ code, stdout, stderr, json: () => JSON.parse(stdout) }));
      });
    async function serveUnderUmask(dbPath: string): Promise<{ stop: () => Promise<void> }> {
      const p = spawn('sh', underUmask(['serve', '--db', dbPath, '--grpc', '127.0.0.1:0', '--http', '127.0.0.1:0']), {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      p.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      const exited = new Promise<void>((res) => p.once('exit', () => res()));
      // Ready: listening, with migrations written (so -wal and -shm exist).
      await new Promise<void>((resolve, reject) => {
        const rl = createInterface({ input: p.stdout });
        rl.on('line', (line) => line.startsWith('{"event":"ready"') && resolve());
        void exited.then(() => reject(new Error(`serve exited before ready:\n${stderr}`)));
      });
      return {
        stop: async () => {
          p.kill('SIGTERM');
          await exited;
        },
      };
    }

    it('keys create --db makes the missing folders 0700 and the database 0600', async () => {
      const dir = tempDir();
      const dbPath = join(dir, 'made', 'by', 'gatehouse', 'g.db');
      const r = await cliUnderUmask(['keys', 'create', '--db', dbPath, '--key-realm', '*', '--permission', '*', '--json']);
      assert.equal(r.code, 0, r.stderr);
      for (const folder of ['made', 'made/by', 'made/by/gatehouse']) assert.equal(octal(join(dir, folder)), '700', folder);
      assert.equal(octal(dbPath), '600');
      for (const f of [`${dbPath}-wal`, `${dbPath}-shm`]) if (existsSync(f)) assert.equal(octal(f), '600', f);
    });

    it('keys create --db with a relative path makes only the missing folders 0700, not the working directory', async () => {
      const dir = tempDir();
      chmodSync(dir, 0o755);
      const r = await cliUnderUmask(['keys', 'create', '--db', 'rel/g.db', '--key-realm', '*', '--permission', '*', '--json'], dir);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(octal(dir), '755');
      assert.equal(octal(join(dir, 'rel')), '700');
      assert.equal(octal(join(dir, 'rel', 'g.db')), '600');
    });

    it('serve creates the database, -wal and -shm 0600 (the checkpointer included), and backup --out writes 0600', async () => {
      const dir = tempDir();
      const dbPath = join(dir, 'data', 'g.db');
      const s = await serveUnderUmask(dbPath);
      try {
        assert.equal(octal(join(dir, 'data')), '700');
        for (const f of [dbPath, `${dbPath}-wal`, `${dbPath}-shm`]) assert.equal(octal(f), '600', f);
        const out = join(dir, 'backup.db');
        const b = await cliUnderUmask(['backup', '--db', dbPath, '--out', out, '--json']);
        assert.equal(b.code, 0, b.stderr);
        assert.equal(octal(out), '600');
        assert.ok(!existsSync(`${out}.partial`));
        const forced = await cliUnderUmask(['backup', '--db', dbPath, '--out', out, '--force', '--json']);
        assert.equal(forced.code, 0, forced.stderr);
        assert.equal(octal(out), '600');
      } finally {
        await s.stop();
      }
    });

    it('tightens a world-readable database and stale -wal/-shm to 0600 when serve opens them', async () => {
      const dir = tempDir();
      mkdirSync(join(dir, 'old'));
      const dbPath = join(dir, 'old', 'g.db');
      const made = await cliUnderUmask(['keys', 'create', '--db', dbPath, '--key-realm', '*', '--permission', '*', '--json']);
      assert.equal(made.code, 0, made.stderr);
      chmodSync(dbPath, 0o644);
      for (const f of [`${dbPath}-wal`, `${dbPath}-shm`]) {
        if (!existsSync(f)) writeFileSync(f, '');
        chmodSync(f, 0o644);
      }
      const s = await serveUnderUmask(dbPath);
      try {
        for (const f of [dbPath, `${dbPath}-wal`, `${dbPath}-shm`]) assert.equal(octal(f), '600', f);
      } finally {
        await s.stop();
      }
    });
  });
});
