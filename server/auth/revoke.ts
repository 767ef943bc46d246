// POST /api/oauth/{realmId}/revoke (RFC 7009): revokes the whole family of a refresh or access
// token of ours. Public; the client says which client it is (`client_id`).
import { badRequest } from '../errors.ts';
import type { RequestOut } from '../rpc/types.ts';
import type { Sessions } from './token-family.ts';

export function createRevoke(deps: { sessions: Sessions }) {
  return async function revoke(req: RequestOut<'gatehouse.v1.AuthService', 'Revoke'>) {
    // RFC 7009 §2.2: an invalid or unknown token is still a 200.
    if (!req.token) throw badRequest('token: required', { field: 'token' });
    await deps.sessions.revoke(req.realmId, req.token, req.clientId);
    return {};
  };
}
