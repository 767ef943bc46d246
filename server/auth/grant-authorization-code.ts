// grant_type=authorization_code (RFC 6749 §4.1.3, RFC 7636 §4.5–4.6). The code is single use and
// lives 120 s; it is bound to the client, the redirect URI and the PKCE challenge. A replayed code
// is refused and revokes the family issued from it (RFC 6749 §4.1.2).
import { sha256Hex } from '../lib/ids.ts';
import { isDisabled } from '../users/model.ts';
import type { Grant } from './grant.ts';
import { oauthError } from './oauth-errors.ts';
import { VERIFIER_RE, verifierMatches } from './pkce.ts';
import { draftFamily } from './token-family.ts';

/** What did not match, for error_description (RFC 6749 §5.2); never the code or the verifier. */
const CODE_REFUSALS: Record<string, string> = {
  unknown: 'code is invalid',
  replayed: 'code was already used; the tokens issued for it are revoked',
  realm: 'code was issued by another realm',
  expired: 'code expired',
  client: 'client_id does not match the one used at /authorize',
  redirect_uri: 'redirect_uri does not match the one used at /authorize',
  code_verifier: 'code_verifier does not match the code_challenge sent to /authorize',
};

export const authorizationCodeGrant: Grant = {
  grantType: 'authorization_code',
  async handler(req, ctx, deps) {
    for (const [name, v] of [
      ['code', req.code],
      ['redirect_uri', req.redirectUri],
      ['client_id', req.clientId],
      ['code_verifier', req.codeVerifier],
    ] as const) {
      if (!v) throw oauthError('invalid_request', `${name}: required`);
    }
    if (!VERIFIER_RE.test(req.codeVerifier)) throw oauthError('invalid_request', 'code_verifier: 43–128 characters of A-Z a-z 0-9 - . _ ~');
    const client = await deps.admin.getClient(req.realmId, req.clientId);
    if (!client || !client.enabled) throw oauthError('invalid_client', 'client_id: unknown or disabled client');
    const now = deps.clock.now();
    let draft: ReturnType<typeof draftFamily> | null = null;
    const result = await deps.store.exchangeCode(
      sha256Hex(req.code),
      now,
      (c) => {
        if (c.realmId !== req.realmId) return 'realm';
        if (c.expiresAt <= now) return 'expired';
        if (c.clientId !== client.clientId) return 'client';
        if (c.redirectUri !== req.redirectUri) return 'redirect_uri';
        if (!verifierMatches(req.codeVerifier, c.codeChallenge)) return 'code_verifier';
        return null;
      },
      (c) => (draft = draftFamily(req.realmId, c.userId, client, ctx.clientIp, now)),
    );
    if (result.kind !== 'ok' || !draft) {
      const reason = result.kind === 'refused' ? result.reason : result.kind;
      ctx.log.info('token refused', { realmId: req.realmId, grant: 'authorization_code', category: reason });
      throw oauthError('invalid_grant', CODE_REFUSALS[reason] ?? 'code is invalid');
    }
    const d = draft as ReturnType<typeof draftFamily>;
    // A code issued before its user was disabled: the session it just started ends at once.
    const user = await deps.users.getUser(req.realmId, d.family.userId);
    if (!user || isDisabled(user)) {
      await deps.store.revokeFamily(d.family.id, now, 'user_disabled');
      ctx.log.info('token refused', { realmId: req.realmId, grant: 'authorization_code', category: 'user_disabled' });
      throw oauthError('invalid_grant', 'the account is disabled');
    }
    ctx.log.info('token', { realmId: req.realmId, grant: 'authorization_code', userId: d.family.userId, sid: d.family.id });
    return deps.sessions.tokenSet(d.family, d.refreshToken, now);
  },
};
