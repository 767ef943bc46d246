// The chain around every call: errors normalised, one request log line per call, the transport's
// status for its metrics, refused requests and credentials checked before the handler runs.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { badRequest, GatehouseError, OutageCause, upstreamUnavailable } from '../errors.ts';
import { callsInFlight } from '../lib/calls-in-flight.ts';
import { createLogger } from '../lib/log.ts';
import type { Authenticator } from './access.ts';
import { buildCall, type CallSite, type ChainContext, type Req, refusedRequest } from './chain.ts';
import type { BoundHandler } from './dispatch.ts';
import { loadProtos } from './proto.ts';
import { grpcStatusOf, httpStatusOf } from './status.ts';

const methods = loadProtos().methods;
const consume = methods.find((m) => m.path === '/gatehouse.v1.PointsService/Consume')!;
const nativeLogin = methods.find((m) => m.path === '/gatehouse.v1.AuthService/NativeLogin')!;

function harness(info = consume, handler: BoundHandler = async () => ({ ok: true })) {
  const lines: Record<string, unknown>[] = [];
  const log = createLogger({ write: (l) => lines.push(JSON.parse(l) as Record<string, unknown>) });
  const observed: [number, number][] = [];
  let keyChecks = 0;
  const auth: Authenticator = {
    apiKey: async (secret) => (keyChecks++, secret === 'good' ? { kind: 'api_key', keyId: 'k', realm: '*', permissions: ['*'] } : null),
    userToken: async () => null,
  };
  const site: CallSite = {
    transport: 'grpc',
    route: info.path,
    status: (_res, err) => (err === null ? 0 : grpcStatusOf(err)),
    statusName: (code) => `code-${code}`,
    observe: (status, ms) => observed.push([status, ms]),
  };
  const call = buildCall({ info, handler }, site, { auth });
  const ctx = (credential?: string): ChainContext => ({
    requestId: 'req_1',
    transport: 'grpc',
    clientIp: '127.0.0.1',
    header: (name) => (name === 'authorization' && credential ? `Bearer ${credential}` : undefined),
    principal: null,
    log,
    started: performance.now(),
  });
  return { call, ctx, lines, observed, keyChecks: () => keyChecks };
}

const rejection = async (p: Promise<unknown>): Promise<GatehouseError> => {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof GatehouseError, `rejected with ${String(e)}`);
    return e;
  }
  assert.fail('the call succeeded');
};

describe('the call chain', () => {
  it('counts the calls in flight, each until it has ended whichever way (answered, refused, failed)', async () => {
    const before = callsInFlight();
    const seen: number[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const h = harness(consume, async () => {
      seen.push(callsInFlight());
      await held;
      return { ok: true };
    });
    const failing = harness(consume, async () => {
      throw new Error('handler failed');
    });
    const calls = [h.call({ realmId: 'r' }, h.ctx('good')), h.call({ realmId: 'r' }, h.ctx('good'))];
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(seen, [before + 2, before + 2], 'both handlers ran while both calls were counted');
    await rejection(failing.call({ realmId: 'r' }, failing.ctx('good')));
    await rejection(h.call(refusedRequest(badRequest('bad bytes')), h.ctx('good')));
    await rejection(h.call({ realmId: 'r' }, h.ctx('wrong key')));
    assert.equal(callsInFlight(), before + 2, 'the calls that ended are no longer counted');
    release();
    await Promise.all(calls);
    assert.equal(callsInFlight(), before);
  });

  it('logs one line per call with the route, the status as the transport names it and the milliseconds', async () => {
    const h = harness();
    assert.deepEqual(await h.call({ realmId: 'r' }, h.ctx('good')), { ok: true });
    assert.equal(h.lines.length, 1);
    const [line] = h.lines;
    assert.equal(line!.msg, 'grpc');
    assert.equal(line!.route, consume.path);
    assert.equal(line!.status, 'code-0');
    assert.equal(typeof line!.ms, 'number');
    assert.deepEqual(
      h.observed.map(([s]) => s),
      [0],
      "the transport's metrics see its status",
    );
  });

  it('turns anything a handler throws into an internal error, logged with its cause before the request line', async () => {
    const h = harness(consume, async () => {
      throw new TypeError('boom');
    });
    const err = await rejection(h.call({ realmId: 'r' }, h.ctx('good')));
    assert.equal(err.code, 'internal_error');
    assert.deepEqual(
      h.lines.map((l) => l.msg),
      ['request failed', 'grpc'],
    );
    assert.equal(h.lines[0]!.cause, 'boom');
    assert.equal(h.lines[0]!.route, consume.path);
    assert.equal(h.lines[1]!.status, `code-${grpcStatusOf(err)}`);
    assert.deepEqual(
      h.observed.map(([s]) => s),
      [grpcStatusOf(err)],
    );
  });

  it('does not log an upstream outage per call (its owner logs it once), only the request line', async () => {
    const h = harness(consume, async () => {
      throw upstreamUnavailable(new OutageCause('ECONNREFUSED'));
    });
    const err = await rejection(h.call({ realmId: 'r' }, h.ctx('good')));
    assert.equal(httpStatusOf(err), 503);
    assert.deepEqual(
      h.lines.map((l) => l.msg),
      ['grpc'],
    );
  });

  it('answers a refused request with its error before any credential is checked or the handler runs', async () => {
    let ran = false;
    const h = harness(consume, async () => ((ran = true), {}));
    const err = await rejection(h.call(refusedRequest(badRequest('Malformed request message')), h.ctx('good')));
    assert.equal(err.message, 'Malformed request message');
    assert.equal(h.keyChecks(), 0);
    assert.equal(ran, false);
    assert.equal(h.lines.length, 1, 'logged like any call');
  });

  it('refuses a call without a valid credential before its handler runs, and sets the principal of one with it', async () => {
    let principal: unknown = null;
    const h = harness(consume, async (_req: Req, ctx) => ((principal = ctx.principal), {}));
    assert.equal((await rejection(h.call({ realmId: 'r' }, h.ctx()))).code, 'unauthorized');
    assert.equal((await rejection(h.call({ realmId: 'r' }, h.ctx('bad')))).code, 'unauthorized');
    assert.equal(principal, null);
    await h.call({ realmId: 'r' }, h.ctx('good'));
    assert.deepEqual(principal, { kind: 'api_key', keyId: 'k', realm: '*', permissions: ['*'] });
  });

  it('runs a public method without asking for a credential', async () => {
    const h = harness(nativeLogin);
    assert.deepEqual(await h.call({}, h.ctx()), { ok: true });
    assert.equal(h.keyChecks(), 0);
  });
});
