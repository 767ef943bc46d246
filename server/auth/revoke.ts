import type { RequestOut } from '../rpc/types.ts';
import type { Sessions } from './token-family.ts';

export function createRevoke(deps: { sessions: Sessions }) {
  return async function revoke(req: RequestOut<'gatehouse.v1.AuthService', 'Revoke'>) {
    // RFC 7009 §2.2: an invalid or unknown token is still a 200.
    await deps.sessions.revoke(req.realmId, req.token, req.clientId);
    return {};
  };
}
