// The part of a provider login shared by every path that ends in a verified ID token — native login
// (native-login.ts) and the Apple web redirect (apple-web.ts): the branch preconditions, then the
// one match-or-create (UserStore.resolveProviderLogin) and the branch result — a direct-session
// token set or a one-time downstream code (docs/login.md).
// One implementation, so both paths land on the same account and issue the same things.
import type { ClientApp } from '../admin/model.ts';
import type { AdminStore } from '../admin/store.ts';
import { badRequest, forbidden, type GatehouseError } from '../errors.ts';
import type { Clock } from '../lib/clock.ts';
import { newId, newSecret, sha256Hex } from '../lib/ids.ts';
import type { CallContext } from '../rpc/context.ts';
import { isDisabled } from '../users/model.ts';
import type { UserCreatedHook, UserStore } from '../users/store.ts';
import { redirectWithCode, transactionRefusal } from './authorize.ts';
import type { IdTokenClaims } from './id-token.ts';
import type { NativeProvider } from './providers/provider.ts';
import type { AuthStore } from './store.ts';
import type { Sessions } from './token-family.ts';

export const CODE_TTL_S = 120;

export interface CompleteLoginDeps {
  admin: AdminStore;
  users: UserStore;
  store: AuthStore;
  sessions: Sessions;
  clock: Clock;
  onUserCreated: UserCreatedHook;
}

/** Logs a refusal with its category and hands back the error to throw. */
export type Fail = (category: string, err: GatehouseError) => GatehouseError;

export interface FullName {
  givenName: string;
  familyName: string;
}

export interface SessionResult {
  message: string;
  userId: string;
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  refreshExpiresIn: number;
  tokenType: string;
}

export type LoginResult =
  | { branch: 'session'; userId: string; created: boolean; session: SessionResult }
  | { branch: 'code'; userId: string; created: boolean; redirectUri: string };

/** Checks, without writing anything, that `clientId` may receive the chosen branch: an enabled
 *  client; first-party for a direct session; for a downstream state, a pending transaction of
 *  that client (docs/login.md). */
export async function branchPreconditions(
  deps: Pick<CompleteLoginDeps, 'admin' | 'store' | 'clock'>,
  req: { realmId: string; clientId: string; downstreamState?: string },
  fail: Fail,
): Promise<ClientApp> {
  const client = await deps.admin.getClient(req.realmId, req.clientId);
  if (!client || !client.enabled) throw fail('client', badRequest('clientId: unknown or disabled client', { field: 'clientId' }));
  if (req.downstreamState === undefined) {
    if (client.type !== 'first_party') {
      throw fail('client', badRequest('clientId: a third-party client must use the authorization code flow (downstreamState)', { field: 'clientId' }));
    }
  } else {
    const tx = await deps.store.getAuthorizeTransaction(req.realmId, req.downstreamState);
    const refusal = transactionRefusal(tx, { realmId: req.realmId, clientId: client.clientId, now: deps.clock.now() });
    if (refusal) throw fail(`state_${refusal}`, invalidDownstreamState());
  }
  return client;
}

/** Match or create the account for verified claims, then issue the branch result. */
export async function completeLogin(
  deps: CompleteLoginDeps,
  req: {
    realmId: string;
    provider: NativeProvider;
    claims: IdTokenClaims;
    fullName: FullName | null;
    client: ClientApp;
    downstreamState?: string;
  },
  ctx: CallContext,
  fail: Fail,
): Promise<LoginResult> {
  const now = deps.clock.now();
  const email = req.provider.emailFacts(req.claims);
  const { user, created } = await deps.users.resolveProviderLogin(
    {
      realmId: req.realmId,
      provider: req.provider.kind,
      subject: req.claims.sub,
      email: email.email,
      emailVerified: email.verified,
      fullName: req.fullName,
    },
    { newId: newUserId, now },
  );
  if (isDisabled(user)) throw fail('user_disabled', userDisabled());

  const downstream = req.downstreamState;
  if (downstream === undefined) {
    // A new account's registration grants and its session are independent writes: they go to the
    // database together (one commit to wait for, not two in a row). The answer waits for both; if
    // the grants fail the login fails, as before, and the session it started is never handed out.
    const grants = created ? deps.onUserCreated(user) : null;
    grants?.catch(() => {}); // awaited below, once the session has settled
    const set = await deps.sessions.start(req.realmId, user.id, req.client, ctx.clientIp, req.provider.kind);
    await grants;
    return {
      branch: 'session',
      userId: user.id,
      created,
      session: {
        message: 'login successful',
        userId: user.id,
        accessToken: set.accessToken,
        refreshToken: set.refreshToken,
        expiresIn: set.expiresIn,
        refreshExpiresIn: set.refreshExpiresIn,
        tokenType: set.tokenType,
      },
    };
  }
  // The one-time code spends the downstream state: grants first, so a failure leaves it usable.
  if (created) await deps.onUserCreated(user);
  const code = newSecret('ac');
  const clientId = req.client.clientId;
  const issued = await deps.store.issueCode(req.realmId, downstream, now, (tx) => transactionRefusal(tx, { realmId: req.realmId, clientId, now }), {
    hash: sha256Hex(code),
    realmId: req.realmId,
    userId: user.id,
    ip: ctx.clientIp,
    provider: req.provider.kind,
    createdAt: now,
    expiresAt: now + CODE_TTL_S * 1000,
  });
  if (issued.kind !== 'ok') throw fail(`state_${issued.reason}`, invalidDownstreamState());
  return { branch: 'code', userId: user.id, created, redirectUri: redirectWithCode(issued.tx.redirectUri, code, issued.tx.state) };
}

const newUserId = () => newId('usr');

export const userDisabled = () => forbidden('This account is disabled: its logins are refused until an operator enables it');

// One message for every refusal: which check failed is for the log, not for a caller probing states.
export const invalidDownstreamState = () => badRequest('downstreamState: invalid, expired or already used', { field: 'downstreamState' });

/** Trims a provider-supplied name; empty parts become ''; nothing left → null. */
export function cleanName(n: { givenName: string; familyName: string } | null, field = 'fullName'): FullName | null {
  if (!n) return null;
  const givenName = n.givenName.trim();
  const familyName = n.familyName.trim();
  if (givenName.length > 200 || familyName.length > 200) throw badRequest(`${field}: at most 200 characters per part`, { field });
  return givenName || familyName ? { givenName, familyName } : null;
}
