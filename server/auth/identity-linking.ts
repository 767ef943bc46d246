// The caller's own provider identities (docs/login.md, "Linking providers"):
//   GET    /api/oauth/{realmId}/me/identities
//   POST   /api/oauth/{realmId}/me/identities            {provider, identityToken, nonce?}
//   DELETE /api/oauth/{realmId}/me/identities/{provider}
// The caller is the account of its own access token (checked by the access layer). A token links
// exactly when it would sign in: the same provider check and verifier as native login.
// Logged: realm, provider, user id and the outcome — never a token.
import type { AdminStore } from '../admin/store.ts';
import type { SignatureService } from '../crypto/offload.ts';
import { badRequest, GatehouseError, notFound } from '../errors.ts';
import type { Clock } from '../lib/clock.ts';
import type { CallContext, UserPrincipal } from '../rpc/context.ts';
import type { RequestOut } from '../rpc/types.ts';
import { identityView, providerLinked, unlinkIdentity } from '../users/identities.ts';
import type { UserStore } from '../users/store.ts';
import { type IdTokenClaims, InvalidIdToken } from './id-token.ts';
import { checkNonceField, enabledProvider, type ProviderEntry, providerLabel, verifyNativeToken } from './provider-token.ts';

export interface IdentityLinkingDeps {
  admin: AdminStore;
  users: UserStore;
  clock: Clock;
  providers: Map<string, ProviderEntry>;
  signatures: SignatureService;
}

type Req<M extends 'ListMyIdentities' | 'LinkMyIdentity' | 'UnlinkMyIdentity'> = RequestOut<'gatehouse.v1.AuthService', M>;

export function createIdentityLinking(deps: IdentityLinkingDeps) {
  const { users } = deps;

  /** The caller's account, which must still exist in the realm. */
  async function caller(realmId: string, ctx: CallContext) {
    const p = ctx.principal as UserPrincipal;
    const u = await users.getUser(realmId, p.userId);
    if (!u) throw notFound('User not found');
    return u;
  }

  const listOf = async (userId: string) => ({ identities: (await users.identitiesOf(userId)).map(identityView) });

  return {
    async listMyIdentities(req: Req<'ListMyIdentities'>, ctx: CallContext) {
      const u = await caller(req.realmId, ctx);
      return listOf(u.id);
    },

    async linkMyIdentity(req: Req<'LinkMyIdentity'>, ctx: CallContext) {
      if (!req.provider) throw badRequest('provider: required', { field: 'provider' });
      if (!req.identityToken) throw badRequest('identityToken: required', { field: 'identityToken' });
      checkNonceField(req.nonce);
      const label = providerLabel(req.provider);
      const fields = { realmId: req.realmId, provider: label };
      const u = await caller(req.realmId, ctx);
      const p = await enabledProvider(deps, req.realmId, req.provider);
      if (!p) throw notFound(`${label} provider not configured or not enabled`);
      // The provider's requireNonce holds here as at login: a captured token must not link either.
      if (p.config.requireNonce && req.nonce === undefined) {
        throw badRequest(`nonce: required by the realm's ${label} provider (requireNonce)`, { field: 'nonce' });
      }
      let claims: IdTokenClaims;
      try {
        claims = await verifyNativeToken(deps, p, req.identityToken, req.nonce);
      } catch (e) {
        if (e instanceof InvalidIdToken) ctx.log.info('identity link refused', { ...fields, userId: u.id, category: `token_${e.category}` });
        throw e;
      }
      const email = p.entry.provider.emailFacts(claims);
      const plan = await users.linkIdentity({
        realmId: req.realmId,
        userId: u.id,
        provider: p.entry.provider.kind,
        subject: claims.sub,
        email: email.email,
        emailVerified: email.verified,
        now: deps.clock.now(),
        requestId: ctx.requestId,
      });
      ctx.log.info('identity link', { ...fields, userId: u.id, outcome: plan.kind });
      switch (plan.kind) {
        case 'link':
        case 'unchanged':
          return listOf(u.id);
        case 'identity_in_use':
          throw new GatehouseError('identity_in_use', `This ${label} identity is linked to another account`);
        case 'provider_linked':
          throw providerLinked(label);
        case 'no_user':
          throw notFound('User not found');
      }
    },

    async unlinkMyIdentity(req: Req<'UnlinkMyIdentity'>, ctx: CallContext) {
      const u = await caller(req.realmId, ctx);
      const by = { actor: { type: 'user' as const, id: u.id }, requestId: ctx.requestId, now: deps.clock.now() };
      await unlinkIdentity(users, { realmId: req.realmId, userId: u.id, provider: req.provider, ...by });
      ctx.log.info('identity unlinked', { realmId: req.realmId, userId: u.id, provider: providerLabel(req.provider), by: 'user' });
      return listOf(u.id);
    },
  };
}
