// `serve --workers 2`: two processes behind one pair of ports, as operators run it. Which process
// served a call is read from the log line the call writes (each worker's lines carry its pid,
// matched by the request id the test sends); a pinned keep-alive connection stays on one worker.
// The workers share one database: a SQLite file, and PostgreSQL.

import assert from 'node:assert/strict';
import { Agent, request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { apiProtoFiles, LOADER_OPTIONS } from '../../server/rpc/proto.ts';
import { describeEachBackend } from '../helpers/backends.ts';
import { runCli } from '../helpers/cli.ts';
import { requestInFlight } from '../helpers/http.ts';
import { startIdp, type TestIdp } from '../helpers/idp.ts';
import { type SpawnedServer, spawnServer, tempDir } from '../helpers/server.ts';

const REALM = 'wk';
const APPLE_AUD = 'com.example.workers';
const GOOGLE_AUD = 'workers.apps.example';
const GOOGLE_ISSUER = 'https://accounts.google.test';

interface Answer {
  status: number;
  body: Record<string, any>;
  requestId: string;
}

let seq = 0;
const nextId = () => `wk-${process.pid}-${++seq}`;

/** One HTTP call; `agent` false opens a connection of its own (node:cluster hands each new
 *  connection to the next worker). */
function call(
  base: string,
  method: string,
  path: string,
  opts: { body?: unknown; form?: Record<string, string>; auth?: string; agent?: Agent | false } = {},
): Promise<Answer> {
  const requestId = nextId();
  const headers: Record<string, string> = { 'x-request-id': requestId };
  let payload: string | undefined;
  if (opts.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    payload = new URLSearchParams(opts.form).toString();
  } else if (opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(opts.body);
  }
  if (opts.auth) headers.authorization = `Bearer ${opts.auth}`;
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { method, headers, agent: opts.agent ?? false }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : {}, requestId }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** The pid in the log line of the call with this request id (written once the answer is out). */
async function servedBy(srv: SpawnedServer, requestId: string): Promise<number> {
  const line = await logLine(srv, (l) => l.requestId === requestId && (l.msg === 'http' || l.msg === 'grpc'));
  return line.pid as number;
}

const pidsOf = async (srv: SpawnedServer, answers: Answer[]) => new Set(await Promise.all(answers.map((a) => servedBy(srv, a.requestId))));

/** Waits until a log line passes `test`, however long that takes; returns it parsed. */
async function logLine(srv: SpawnedServer, test: (l: Record<string, any>) => boolean): Promise<Record<string, any>> {
  for (;;) {
    for (const l of srv.logs().split('\n')) {
      if (!l.startsWith('{')) continue;
      const parsed = JSON.parse(l) as Record<string, any>;
      if (test(parsed)) return parsed;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Two keep-alive connections held by different workers, with their pids. */
async function connectionsOnTwoWorkers(srv: SpawnedServer): Promise<Array<{ agent: Agent; pid: number }>> {
  const found = new Map<number, Agent>();
  for (let i = 0; i < 12 && found.size < 2; i++) {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const r = await call(srv.http, 'GET', '/healthz', { agent });
    const pid = await servedBy(srv, r.requestId);
    if (found.has(pid)) agent.destroy();
    else found.set(pid, agent);
  }
  assert.equal(found.size, 2, 'two connections on two workers');
  return [...found].map(([pid, agent]) => ({ agent, pid }));
}

const pkg = grpc.loadPackageDefinition(protoLoader.loadSync(apiProtoFiles(), LOADER_OPTIONS)) as any;

describeEachBackend('serve --workers 2', (backend) => {
  let srv: SpawnedServer;
  let apple: TestIdp;
  let google: TestIdp;
  const admin = (method: string, path: string, body?: unknown, agent?: Agent) => call(srv.http, method, path, { body, auth: srv.adminKey, agent });
  const login = async (agent?: Agent | false, sub = `u-${nextId()}`) => {
    const identityToken = await apple.token({ sub, email: `${sub}@example.com` });
    return call(srv.http, 'POST', `/api/oauth/${REALM}/apple/native-login`, { body: { identityToken, clientId: 'app' }, agent });
  };
  const ok = (r: Answer) => assert.equal(r.status, 200, JSON.stringify(r.body));

  before(async () => {
    apple = await startIdp({ audience: APPLE_AUD });
    google = await startIdp({ audience: GOOGLE_AUD, issuer: GOOGLE_ISSUER });
    srv = await spawnServer({
      backend,
      args: [
        '--workers',
        '2',
        ...['--apple-jwks-url', apple.jwksUrl, '--apple-issuer', apple.issuer],
        ...['--google-jwks-url', google.jwksUrl, '--google-issuer', GOOGLE_ISSUER],
        ...['--login-rate-limit', '0'],
        // The drain test holds the Google key set unanswered while the workers begin to stop.
        ...['--jwks-timeout-ms', '600000'],
      ],
    });
    ok(await admin('POST', '/api/admin/realms', { id: REALM, name: REALM }));
    ok(await admin('PUT', `/api/admin/realms/${REALM}/providers/apple`, { clientId: APPLE_AUD, enabled: true }));
    ok(await admin('PUT', `/api/admin/realms/${REALM}/providers/google`, { clientId: GOOGLE_AUD, enabled: true }));
    ok(await admin('POST', `/api/admin/realms/${REALM}/clients`, { clientId: 'app', name: 'App', type: 'first_party', redirectUris: [], ipBinding: 'off' }));
  });
  after(async () => {
    await srv.stop();
    await apple.close();
    await google.close();
  });

  it('prints one ready line with the ports it listens on, once both workers listen', async () => {
    const lines = srv.stdout().trim().split('\n');
    assert.equal(lines.length, 1, srv.stdout());
    const ready = JSON.parse(lines[0]!);
    assert.deepEqual(Object.keys(ready), ['event', 'grpc', 'http', 'workers']);
    assert.equal(ready.event, 'ready');
    assert.equal(ready.workers, 2);
    for (const addr of [ready.grpc, ready.http]) assert.match(addr, /^127\.0\.0\.1:[1-9]\d*$/);
    // The first connections after the line already reach both workers.
    const answers = await Promise.all(Array.from({ length: 6 }, () => call(srv.http, 'GET', '/healthz')));
    for (const a of answers) ok(a);
    assert.equal((await pidsOf(srv, answers)).size, 2);
  });

  it('answers gRPC calls from both workers on the one gRPC port', async () => {
    const clients = Array.from(
      { length: 6 },
      // A channel of its own each (grpc-js would otherwise share one connection between them).
      () => new pkg.gatehouse.v1.AdminService(srv.grpc, grpc.credentials.createInsecure(), { 'grpc.use_local_subchannel_pool': 1 }),
    );
    try {
      const ids = await Promise.all(
        clients.map(
          (c) =>
            new Promise<string>((resolve, reject) => {
              const requestId = nextId();
              const md = new grpc.Metadata();
              md.set('authorization', `Bearer ${srv.adminKey}`);
              md.set('x-request-id', requestId);
              c.ListRealms({}, md, (err: Error | null, res: { realms: Array<{ id: string }> }) =>
                err ? reject(err) : (assert.ok(res.realms.some((r) => r.id === REALM)), resolve(requestId)),
              );
            }),
        ),
      );
      assert.equal(new Set(await Promise.all(ids.map((id) => servedBy(srv, id)))).size, 2);
    } finally {
      for (const c of clients) c.close();
    }
  });

  it('lets one refresh rotation win and spends no point twice when logins, refreshes and consumes spread over both workers', async () => {
    const logins = await Promise.all(Array.from({ length: 4 }, () => login()));
    for (const l of logins) ok(l);
    assert.equal((await pidsOf(srv, logins)).size, 2, 'logins on both workers');

    // The same refresh token to both workers at once: one rotation.
    const { refreshToken, userId } = logins[0]!.body as { refreshToken: string; userId: string };
    const refreshes = await Promise.all(
      Array.from({ length: 6 }, () =>
        call(srv.http, 'POST', `/api/oauth/${REALM}/token`, { form: { grant_type: 'refresh_token', refresh_token: refreshToken } }),
      ),
    );
    assert.equal((await pidsOf(srv, refreshes)).size, 2, 'refreshes on both workers');
    assert.equal(refreshes.filter((r) => r.status === 200).length, 1, JSON.stringify(refreshes.map((r) => r.status)));
    for (const r of refreshes.filter((x) => x.status !== 200)) assert.equal(r.body.error, 'invalid_grant');

    // 100 points, 40 consumes of 7 at once: exactly 14 succeed, 2 points stay.
    ok(await admin('POST', `/api/points/${REALM}/users/${userId}/grants`, { kind: 'topup_credit', amount: 100 }));
    const consumes = await Promise.all(
      Array.from({ length: 40 }, () => call(srv.http, 'POST', `/api/points/${REALM}/consume`, { body: { userId, amount: 7 }, auth: srv.adminKey })),
    );
    assert.equal((await pidsOf(srv, consumes)).size, 2, 'consumes on both workers');
    for (const r of consumes) assert.ok(r.status === 200 || (r.status === 409 && r.body.error === 'insufficient_points'), JSON.stringify(r.body));
    assert.equal(consumes.filter((r) => r.status === 200).length, 14);
    const summary = await admin('GET', `/api/points/${REALM}/users/${userId}/summary`);
    assert.equal(summary.body.total, 2);
  });

  it('sees a change made through one worker on the next call served by the other', async () => {
    const [a, b] = await connectionsOnTwoWorkers(srv);
    const onA = async (r: Promise<Answer>) => {
      const x = await r;
      assert.equal(await servedBy(srv, x.requestId), a!.pid);
      return x;
    };
    const onB = async (r: Promise<Answer>) => {
      const x = await r;
      assert.equal(await servedBy(srv, x.requestId), b!.pid);
      return x;
    };

    // An API key revoked through A: refused by B, which had just let it in.
    const created = await onA(admin('POST', '/api/admin/api-keys', { realm: REALM, permissions: ['*'], name: 'short-lived' }, a!.agent));
    ok(created);
    const useKey = () => call(srv.http, 'GET', `/api/admin/realms/${REALM}`, { auth: created.body.key, agent: b!.agent });
    ok(await onB(useKey()));
    ok(await onA(admin('DELETE', `/api/admin/api-keys/${created.body.id}`, undefined, a!.agent)));
    assert.equal((await onB(useKey())).status, 401);

    // The points configuration changed through A: B answers the new one.
    const config = () => admin('GET', `/api/points/${REALM}/default-config`, undefined, b!.agent);
    assert.equal((await onB(config())).body.registrationBonusPoints, 0);
    ok(await onA(admin('PUT', `/api/points/${REALM}/default-config`, { registrationBonusPoints: 25 }, a!.agent)));
    assert.equal((await onB(config())).body.registrationBonusPoints, 25);

    // The client disabled through A: its tokens are inactive at B.
    const session = await onB(login(b!.agent));
    ok(session);
    const userinfo = () => call(srv.http, 'GET', `/api/oauth/${REALM}/userinfo`, { auth: session.body.accessToken, agent: b!.agent });
    ok(await onB(userinfo()));
    ok(await onA(admin('PATCH', `/api/admin/realms/${REALM}/clients/app`, { enabled: false }, a!.agent)));
    assert.equal((await onB(userinfo())).status, 401);
    ok(await onA(admin('PATCH', `/api/admin/realms/${REALM}/clients/app`, { enabled: true }, a!.agent)));
    assert.equal((await onB(userinfo())).status, 401, 'disabling ended the session');

    // The provider disabled through A: B answers 404 for it.
    ok(await onB(login(b!.agent)));
    ok(await onA(admin('PUT', `/api/admin/realms/${REALM}/providers/apple`, { clientId: APPLE_AUD, enabled: false }, a!.agent)));
    const refused = await onB(login(b!.agent));
    assert.equal(refused.status, 404);
    assert.equal(refused.body.message, 'apple provider not configured or not enabled');
    ok(await onA(admin('PUT', `/api/admin/realms/${REALM}/providers/apple`, { clientId: APPLE_AUD, enabled: true }, a!.agent)));
    a!.agent.destroy();
    b!.agent.destroy();
  });

  it('restarts a worker killed with SIGKILL, serving meanwhile, and waits longer when it dies again at once', async () => {
    const [victim] = await connectionsOnTwoWorkers(srv);
    victim!.agent.destroy();
    process.kill(victim!.pid, 'SIGKILL');
    const exited = await logLine(srv, (l) => l.msg === 'worker exited; restarting it' && l.workerPid === victim!.pid);
    assert.equal(exited.signal, 'SIGKILL');
    // While its replacement starts, every new connection goes to the other worker. (One that
    // node:cluster's primary handed to the victim before it saw it die is lost: see README.md.)
    const meanwhile = [];
    for (let i = 0; i < 6; i++) meanwhile.push(await call(srv.http, 'GET', `/api/admin/realms/${REALM}`, { auth: srv.adminKey }));
    for (const r of meanwhile) ok(r);
    assert.equal(exited.restartInMs, 0, 'a worker that served a while is replaced at once');
    const restarted = await logLine(srv, (l) => l.msg === 'worker restarted' && l.worker === exited.worker);
    const [x, y] = await connectionsOnTwoWorkers(srv);
    const pids = [x!.pid, y!.pid];
    assert.ok(!pids.includes(victim!.pid) && pids.includes(restarted.workerPid), `${pids} after ${victim!.pid} died`);
    x!.agent.destroy();
    y!.agent.destroy();

    // Its replacement dies too, before it served long: the next one waits.
    process.kill(restarted.workerPid, 'SIGKILL');
    const again = await logLine(srv, (l) => l.msg === 'worker exited; restarting it' && l.workerPid === restarted.workerPid);
    assert.equal(again.exitsInARow, 2);
    assert.ok(again.restartInMs > 0);
    await logLine(srv, (l) => l.msg === 'worker restarted' && l.worker === exited.worker && l.workerPid !== restarted.workerPid);
    ok(await login());
    assert.equal(srv.stdout().trim().split('\n').length, 1, 'still one ready line');
  });

  it('drains both workers on SIGTERM: calls in flight finish, the primary exits 0', async () => {
    // Google logins wait for the key set, which each worker fetches on its first one: held
    // unanswered, they are in flight in both workers when the signal comes, and answered once
    // both workers have begun to drain.
    google.setMode('hang');
    const hits = google.jwksHits();
    const tokens = await Promise.all(Array.from({ length: 8 }, (_, i) => google.token({ sub: `g-${i}`, email: `g${i}@example.com`, email_verified: true })));
    const inFlight = tokens.map((identityToken) => {
      const requestId = nextId();
      const body = { identityToken, clientId: 'app' };
      const r = requestInFlight(srv.http, 'POST', `/api/oauth/${REALM}/google/native-login`, { body, headers: { 'x-request-id': requestId } });
      return { received: r.received, answer: r.answer.then((a): Answer => ({ status: a.status, body: JSON.parse(a.text), requestId })) };
    });
    await Promise.all(inFlight.map((r) => r.received)); // every request is with a worker
    await google.jwksRequested(hits + 2); // both workers wait for the key set
    const code = srv.kill('SIGTERM');
    for (const worker of [0, 1]) await logLine(srv, (l) => l.msg === 'shutting down' && l.worker === worker);
    google.setMode('up');
    const answers = await Promise.all(inFlight.map((r) => r.answer));
    assert.deepEqual(
      answers.map((a) => a.status),
      answers.map(() => 200),
    );
    assert.equal((await pidsOf(srv, answers)).size, 2);
    assert.equal(await code, 0, srv.logs());
    const logs = srv.logs();
    assert.equal(logs.match(/"msg":"stopped","worker"/g)?.length, 2, 'each worker stopped');
    assert.match(logs, /"msg":"stopped","pid"/, 'the primary stopped');
  });
});

describe('serve --workers 2 that cannot start', () => {
  it('exits 1 with the reason, and no ready line, when the workers cannot listen', async () => {
    const taken = createServer().listen(0, '127.0.0.1');
    await new Promise((r) => taken.once('listening', r));
    try {
      const port = (taken.address() as { port: number }).port;
      const r = await runCli(['serve', '--workers', '2', '--db', join(tempDir(), 'g.db'), '--grpc', '127.0.0.1:0', '--http', `127.0.0.1:${port}`]);
      assert.equal(r.code, 1, r.stderr);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, /start_failed.*EADDRINUSE/);
    } finally {
      taken.close();
    }
  });
});
