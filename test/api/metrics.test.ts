// Operator endpoints over the real transports: GET /metrics in the Prometheus text format (requests
// by route template and status, gRPC codes, latency histograms, login and consume outcomes, JWKS
// fetches and cache state, database errors, write-batch sizes), GET /healthz and GET /readyz (503
// while the database cannot serve and once shutdown has begun).

import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { status as GrpcStatus } from '@grpc/grpc-js';
import Database from 'better-sqlite3';
import { sqliteConnectionOf } from '../../server/store/sqlite/backend.ts';
import { type AuthFixture, authFixture, OTHER_REALM, REALM } from '../auth/fixture.ts';
import { closeGrpcClients, grpcCall } from '../helpers/grpc.ts';
import { api, http } from '../helpers/http.ts';
import { spawnServer, startInProcess } from '../helpers/server.ts';

// ---------------------------------------------------------------- the text format, parsed

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

interface Scrape {
  types: Map<string, string>;
  samples: Sample[];
  /** The one sample of `name` whose labels are exactly `labels`; undefined when absent. */
  value(name: string, labels?: Record<string, string>): number | undefined;
}

const unescapeLabel = (s: string) => s.replace(/\\(["\\n])/g, (_, c: string) => (c === 'n' ? '\n' : c));

/** The Prometheus text exposition format (version 0.0.4): comments, then `name{labels} value`. */
function parseExposition(text: string): Scrape {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const type = /^# TYPE (\S+) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type) {
      types.set(type[1]!, type[2]!);
      continue;
    }
    if (line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    assert.ok(m, `not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    const body = m[2] ?? '';
    const re = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?/gy;
    let l: RegExpExecArray | null;
    let end = 0;
    while ((l = re.exec(body))) {
      labels[l[1]!] = unescapeLabel(l[2]!);
      end = re.lastIndex;
    }
    assert.equal(end, body.length, `labels not parsed: ${line}`);
    samples.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  const same = (a: Record<string, string>, b: Record<string, string>) =>
    Object.keys(a).length === Object.keys(b).length && Object.entries(b).every(([k, v]) => a[k] === v);
  return {
    types,
    samples,
    value(name, labels = {}) {
      const found = samples.filter((s) => s.name === name && same(s.labels, labels));
      assert.ok(found.length <= 1, `${name} ${JSON.stringify(labels)} appears ${found.length} times`);
      return found[0]?.value;
    },
  };
}

async function scrape(base: string): Promise<Scrape> {
  const res = await fetch(`${base}/metrics`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  return parseExposition(await res.text());
}

/** Every series of a histogram: cumulative buckets ending in +Inf = _count, and a _sum. */
function assertHistogram(s: Scrape, name: string): number {
  assert.equal(s.types.get(name), 'histogram', `${name} is a histogram`);
  const series = new Map<string, Sample[]>();
  for (const x of s.samples.filter((x) => x.name === `${name}_bucket`)) {
    const { le: _le, ...rest } = x.labels;
    const key = JSON.stringify(rest);
    series.set(key, [...(series.get(key) ?? []), x]);
  }
  assert.ok(series.size > 0, `${name} has series`);
  for (const [key, buckets] of series) {
    const labels = JSON.parse(key) as Record<string, string>;
    assert.ok(buckets.length >= 2, `${name} ${key}: buckets`);
    assert.equal(buckets.at(-1)!.labels.le, '+Inf');
    for (let i = 1; i < buckets.length; i++) {
      assert.ok(Number(buckets[i - 1]!.labels.le) < Number((buckets[i]!.labels.le ?? '').replace('+Inf', 'Infinity')), `${name} ${key}: bounds ascend`);
      assert.ok(buckets[i - 1]!.value <= buckets[i]!.value, `${name} ${key}: cumulative`);
    }
    assert.equal(s.value(`${name}_count`, labels), buckets.at(-1)!.value, `${name} ${key}: +Inf bucket = count`);
    assert.ok(s.value(`${name}_sum`, labels) !== undefined, `${name} ${key}: sum`);
  }
  return series.size;
}

// ---------------------------------------------------------------- raw HTTP/1.1 on one connection

const CONTINUE = 'HTTP/1.1 100 Continue\r\n\r\n';

/** Sends `first` now (a request with `Expect: 100-continue` and part of its body), runs `between`
 *  once the server's 100 Continue says it is reading that request, then sends `rest` on the same
 *  connection; resolves with every final answer's status and body. */
function pipelined(base: string, first: string, between: () => void, rest: string): Promise<Array<{ status: number; body: string }>> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const sock = connect(Number(port), hostname);
    let raw = '';
    const answers = () => {
      const out: Array<{ status: number; body: string }> = [];
      let rest = raw.replace(CONTINUE, ''); // an interim answer, not one of the two
      for (;;) {
        const head = /^HTTP\/1\.1 (\d{3})[^\r]*\r\n([\s\S]*?)\r\n\r\n/.exec(rest);
        if (!head) return out;
        const len = Number(/content-length: (\d+)/i.exec(head[2]!)?.[1] ?? 0);
        const start = head[0].length;
        if (rest.length < start + len) return out;
        out.push({ status: Number(head[1]), body: rest.slice(start, start + len) });
        rest = rest.slice(start + len);
      }
    };
    let continued = false;
    sock.setEncoding('utf8');
    sock.on('data', (d: string) => {
      raw += d;
      if (!continued && raw.startsWith(CONTINUE)) {
        continued = true;
        between();
        sock.write(rest);
      }
      if (answers().length === 2) {
        sock.destroy();
        resolve(answers());
      }
    });
    sock.on('error', reject);
    sock.on('close', () => resolve(answers()));
    sock.write(first);
  });
}

// ---------------------------------------------------------------- the counters

describe('GET /metrics', () => {
  let f: AuthFixture;
  let userId = '';
  const t0 = Date.now() / 1000;
  const nativeLogin = '/api/oauth/{realm_id}/{provider}/native-login';
  const consumeRoute = '/api/points/{realm_id}/consume';
  const grpcConsume = '/gatehouse.v1.PointsService/Consume';

  before(async () => {
    f = await authFixture({ inProcess: { config: { busyTimeoutMs: 300, trustProxy: 1 } } });
    assert.equal((await f.admin.put(`/api/points/${REALM}/default-config`, { registrationBonusPoints: 10 })).status, 200);

    // Logins: two accepted, then one refusal of each kind.
    for (const sub of ['metrics-1', 'metrics-2']) {
      const r = await f.login('apple', { identityToken: await f.apple.token({ sub }), clientId: 'app' });
      assert.equal(r.status, 200, r.text);
      userId = r.body.userId;
    }
    assert.equal((await f.login('apple', { identityToken: await f.apple.token({ aud: 'com.someone.else' }), clientId: 'app' })).status, 401);
    assert.equal((await f.login('apple', { clientId: 'app' })).status, 400);
    assert.equal((await f.login('google', { identityToken: await f.google.token(), clientId: 'app' }, { realm: OTHER_REALM })).status, 404);
    assert.equal((await f.login('facebook', { identityToken: 'x.y.z', clientId: 'app' })).status, 404);
    f.google.setMode('down');
    assert.equal((await f.login('google', { identityToken: await f.google.token(), clientId: 'app' })).status, 503);
    // The Apple web flow: a callback whose state was never issued.
    assert.equal((await http(f.srv.http, 'POST', `/api/oauth/${REALM}/apple/callback`, { form: { state: 'never-issued', code: 'c' } })).status, 400);

    // Consumes: three accepted (two over gRPC, one over HTTP), a replay, a conflict, one short of
    // points, one while another process holds the write lock; and a gRPC call without credential.
    const consume = (req: object, key?: string) => grpcCall(f.srv.grpc, 'PointsService', 'Consume', { realmId: REALM, userId, ...req }, key ?? f.srv.adminKey);
    assert.ok((await consume({ amount: 2 })).ok);
    assert.ok((await consume({ amount: 1, idempotencyKey: 'k1' })).ok);
    assert.ok((await consume({ amount: 1, idempotencyKey: 'k1' })).ok);
    const conflict = await consume({ amount: 2, idempotencyKey: 'k1' });
    assert.equal(!conflict.ok && conflict.error.code, GrpcStatus.ABORTED);
    const short = await consume({ amount: 1000 });
    assert.equal(!short.ok && short.error.code, GrpcStatus.FAILED_PRECONDITION);
    const anonymous = await grpcCall(f.srv.grpc, 'PointsService', 'Consume', { realmId: REALM, userId, amount: 1 });
    assert.equal(!anonymous.ok && anonymous.error.code, GrpcStatus.UNAUTHENTICATED);
    assert.equal((await f.admin.post(`/api/points/${REALM}/consume`, { userId, amount: 1 })).status, 200);
    const other = new Database(f.srv.dbPath);
    other.exec('BEGIN IMMEDIATE');
    try {
      const busy = await f.admin.post(`/api/points/${REALM}/consume`, { userId, amount: 1 });
      assert.equal(busy.status, 503, busy.text);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }

    // A path no route matches, with something secret-looking in it.
    assert.equal((await http(f.srv.http, 'GET', '/api/points/SECRET-path-value/nothing/here')).status, 404);
  });
  after(async () => {
    closeGrpcClients();
    await f.close();
  });

  it('counts HTTP requests by route template, method and status', async () => {
    const s = await scrape(f.srv.http);
    assert.equal(s.types.get('gatehouse_http_requests_total'), 'counter');
    const http = (route: string, method: string, status: number) => s.value('gatehouse_http_requests_total', { route, method, status: String(status) });
    assert.equal(http(nativeLogin, 'POST', 200), 2);
    assert.equal(http(nativeLogin, 'POST', 401), 1);
    assert.equal(http(nativeLogin, 'POST', 400), 1);
    assert.equal(http(nativeLogin, 'POST', 404), 2);
    assert.equal(http(nativeLogin, 'POST', 503), 1);
    assert.equal(http(consumeRoute, 'POST', 200), 1);
    assert.equal(http(consumeRoute, 'POST', 503), 1);
    assert.equal(http('unmatched', 'GET', 404), 1);
  });

  it('counts gRPC calls by method and status code', async () => {
    const s = await scrape(f.srv.http);
    const grpc = (code: string) => s.value('gatehouse_grpc_requests_total', { method: grpcConsume, code });
    assert.equal(grpc('OK'), 3);
    assert.equal(grpc('ABORTED'), 1);
    assert.equal(grpc('FAILED_PRECONDITION'), 1);
    assert.equal(grpc('UNAUTHENTICATED'), 1);
  });

  it('has latency histograms in seconds per route and method, with buckets, sum and count', async () => {
    const s = await scrape(f.srv.http);
    assert.ok(assertHistogram(s, 'gatehouse_http_request_duration_seconds') >= 3);
    assert.equal(s.value('gatehouse_http_request_duration_seconds_count', { route: nativeLogin, method: 'POST' }), 7);
    const loginSeconds = s.value('gatehouse_http_request_duration_seconds_sum', { route: nativeLogin, method: 'POST' })!;
    assert.ok(loginSeconds > 0 && loginSeconds < 60, `seconds, not milliseconds: ${loginSeconds}`);
    assertHistogram(s, 'gatehouse_grpc_request_duration_seconds');
    assert.equal(s.value('gatehouse_grpc_request_duration_seconds_count', { method: grpcConsume }), 6);
  });

  it('counts logins by flow (native, Apple web), provider and outcome: success or the refusal category', async () => {
    const s = await scrape(f.srv.http);
    const logins = (provider: string, outcome: string) => s.value('gatehouse_logins_total', { flow: 'native', provider, outcome });
    assert.equal(logins('apple', 'success'), 2);
    assert.equal(logins('apple', 'token_audience'), 1);
    assert.equal(logins('apple', 'bad_request'), 1);
    assert.equal(logins('google', 'provider_not_enabled'), 1);
    assert.equal(logins('unknown', 'provider_not_enabled'), 1, 'a provider name from the URL is not a label value');
    assert.equal(logins('google', 'jwks_unavailable'), 1);
    const native = s.samples.filter((x) => x.name === 'gatehouse_logins_total' && x.labels.flow === 'native').reduce((n, x) => n + x.value, 0);
    assert.equal(native, 7);
    assert.equal(s.value('gatehouse_logins_total', { flow: 'apple_web', provider: 'apple', outcome: 'state_unknown' }), 1);
  });

  it('counts consume outcomes: ok, insufficient_points, idempotent_replay, conflict, error', async () => {
    const s = await scrape(f.srv.http);
    const outcome = (o: string) => s.value('gatehouse_points_consumes_total', { outcome: o });
    assert.equal(outcome('ok'), 3);
    assert.equal(outcome('idempotent_replay'), 1);
    assert.equal(outcome('conflict'), 1);
    assert.equal(outcome('insufficient_points'), 1);
    assert.equal(outcome('error'), 1);
  });

  it('counts JWKS fetches by provider and result, and shows the cache state', async () => {
    const s = await scrape(f.srv.http);
    assert.equal(s.value('gatehouse_jwks_fetches_total', { provider: 'apple', result: 'ok' }), 1, 'the second login used the cached keys');
    assert.equal(s.value('gatehouse_jwks_fetches_total', { provider: 'google', result: 'error' }), 1);
    assert.equal(s.value('gatehouse_jwks_fetches_total', { provider: 'google', result: 'ok' }), undefined);
    assert.equal(s.value('gatehouse_jwks_keys', { provider: 'apple' }), f.apple.keys.length);
    assert.equal(s.value('gatehouse_jwks_keys', { provider: 'google' }), 0);
    const last = s.value('gatehouse_jwks_last_success_timestamp_seconds', { provider: 'apple' })!;
    assert.ok(last >= t0 - 1 && last <= Date.now() / 1000 + 1, `last success ${last}, test started ${t0}`);
    assert.equal(s.value('gatehouse_jwks_last_success_timestamp_seconds', { provider: 'google' }), undefined);
  });

  it('counts database errors by kind, and write-batch sizes', async () => {
    const s = await scrape(f.srv.http);
    assert.equal(s.value('gatehouse_db_errors_total', { kind: 'busy' }), 1);
    assert.equal(s.value('gatehouse_db_errors_total', { kind: 'unavailable' }), 0);
    assert.equal(s.value('gatehouse_db_errors_total', { kind: 'other' }), 0);
    assertHistogram(s, 'gatehouse_db_write_batch_size');
    const batches = s.value('gatehouse_db_write_batch_size_count')!;
    const units = s.value('gatehouse_db_write_batch_size_sum')!;
    // At least the two new accounts and the five consumes that reached the ledger, ≤ 8 per batch.
    assert.ok(units >= 7, `units ${units}`);
    assert.ok(batches >= 1 && units <= batches * 8, `${units} units in ${batches} batches`);
  });

  it('includes the process metrics, and no raw path, realm, user or provider name from a URL as a label', async () => {
    const s = await scrape(f.srv.http);
    assert.ok(s.value('process_cpu_user_seconds_total')! > 0);
    assert.ok(s.samples.some((x) => x.name === 'nodejs_heap_size_used_bytes'));
    for (const x of s.samples) {
      for (const v of Object.values(x.labels)) {
        assert.doesNotMatch(v, /SECRET|facebook|acme|k1/, `${x.name} ${JSON.stringify(x.labels)}`);
        assert.ok(!v.includes(userId));
      }
      if ('route' in x.labels) assert.ok(x.labels.route === 'unmatched' || x.labels.route.startsWith('/'), x.labels.route);
    }
    assert.equal(s.types.get('gatehouse_logins_total'), 'counter');
    assert.equal(s.types.get('gatehouse_jwks_keys'), 'gauge');
  });

  it('answers /healthz and /readyz; /readyz is 503 while another process holds the write lock, and recovers', async () => {
    const health = await http(f.srv.http, 'GET', '/healthz');
    assert.equal(health.status, 200);
    assert.deepEqual(health.body, { status: 'ok' });
    assert.deepEqual((await http(f.srv.http, 'GET', '/readyz')).body, { status: 'ok' });
    const other = new Database(f.srv.dbPath);
    other.exec('BEGIN IMMEDIATE');
    try {
      const r = await http(f.srv.http, 'GET', '/readyz', { headers: { 'x-request-id': 'probe-1' } });
      assert.equal(r.status, 503);
      assert.deepEqual(r.body, { error: 'service_unavailable', message: 'Database unavailable', status: 503, requestId: 'probe-1' });
      assert.equal((await http(f.srv.http, 'GET', '/healthz')).status, 200, 'alive all the same');
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    assert.equal((await http(f.srv.http, 'GET', '/readyz')).status, 200);
    assert.equal((await http(f.srv.http, 'POST', '/readyz')).status, 405);
  });
});

describe('readiness and the --metrics switch', () => {
  it('answers /readyz 503 once the database file is removed; /healthz stays 200; --metrics off serves no /metrics', async () => {
    const srv = await spawnServer({ args: ['--metrics', 'off'] });
    try {
      assert.equal((await http(srv.http, 'GET', '/readyz')).status, 200);
      assert.equal((await http(srv.http, 'GET', '/metrics')).status, 404);
      for (const suffix of ['', '-wal', '-shm']) rmSync(srv.dbPath + suffix, { force: true });
      const r = await http(srv.http, 'GET', '/readyz');
      assert.equal(r.status, 503);
      assert.equal(r.body.error, 'service_unavailable');
      assert.equal(r.body.message, 'Database unavailable');
      assert.equal((await http(srv.http, 'GET', '/healthz')).status, 200);
    } finally {
      await srv.stop();
    }
  });

  it('answers 503 Database unavailable on /readyz and on API calls once the connection is closed; two servers keep their own counters', async () => {
    const a = await startInProcess();
    const b = await startInProcess();
    try {
      assert.equal((await api(b.http, b.adminKey).get('/api/admin/realms')).status, 200);
      const before = await scrape(a.http);
      assert.equal(
        before.value('gatehouse_http_requests_total', { route: '/api/admin/realms', method: 'GET', status: '200' }),
        undefined,
        "b's request is not counted by a",
      );
      sqliteConnectionOf(a.running.app.backend)!.close();
      const ready = await http(a.http, 'GET', '/readyz');
      assert.equal(ready.status, 503);
      assert.equal(ready.body.message, 'Database unavailable');
      const call = await api(a.http, a.adminKey).get('/api/admin/realms');
      assert.equal(call.status, 503, call.text);
      assert.equal(call.body.message, 'Database unavailable');
      const s = await scrape(a.http);
      assert.ok(s.value('gatehouse_db_errors_total', { kind: 'unavailable' })! >= 1);
      assert.equal((await scrape(b.http)).value('gatehouse_db_errors_total', { kind: 'unavailable' }), 0);
    } finally {
      await a.stop();
      await b.stop();
    }
  });

  it('answers /readyz 503 once shutdown has begun, to a request still arriving on an open connection', async () => {
    const srv = await startInProcess();
    let stopped: Promise<void> | null = null;
    try {
      const body = JSON.stringify({ id: 'late', name: 'Late' });
      const head = `POST /api/admin/realms HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${srv.adminKey}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`;
      const answers = await pipelined(
        srv.http,
        head + body.slice(0, 5),
        () => (stopped = srv.running.stop(5000)),
        body.slice(5) + 'GET /readyz HTTP/1.1\r\nHost: x\r\n\r\n',
      );
      assert.equal(answers.length, 2, JSON.stringify(answers));
      assert.equal(answers[0]!.status, 200, 'the call in flight completes');
      assert.equal(answers[1]!.status, 503);
      assert.equal(JSON.parse(answers[1]!.body).error, 'service_unavailable');
    } finally {
      await stopped;
      await srv.stop();
    }
  });
});
