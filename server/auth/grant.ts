// One shape per grant (as node-oidc-provider: the grant type and its handler), dispatched by a Map.
import type { AdminStore } from '../admin/store.ts';
import type { Clock } from '../lib/clock.ts';
import type { CallContext } from '../rpc/context.ts';
import type { RequestOut } from '../rpc/types.ts';
import type { UserStore } from '../users/store.ts';
import type { AuthStore } from './store.ts';
import type { Sessions, TokenSet } from './token-family.ts';

export interface GrantDeps {
  admin: AdminStore;
  store: AuthStore;
  sessions: Sessions;
  clock: Clock;
  users: Pick<UserStore, 'getUser'>;
}

export interface Grant {
  grantType: string;
  handler(req: RequestOut<'gatehouse.v1.AuthService', 'Token'>, ctx: CallContext, deps: GrantDeps): Promise<TokenSet>;
}
