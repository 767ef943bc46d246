// One shape per grant (as node-oidc-provider: the grant type and its handler), dispatched by a Map.
import type { AdminStore } from '../../admin/store.ts';
import type { Clock } from '../../lib/clock.ts';
import type { CallContext } from '../../rpc/context.ts';
import type { AuthStore } from '../store.ts';
import type { Sessions, TokenSet } from '../token-family.ts';

export interface TokenRequest {
  realmId: string;
  grantType: string;
  code: string;
  redirectUri: string;
  clientId: string;
  codeVerifier: string;
  refreshToken: string;
  scope: string;
}

export interface GrantDeps {
  admin: AdminStore;
  store: AuthStore;
  sessions: Sessions;
  clock: Clock;
}

export interface Grant {
  grantType: string;
  handler(req: TokenRequest, ctx: CallContext, deps: GrantDeps): Promise<TokenSet>;
}
