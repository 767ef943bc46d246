// POST /api/oauth/{realmId}/apple/notifications: Sign in with Apple's server-to-server
// notifications (docs/login.md, "Apple server notifications"), the URL an operator registers in
// Apple's developer portal. Body {"payload": "<JWS>"}.
// Order: the body (400) → an enabled Apple provider (404) → the JWS, verified as an ID token is
// (401, or 503 when Apple's keys cannot be had) → the `events` claim (400) → once per `jti` (a
// replay answers 200 and changes nothing) → the effect (apple-notification.ts) → 200 {}.
// Apple retries what is not answered 200, so every verified notification is, whatever it names.
// Logged: realm, type and outcome only — never the payload, the subject or an email.

import type { AdminStore } from '../admin/store.ts';
import type { SignatureService } from '../crypto/offload.ts';
import { badRequest, GatehouseError, notFound } from '../errors.ts';
import type { Clock } from '../lib/clock.ts';
import type { CallContext } from '../rpc/context.ts';
import type { RequestOut } from '../rpc/types.ts';
import { appleActor, NOTIFICATION_JTI_RETENTION_MS, readAppleEvents } from '../users/apple-notification.ts';
import type { DeleteAccount } from '../users/deletion.ts';
import type { UserStore } from '../users/store.ts';
import { checkIssuedFor, InvalidIdToken, verifySignedPayload } from './id-token.ts';
import { enabledProvider, nativeAudiences, type ProviderEntry } from './provider-token.ts';

export interface AppleNotificationDeps {
  admin: AdminStore;
  users: UserStore;
  clock: Clock;
  providers: Map<string, ProviderEntry>;
  signatures: SignatureService;
  /** The account deletion use case, for an `account-delete` of an account's only identity. */
  deleteAccount: DeleteAccount;
}

const KNOWN_TYPES = new Set(['email-disabled', 'email-enabled', 'consent-revoked', 'account-delete']);

export function createAppleNotification(deps: AppleNotificationDeps) {
  return async function appleNotification(req: RequestOut<'gatehouse.v1.AuthService', 'AppleNotification'>, ctx: CallContext) {
    const logged = (type: string, outcome: string) => ctx.log.info('apple notification', { realmId: req.realmId, type, outcome });
    const refuse = (outcome: string, err: GatehouseError) => {
      logged('unverified', outcome);
      return err;
    };

    if (!req.payload) throw refuse('bad_request', badRequest('payload: required', { field: 'payload' }));
    const p = await enabledProvider(deps, req.realmId, 'apple');
    if (!p) throw refuse('provider_not_enabled', notFound('apple provider not configured or not enabled'));

    let claims: Record<string, unknown>;
    try {
      claims = await verifySignedPayload(req.payload, { jwks: p.entry.jwks, signatures: deps.signatures });
      // Apple addresses a notification to the app (its bundle id) or to the web flow's Services ID.
      const audiences = [...nativeAudiences(p.config), ...(p.config.webClientId ? [p.config.webClientId] : [])];
      const problem = checkIssuedFor(claims, { issuers: p.entry.provider.issuers, audiences, now: Math.floor(deps.clock.now() / 1000) });
      if (problem) throw new InvalidIdToken(problem);
      if (typeof claims.jti !== 'string' || claims.jti === '' || claims.jti.length > 255) throw new InvalidIdToken('claims');
    } catch (e) {
      if (e instanceof InvalidIdToken) throw refuse(`token_${e.category}`, e);
      if (e instanceof GatehouseError && e.code === 'service_unavailable') throw refuse('jwks_unavailable', e);
      throw e;
    }
    const event = readAppleEvents(claims.events);
    if (!event) throw refuse('bad_events', badRequest('payload: the events claim is not a JSON object of the documented shape', { field: 'payload' }));
    const type = KNOWN_TYPES.has(event.type) ? event.type : 'unknown';

    const now = deps.clock.now();
    const jti = claims.jti as string;
    const write = { realmId: req.realmId, jti, event, now, expiresAt: now + NOTIFICATION_JTI_RETENTION_MS, requestId: ctx.requestId };
    let result = await deps.users.applyAppleNotification(write);
    if (result.kind === 'applied' && result.plan.kind === 'delete_account') {
      // The account goes by the deletion use case's own transaction, without a revocation call
      // (Apple already revoked); applied again, the notification then finds no Apple identity and
      // claims its jti. A deletion that found the account gone already (another delivery of this
      // notification racing) is no error.
      try {
        await deps.deleteAccount({ realmId: req.realmId, userId: result.plan.userId, actor: appleActor(jti), requestId: ctx.requestId, revokeAtApple: false });
      } catch (e) {
        if (!(e instanceof GatehouseError && e.code === 'not_found')) throw e;
      }
      result = await deps.users.applyAppleNotification(write);
      logged(type, result.kind === 'replayed' ? 'replayed' : 'account_deleted');
      return {};
    }
    if (result.kind === 'replayed') logged(type, 'replayed');
    else logged(type, result.plan.kind === 'none' ? result.plan.reason : result.plan.kind);
    return {};
  };
}
