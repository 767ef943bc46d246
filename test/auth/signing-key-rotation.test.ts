// Rotation of a realm's access-token signing key (docs/security.md): by an operator
// (`gatehouse keys rotate-signing`, AdminService.RotateSigningKey) and on schedule
// (--signing-key-max-age, by the periodic sweep). During the overlap tokens of both keys verify —
// introspection, /me, /userinfo, and jose against the published JWKS — and another replica signs with
// the new key on its next call; once the old key is retired only the new one does.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { loadConfig } from '../../server/config.ts';
import { ManualClock } from '../../server/lib/clock.ts';
import { createLogger } from '../../server/lib/log.ts';
import { type RunningServer, startServer } from '../../server/main.ts';
import { runCli } from '../helpers/cli.ts';
import { http } from '../helpers/http.ts';
import { bootstrapKey, type InProcessServer, startInProcess } from '../helpers/server.ts';
import { type AuthFixture, authFixture, decodeJwt, REALM } from './fixture.ts';

/** The realm's signing_key.rotate audit records (docs/events.md "The audit log"), newest first. */
async function rotationRecords(base: string, key: string): Promise<Array<Record<string, any>>> {
  const r = await http(base, 'GET', `/api/admin/realms/${REALM}/audit?action=signing_key.rotate`, { key });
  assert.equal(r.status, 200, r.text);
  return r.body.records.map((rec: Record<string, any>) => ({ ...rec, changes: JSON.parse(rec.changesJson) }));
}

describe('signing-key rotation', () => {
  const clock = new ManualClock(Date.now());
  let f: AuthFixture;
  let replica: InProcessServer;
  let introspectKey: string;
  let seq = 0;

  const login = async (base = f.srv.http) => {
    const identityToken = await f.apple.token({ sub: `rot-${++seq}` }, { now: Math.floor(clock.now() / 1000) });
    const r = await http(base, 'POST', `/api/oauth/${REALM}/apple/native-login`, { body: { identityToken, clientId: 'app' } });
    assert.equal(r.status, 200, r.text);
    return r.body.accessToken as string;
  };
  const kidOf = (token: string) => decodeJwt(token).header.kid as string;
  const jwks = async (base = f.srv.http) => {
    const r = await http(base, 'GET', `/api/oauth/${REALM}/.well-known/jwks.json`);
    assert.equal(r.status, 200, r.text);
    return r.body as { keys: Array<Record<string, string>> };
  };
  /** Whether the token is accepted everywhere a client can present it, and by jose against the JWKS. */
  const verifies = async (token: string) => {
    const [introspected, me, userinfo, set] = await Promise.all([
      http(f.srv.http, 'POST', `/api/oauth/${REALM}/introspect`, { form: { token }, key: introspectKey }),
      http(f.srv.http, 'GET', `/api/points/${REALM}/me`, { token }),
      http(f.srv.http, 'GET', `/api/oauth/${REALM}/userinfo`, { token }),
      jwks(),
    ]);
    const byJose = await jwtVerify(token, createLocalJWKSet(set as never), { currentDate: new Date(clock.now()) }).then(
      () => true,
      () => false,
    );
    return { introspection: introspected.body.active as boolean, me: me.status === 200, userinfo: userinfo.status === 200, jose: byJose };
  };
  const ALL = { introspection: true, me: true, userinfo: true, jose: true };
  const NONE = { introspection: false, me: false, userinfo: false, jose: false };

  before(async () => {
    f = await authFixture({ inProcess: { clock } });
    introspectKey = await bootstrapKey(f.srv.dbPath, REALM, ['tokens.introspect']);
    // Another replica on the same database (its own key cache, the real clock), with the same
    // issuer as replicas of one deployment have.
    replica = await startInProcess({
      dbPath: f.srv.dbPath,
      config: { appleJwksUrl: f.apple.jwksUrl, appleIssuer: f.apple.issuer, loginRateLimit: 0, publicUrl: f.srv.http },
    });
  });
  after(async () => {
    await replica?.stop();
    await f?.close();
  });

  it('keeps both keys verifying until the old one retires, then only the new one; a replica signs with the new key at once', async () => {
    const oldToken = await login();
    const fromReplica = await login(replica.http);
    const oldKid = kidOf(oldToken);
    assert.equal(kidOf(fromReplica), oldKid);

    const cli = await runCli(['keys', 'rotate-signing', '--realm', REALM, '--server', f.srv.grpc, '--api-key', f.srv.adminKey, '--json']);
    assert.equal(cli.code, 0, cli.stderr);
    const rotation = cli.json() as { kid: string; previousKid: string; previousRetiresAt: string };
    assert.equal(rotation.previousKid, oldKid);
    assert.notEqual(rotation.kid, oldKid);
    // The clients' longest access-token lifetime (the fixture's are all 900 s).
    assert.equal(Date.parse(rotation.previousRetiresAt), clock.now() + 900_000);

    const newToken = await login();
    assert.equal(kidOf(newToken), rotation.kid);
    assert.equal(kidOf(await login(replica.http)), rotation.kid, 'the replica signs with the new key on its next call');
    for (const base of [f.srv.http, replica.http]) {
      assert.deepEqual((await jwks(base)).keys.map((k) => k.kid).sort(), [oldKid, rotation.kid].sort());
    }
    assert.deepEqual(await verifies(oldToken), ALL);
    assert.deepEqual(await verifies(fromReplica), ALL);
    assert.deepEqual(await verifies(newToken), ALL);

    clock.set(Date.parse(rotation.previousRetiresAt));
    assert.deepEqual(
      (await jwks()).keys.map((k) => k.kid),
      [rotation.kid],
    );
    assert.deepEqual(await verifies(oldToken), NONE);
    const later = await login();
    assert.equal(kidOf(later), rotation.kid);
    assert.deepEqual(await verifies(later), ALL);
  });

  it('answers the RPC over HTTP with realms.manage, 403 without it, 404 for an unknown realm, and changes nothing when refused', async () => {
    const before = (await jwks()).keys.map((k) => k.kid);
    const weak = await bootstrapKey(f.srv.dbPath, REALM, ['clients.manage']);
    const refused = await http(f.srv.http, 'POST', `/api/admin/realms/${REALM}/signing-keys/rotate`, { body: {}, key: weak });
    assert.equal(refused.status, 403, refused.text);
    assert.equal(refused.body.error, 'forbidden');
    const unknown = await http(f.srv.http, 'POST', '/api/admin/realms/nope/signing-keys/rotate', { body: {}, key: f.srv.adminKey });
    assert.equal(unknown.status, 404, unknown.text);
    assert.equal(unknown.body.error, 'not_found');
    assert.deepEqual(
      (await jwks()).keys.map((k) => k.kid),
      before,
    );

    const ok = await http(f.srv.http, 'POST', `/api/admin/realms/${REALM}/signing-keys/rotate`, { body: {}, key: f.srv.adminKey });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.body.previousKid, before.at(-1));
    assert.equal(kidOf(await login()), ok.body.kid);

    // Each operator's rotation, by the CLI's RPC and over HTTP, wrote one record: the new kid, the
    // retired one and its retirement time, the calling key; no key material.
    const keyId = (await http(f.srv.http, 'GET', '/api/admin/whoami', { key: f.srv.adminKey })).body.keyId;
    const [byHttp, byCli, ...rest] = await rotationRecords(f.srv.http, f.srv.adminKey);
    assert.deepEqual(rest, [], 'the refused rotations wrote nothing');
    assert.equal(byCli!.targetId, ok.body.previousKid);
    assert.deepEqual(
      { targetId: byHttp!.targetId, actor: byHttp!.actor, requestId: byHttp!.requestId, changes: byHttp!.changes },
      {
        targetId: ok.body.kid,
        actor: { type: 'api_key', id: keyId },
        requestId: ok.headers.get('x-request-id'),
        changes: {
          previousKid: { before: null, after: ok.body.previousKid },
          previousRetiresAt: { before: null, after: Date.parse(ok.body.previousRetiresAt) },
        },
      },
    );
    assert.ok(!/PRIVATE KEY|"d":/.test(JSON.stringify([byHttp, byCli])), 'no key material');
  });

  it("changes the realm's algorithm only when the operator names one: both verify during the overlap, a rotation keeps the current one, an unknown one is refused", async () => {
    const rotate = (body: object) => http(f.srv.http, 'POST', `/api/admin/realms/${REALM}/signing-keys/rotate`, { body, key: f.srv.adminKey });
    const keyOf = async (kid: string) => (await jwks()).keys.find((k) => k.kid === kid)!;
    const esToken = await login();
    assert.equal(decodeJwt(esToken).header.alg, 'ES256', "a realm's first key is ES256");

    const toEd = await rotate({ algorithm: 'EdDSA' });
    assert.equal(toEd.status, 200, toEd.text);
    assert.equal(toEd.body.algorithm, 'EdDSA');
    const { x, ...edJwk } = await keyOf(toEd.body.kid);
    assert.deepEqual(edJwk, { kty: 'OKP', crv: 'Ed25519', kid: toEd.body.kid, alg: 'EdDSA', use: 'sig' });
    assert.equal(typeof x, 'string');
    const edToken = await login();
    assert.deepEqual([decodeJwt(edToken).header.alg, kidOf(edToken)], ['EdDSA', toEd.body.kid]);
    assert.deepEqual(await verifies(esToken), ALL, 'the replaced ES256 key verifies until it retires');
    assert.deepEqual(await verifies(edToken), ALL);

    const kept = await rotate({});
    assert.equal(kept.status, 200, kept.text);
    assert.equal(kept.body.algorithm, 'EdDSA', "a rotation naming none keeps the replaced key's");
    assert.equal((await keyOf(kept.body.kid)).kty, 'OKP');

    const before = (await jwks()).keys.map((k) => k.kid);
    for (const algorithm of ['RS256', 'es256', 'none', '']) {
      const bad = await rotate({ algorithm });
      assert.equal(bad.status, 400, `${algorithm}: ${bad.text}`);
      assert.equal(bad.body.error, 'bad_request');
      assert.equal(bad.body.field, 'algorithm');
    }
    assert.deepEqual(
      (await jwks()).keys.map((k) => k.kid),
      before,
      'a refused rotation changes nothing',
    );

    const cli = await runCli(['keys', 'rotate-signing', '--realm', REALM, '--alg', 'ES256', '--server', f.srv.grpc, '--api-key', f.srv.adminKey]);
    assert.equal(cli.code, 0, cli.stderr);
    const back = await login();
    assert.equal(decodeJwt(back).header.alg, 'ES256');
    assert.match(cli.stdout, new RegExp(`^${kidOf(back)} \\(ES256\\) signs from now on; ${kept.body.kid} stays in the JWKS until `));
    assert.deepEqual([await verifies(edToken), await verifies(back)], [ALL, ALL]);
    const refused = await runCli(['keys', 'rotate-signing', '--realm', REALM, '--alg', 'HS256', '--server', f.srv.grpc, '--api-key', f.srv.adminKey]);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /algorithm/);
    assert.equal(kidOf(await login()), kidOf(back));
  });
});

describe('scheduled signing-key rotation (--signing-key-max-age)', () => {
  const clock = new ManualClock(Date.now());
  let f: AuthFixture;
  let second: RunningServer;
  let secondLogs = '';
  const MAX_AGE_MS = 24 * 3600_000;

  before(async () => {
    f = await authFixture({ inProcess: { clock, config: { signingKeyMaxAgeMs: MAX_AGE_MS } } });
    // A second replica in this process on the same database, swept by hand like the first.
    second = await startServer(
      {
        ...loadConfig({}, {}),
        db: f.srv.dbPath,
        grpcAddr: '127.0.0.1:0',
        httpAddr: '127.0.0.1:0',
        publicUrl: f.srv.http,
        appleJwksUrl: f.apple.jwksUrl,
        appleIssuer: f.apple.issuer,
        loginRateLimit: 0,
        signingKeyMaxAgeMs: MAX_AGE_MS,
      },
      { clock, log: createLogger({ level: 'info', write: (l) => (secondLogs += l + '\n') }) },
    );
  });
  after(async () => {
    await second?.stop(2000);
    await f?.close();
  });

  const rotationsLogged = () =>
    [f.srv.logs(), secondLogs]
      .join('')
      .split('\n')
      .filter((l) => l.includes('"signing key rotated"')).length;

  it('rotates a key older than the maximum age exactly once when every replica sweeps at the same time', async () => {
    const idt = await f.apple.token({ sub: 'sched-1' }, { now: Math.floor(clock.now() / 1000) });
    const r = await f.login('apple', { identityToken: idt, clientId: 'app' });
    assert.equal(r.status, 200, r.text);
    const oldKid = decodeJwt(r.body.accessToken).header.kid as string;
    const sweepBoth = () => Promise.all([(f.srv as { running?: RunningServer }).running!.sweeper.runOnce(), second.sweeper.runOnce()]);

    clock.advance(MAX_AGE_MS - 1);
    await sweepBoth();
    assert.equal(rotationsLogged(), 0, 'not yet due');

    clock.advance(1);
    await sweepBoth();
    await sweepBoth();
    assert.equal(rotationsLogged(), 1);
    const keys = (await http(f.srv.http, 'GET', `/api/oauth/${REALM}/.well-known/jwks.json`)).body.keys as Array<{ kid: string }>;
    assert.equal(keys.length, 2);
    assert.equal(keys[0]!.kid, oldKid);
    const [scheduled, ...more] = await rotationRecords(f.srv.http, f.srv.adminKey);
    assert.deepEqual(more, [], 'one record for the one rotation');
    assert.deepEqual(scheduled!.actor, { type: 'system', id: 'gatehouse' });
    assert.equal(scheduled!.targetId, keys[1]!.kid);
    assert.deepEqual(scheduled!.changes.previousKid, { before: null, after: oldKid });
    const idt2 = await f.apple.token({ sub: 'sched-2' }, { now: Math.floor(clock.now() / 1000) });
    const after = await http(second.httpUrl, 'POST', `/api/oauth/${REALM}/apple/native-login`, { body: { identityToken: idt2, clientId: 'app' } });
    assert.equal(after.status, 200, after.text);
    assert.equal(decodeJwt(after.body.accessToken).header.kid, keys[1]!.kid);
  });
});
