// A native identity provider is one spec handed to the registry: its server options and env twins,
// the admin's known-provider check, its native-login route, its JWKS, its algorithms and its email
// rule all follow from it. The provider here (example-provider.ts) exists only in this test and
// signs with ES256 and EdDSA, which no production provider uses.

import assert from 'node:assert/strict';
import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { validateProvider } from '../../server/admin/model.ts';
import { PROVIDERS, providerRegistry } from '../../server/auth/providers/registry.ts';
import { loadConfig, OPTIONS, serverOptions } from '../../server/config.ts';
import { GatehouseError } from '../../server/errors.ts';
import { createLogger } from '../../server/lib/log.ts';
import { type RunningServer, startServer } from '../../server/main.ts';
import { api, http } from '../helpers/http.ts';
import { bootstrapKey, tempDir } from '../helpers/server.ts';
import { example } from './example-provider.ts';

const REALM = 'reg';
const AUD = 'com.example.id-client';
const ISSUER = 'https://id.example.test';

const registry = providerRegistry([...PROVIDERS.specs, example]);

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

/** A compact JWS signed with node:crypto: ES256 as R‖S (RFC 7518 §3.4), EdDSA (RFC 8037); the
 *  header may name another `alg` than the one it is signed with. */
function jws(alg: string, kid: string, key: KeyObject, claims: Record<string, unknown>, signedWith = alg): string {
  const input = `${b64({ alg, kid, typ: 'JWT' })}.${b64(claims)}`;
  const data = Buffer.from(input);
  const sig =
    signedWith === 'EdDSA'
      ? sign(null, data, key)
      : signedWith === 'ES256'
        ? sign('sha256', data, { key, dsaEncoding: 'ieee-p1363' })
        : sign('sha256', data, key);
  return `${input}.${sig.toString('base64url')}`;
}

describe('a native identity provider added through the registry', () => {
  it('gets its server options and env twins from its spec, after --public-url, and only where it is listed', () => {
    const options = serverOptions(registry);
    const mine = options.filter((o) => o.flag.startsWith('--example-'));
    assert.deepEqual(
      mine.map((o) => [o.key, o.flag, o.env, o.kind, o.default]),
      [
        ['exampleJwksUrl', '--example-jwks-url <url>', 'GATEHOUSE_EXAMPLE_JWKS_URL', 'url', 'https://id.example/keys'],
        ['exampleIssuer', '--example-issuer <iss>', 'GATEHOUSE_EXAMPLE_ISSUER', 'string', 'https://id.example'],
      ],
    );
    assert.ok(options.findIndex((o) => o.key === 'publicUrl') < options.indexOf(mine[0]!));
    assert.ok(options.indexOf(mine[1]!) < options.findIndex((o) => o.key === 'loginRateLimit'));
    const config = loadConfig({}, { GATEHOUSE_EXAMPLE_JWKS_URL: 'http://127.0.0.1:9/keys/', GATEHOUSE_EXAMPLE_ISSUER: ISSUER }, options) as unknown as Record<
      string,
      unknown
    >;
    assert.equal(config.exampleJwksUrl, 'http://127.0.0.1:9/keys', 'a url option, trailing slash dropped');
    assert.equal(config.exampleIssuer, ISSUER);
    assert.equal((loadConfig({}, {}, options) as unknown as Record<string, unknown>).exampleIssuer, 'https://id.example', 'the default');
    assert.throws(() => loadConfig({}, { GATEHOUSE_EXAMPLE_JWKS_URL: 'ftp://x' }, options), /--example-jwks-url \(GATEHOUSE_EXAMPLE_JWKS_URL\)/);
    assert.equal(
      OPTIONS.some((o) => o.flag.startsWith('--example-')),
      false,
      'the production options do not have it',
    );
  });

  it('is a kind the admin accepts where it is listed, and refused naming the field where not', () => {
    validateProvider('example', registry.kinds);
    assert.throws(
      () => validateProvider('example', PROVIDERS.kinds),
      (e: unknown) =>
        e instanceof GatehouseError && e.code === 'bad_request' && e.extra.field === 'provider' && /expected one of apple, google$/.test(e.message),
    );
  });

  it('refuses a spec the registry cannot serve, naming it', () => {
    assert.throws(() => providerRegistry([example, example]), /"example": listed twice/);
    assert.throws(() => providerRegistry([{ ...example, kind: 'Ex-ample' }]), /"Ex-ample": the kind must be/);
    assert.throws(() => providerRegistry([{ ...example, algorithms: [] }]), /no accepted algorithm/);
    assert.throws(() => providerRegistry([{ ...example, algorithms: ['HS256' as 'ES256'] }]), /unknown algorithm HS256/);
    assert.throws(
      () => providerRegistry([{ ...example, options: { issuer: example.options.issuer } as typeof example.options }]),
      /jwksUrl and issuer are required/,
    );
  });

  describe('a server with it', () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const ed = generateKeyPairSync('ed25519');
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const jwk = (k: KeyObject, kid: string, alg: string) => ({ ...(k.export({ format: 'jwk' }) as object), kid, alg, use: 'sig' });
    let jwksServer: Server;
    let running: RunningServer;
    let dir: string;
    let admin: ReturnType<typeof api>;
    let base: string;
    let n = 0;
    const claims = (extra: Record<string, unknown> = {}) => {
      const now = Math.floor(Date.now() / 1000);
      return { iss: ISSUER, aud: AUD, sub: `ex-${process.pid}-${++n}`, iat: now, exp: now + 600, ...extra };
    };
    const login = (provider: string, identityToken: string) =>
      http(base, 'POST', `/api/oauth/${REALM}/${provider}/native-login`, { body: { identityToken, clientId: 'app' } });

    before(async () => {
      jwksServer = createServer((_req, res) => {
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ keys: [jwk(ec.publicKey, 'ec-1', 'ES256'), jwk(ed.publicKey, 'ed-1', 'EdDSA'), jwk(rsa.publicKey, 'rsa-1', 'RS256')] }));
      });
      await new Promise<void>((r) => jwksServer.listen(0, '127.0.0.1', r));
      const jwksUrl = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/keys`;
      dir = tempDir();
      const db = join(dir, 'gatehouse.db');
      const adminKey = await bootstrapKey(db);
      // The provider's options reach it through their env twins, as an operator would set them.
      const options = serverOptions(registry);
      const config = {
        ...loadConfig({}, { GATEHOUSE_EXAMPLE_JWKS_URL: jwksUrl, GATEHOUSE_EXAMPLE_ISSUER: ISSUER }, options),
        db,
        grpcAddr: '127.0.0.1:0',
        httpAddr: '127.0.0.1:0',
        loginRateLimit: 0,
      };
      running = await startServer(config, { providers: registry, log: createLogger({ level: 'error', write: () => {} }) });
      base = running.httpUrl;
      admin = api(base, adminKey);
      for (const [path, body] of [
        ['/api/admin/realms', { id: REALM, name: REALM }],
        [`/api/admin/realms/${REALM}/clients`, { clientId: 'app', name: 'App', type: 'first_party', redirectUris: [], ipBinding: 'off' }],
      ] as const) {
        const r = await admin.post(path, body);
        assert.equal(r.status, 200, r.text);
      }
    });
    after(async () => {
      await running?.stop(2000);
      await new Promise((r) => jwksServer?.close(r));
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('lets an admin configure it, and its native login answers 404 until then', async () => {
      const before = await login('example', jws('ES256', 'ec-1', ec.privateKey, claims()));
      assert.equal(before.status, 404, before.text);
      assert.equal(before.body.message, 'example provider not configured or not enabled');
      const put = await admin.put(`/api/admin/realms/${REALM}/providers/example`, { clientId: AUD, enabled: true });
      assert.equal(put.status, 200, put.text);
      assert.equal((await admin.get(`/api/admin/realms/${REALM}/providers/example`)).body.clientId, AUD);
      assert.equal((await admin.put(`/api/admin/realms/${REALM}/providers/nobody`, { clientId: AUD })).status, 400, 'a kind no registry lists');
    });

    it('logs in with its ES256 and EdDSA tokens, and applies its own email rule', async () => {
      for (const [alg, kid, key] of [
        ['ES256', 'ec-1', ec.privateKey],
        ['EdDSA', 'ed-1', ed.privateKey],
      ] as const) {
        const c = claims({ email: `${alg}@Mail.Example`, email_verified: true });
        const r = await login('example', jws(alg, kid, key, c));
        assert.equal(r.status, 200, `${alg}: ${r.text}`);
        const me = await http(base, 'GET', `/api/oauth/${REALM}/userinfo`, { token: r.body.accessToken });
        assert.equal(me.status, 200, me.text);
        assert.equal(me.body.email, `${alg.toLowerCase()}@mail.example`);
        assert.equal(me.body.email_verified, false, `${alg}: its rule never counts the address as verified`);
      }
    });

    it('refuses what its spec does not accept: another algorithm, another issuer, a tampered token', async () => {
      const rs = await login('example', jws('RS256', 'rsa-1', rsa.privateKey, claims()));
      assert.equal(rs.status, 401, 'RS256 is not among its algorithms, though its JWKS publishes an RSA key');
      const iss = await login('example', jws('ES256', 'ec-1', ec.privateKey, claims({ iss: 'https://appleid.apple.com' })));
      assert.equal(iss.status, 401, 'another issuer');
      const t = jws('EdDSA', 'ed-1', ed.privateKey, claims());
      const [h, , s] = t.split('.');
      const forged = await login('example', `${h}.${b64(claims({ sub: 'someone-else' }))}.${s}`);
      assert.equal(forged.status, 401, 'a changed payload');
      const crossed = await login('example', jws('ES256', 'ed-1', ed.privateKey, claims(), 'EdDSA'));
      assert.equal(crossed.status, 401, 'an ES256 header naming the EdDSA key');
      const apple = await login('apple', jws('ES256', 'ec-1', ec.privateKey, claims()));
      assert.equal(apple.status, 404, 'the other providers are unaffected (apple is not configured in this realm)');
    });
  });
});
