// Shared set-up for the auth tests: a gatehouse pointed at local Apple and Google stand-ins, one
// realm with clients of every kind, and row counts read through the store interfaces.
import type { Config } from '../../server/config.ts';
import type { Clock } from '../../server/lib/clock.ts';
import type { ServerOptions } from '../../server/main.ts';
import { api, type HttpResult, http } from '../helpers/http.ts';
import { startIdp, type TestIdp } from '../helpers/idp.ts';
import { spawnServer, startInProcess, type TestBackend, type TestServer } from '../helpers/server.ts';
import { openStoresAt } from '../helpers/stores.ts';

export const REALM = 'acme';
export const OTHER_REALM = 'other';
export const APPLE_AUD = 'com.example.app';
export const GOOGLE_AUD = 'google-client.apps.example';
export const GOOGLE_ISSUER = 'https://accounts.google.test';
export const PARTNER_REDIRECT = 'https://partner.example/cb?tenant=7';
/** The Apple web flow's Services ID, team and key id (with a .p8 key of the test's own). */
export const SERVICES_ID = 'com.example.web';
export const TEAM_ID = 'TEAM123456';
export const KEY_ID = 'KEY7654321';

export interface AuthFixture {
  srv: TestServer;
  apple: TestIdp;
  google: TestIdp;
  admin: ReturnType<typeof api>;
  /** POST …/{provider}/native-login. */
  login(provider: string, body: Record<string, unknown>, opts?: { realm?: string; ip?: string }): Promise<HttpResult>;
  counts(): Promise<Record<'users' | 'identities' | 'families' | 'refresh' | 'codes' | 'transactions', number>>;
  close(): Promise<void>;
}

export async function authFixture(
  opts: {
    args?: string[];
    /** The database the server runs on (default SQLite). */
    backend?: TestBackend;
    /** The server in this process (its clock the system's unless given), not a child process. */
    inProcess?: {
      clock?: Clock;
      config?: Partial<Config> | ((idps: { apple: TestIdp; google: TestIdp }) => Partial<Config>);
      tuning?: Pick<ServerOptions, 'headersTimeoutMs' | 'sweepIntervalMs' | 'jobIntervalMs'>;
    };
  } = {},
): Promise<AuthFixture> {
  const apple = await startIdp({ audience: APPLE_AUD });
  const google = await startIdp({ audience: GOOGLE_AUD, issuer: GOOGLE_ISSUER });
  const srv = opts.inProcess
    ? await startInProcess({
        backend: opts.backend,
        clock: opts.inProcess.clock,
        tuning: opts.inProcess.tuning,
        config: {
          appleJwksUrl: apple.jwksUrl,
          appleIssuer: apple.issuer,
          googleJwksUrl: google.jwksUrl,
          googleIssuer: GOOGLE_ISSUER,
          loginRateLimit: 0,
          ...(typeof opts.inProcess.config === 'function' ? opts.inProcess.config({ apple, google }) : opts.inProcess.config),
        },
      })
    : await spawnServer({
        backend: opts.backend,
        args: [
          '--apple-jwks-url',
          apple.jwksUrl,
          '--apple-issuer',
          apple.issuer,
          '--google-jwks-url',
          google.jwksUrl,
          '--google-issuer',
          GOOGLE_ISSUER,
          '--login-rate-limit',
          '0',
          '--trust-proxy',
          ...(opts.args ?? []),
        ],
      });
  const admin = api(srv.http, srv.adminKey);
  const ok = async (p: Promise<HttpResult>) => {
    const r = await p;
    if (r.status !== 200) throw new Error(`setup failed: ${r.status} ${r.text}`);
  };
  for (const [id, appleAud] of [
    [REALM, APPLE_AUD],
    [OTHER_REALM, 'com.other.app'],
  ] as const) {
    await ok(admin.post('/api/admin/realms', { id, name: id }));
    await ok(admin.put(`/api/admin/realms/${id}/providers/apple`, { clientId: appleAud, enabled: true }));
    await ok(admin.post(`/api/admin/realms/${id}/clients`, { clientId: 'app', name: 'App', type: 'first_party', redirectUris: [], ipBinding: 'off' }));
  }
  await ok(admin.put(`/api/admin/realms/${REALM}/providers/google`, { clientId: GOOGLE_AUD, enabled: true }));
  await ok(admin.put(`/api/admin/realms/${OTHER_REALM}/providers/google`, { clientId: GOOGLE_AUD, enabled: false }));
  for (const [clientId, type, ipBinding, redirectUris, enabled] of [
    ['app-exact', 'first_party', 'exact', [], true],
    ['app-subnet', 'first_party', 'subnet', [], true],
    ['app-off', 'first_party', 'off', [], false],
    ['partner', 'third_party', 'off', [PARTNER_REDIRECT, 'com.partner.app:/oauth'], true],
    ['partner2', 'third_party', 'off', ['https://partner2.example/cb'], true],
  ] as const) {
    await ok(admin.post(`/api/admin/realms/${REALM}/clients`, { clientId, name: clientId, type, redirectUris, ipBinding, enabled }));
  }
  // The server's data as another replica sees it: through the store interfaces, never SQL.
  const stores = await openStoresAt(srv.dbPath);
  return {
    srv,
    apple,
    google,
    admin,
    login: (provider, body, o = {}) =>
      http(srv.http, 'POST', `/api/oauth/${o.realm ?? REALM}/${provider}/native-login`, {
        body,
        headers: o.ip ? { 'x-forwarded-for': o.ip } : {},
      }),
    async counts() {
      const [u, a] = await Promise.all([stores.users.totals(), stores.auth.totals()]);
      return { users: u.users, identities: u.identities, families: a.families, refresh: a.refreshTokens, codes: a.codes, transactions: a.transactions };
    },
    async close() {
      await stores.close();
      await srv.stop();
      await apple.close();
      await google.close();
    },
  };
}

/** Gives the realm's Apple provider the web flow's Services ID and the key that signs client secrets. */
export async function configureAppleSigning(f: AuthFixture, privatePem: string): Promise<void> {
  const put = await f.admin.put(`/api/admin/realms/${REALM}/providers/apple`, {
    clientId: APPLE_AUD,
    enabled: true,
    webClientId: SERVICES_ID,
    teamId: TEAM_ID,
    keyId: KEY_ID,
    privateKey: privatePem,
  });
  if (put.status !== 200) throw new Error(`setup failed: ${put.status} ${put.text}`);
}

/** The claims of a JWT, unverified (for assertions). */
export function decodeJwt(token: string): { header: Record<string, unknown>; payload: Record<string, unknown> } {
  const [h, p] = token.split('.');
  return { header: JSON.parse(Buffer.from(h!, 'base64url').toString()), payload: JSON.parse(Buffer.from(p!, 'base64url').toString()) };
}
