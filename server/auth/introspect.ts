import type { Clock } from '../lib/clock.ts';
import { sha256Hex } from '../lib/ids.ts';
import type { RequestOut } from '../rpc/types.ts';
import type { AuthStore } from './store.ts';
import type { Sessions } from './token-family.ts';

export function createIntrospect(deps: { store: AuthStore; sessions: Sessions; clock: Clock; issuer(realmId: string): string }) {
  const { store, sessions, clock, issuer } = deps;
  return async function introspect(req: RequestOut<'gatehouse.v1.AuthService', 'Introspect'>) {
    if (req.token.startsWith('rt_')) {
      const found = await store.familyOfRefreshToken(sha256Hex(req.token));
      const f = found?.family;
      if (!found || !f || f.realmId !== req.realmId || f.revokedAt !== null || found.rotatedAt !== null || found.expiresAt <= clock.now()) {
        return { active: false };
      }
      if (!(await sessions.clientEnabled(f))) return { active: false };
      return {
        active: true,
        tokenType: 'refresh_token',
        clientId: f.clientId,
        sub: f.userId,
        sid: f.id,
        exp: Math.floor(found.expiresAt / 1000),
        iss: issuer(req.realmId),
      };
    }
    const ok = await sessions.check(req.realmId, req.token, null);
    if (!ok) return { active: false };
    const c = ok.claims;
    return { active: true, tokenType: 'Bearer', clientId: c.aud, sub: c.sub, aud: c.aud, iss: c.iss, jti: c.jti, sid: c.sid, exp: c.exp, iat: c.iat };
  };
}
