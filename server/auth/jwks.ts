// GET /api/oauth/{realmId}/.well-known/jwks.json (RFC 7517): the realm's public keys for
// gatehouse's own access tokens. (The identity providers' keys are jwks-cache.ts.)
import { type AdminStore, requireRealm } from '../admin/store.ts';
import type { RequestOut } from '../rpc/types.ts';
import type { SigningKeys } from './signing-keys.ts';

export function createJwks(deps: { admin: AdminStore; keys: SigningKeys }) {
  return async function jwks(req: RequestOut<'gatehouse.v1.AuthService', 'Jwks'>) {
    await requireRealm(deps.admin, req.realmId);
    return { keys: await deps.keys.jwks(req.realmId) };
  };
}
