// The access wrapper: one check for both transports, driven by each RPC's (access) option.
import { forbidden, GatehouseError, unauthorized } from '../errors.ts';
import type { Interceptor } from './chain.ts';
import { type ApiKeyPrincipal, type CallContext, hasPermission, keyCoversRealm, type UserPrincipal } from './context.ts';
import type { MethodInfo } from './proto.ts';

export interface Authenticator {
  /** The key behind a presented API-key secret, or null when unknown or revoked. */
  apiKey(secret: string): Promise<ApiKeyPrincipal | null>;
  /** A user's own gatehouse access token for a realm, or null when invalid. */
  userToken(realmId: string, token: string, ctx: CallContext): Promise<UserPrincipal | null>;
}

/** `Authorization: Bearer X` or `X-API-Key: X` (HTTP headers and gRPC metadata alike). */
export function presentedCredential(ctx: CallContext): string | null {
  const auth = ctx.header('authorization');
  if (auth) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    return m ? m[1]! : null;
  }
  const key = ctx.header('x-api-key');
  return key ? key.trim() : null;
}

/** The check of `method`'s rule before its handler runs (sets ctx.principal). A public method's
 *  calls go straight to the handler. The check runs in the wrapper's own async function, not one
 *  of its own: one promise per call, not two. */
export function accessCheck(method: MethodInfo, auth: Authenticator): Interceptor {
  const rule = method.access;
  if (rule.public) return (next) => next;
  return (next) => async (req, ctx) => {
    const secret = presentedCredential(ctx);
    if (rule.userToken) {
      if (!secret) throw unauthorized('Access token required');
      const user = await auth.userToken(String(req.realmId ?? ''), secret, ctx);
      if (!user) throw unauthorized('Access token is invalid or expired');
      ctx.principal = user;
      return await next(req, ctx);
    }
    if (!rule.permission && !rule.anyApiKey) {
      // A method with neither rule is a mistake in proto/, never an open door.
      throw new GatehouseError('internal_error', 'Internal error', { cause: new Error(`${method.path} has no access rule`) });
    }
    if (!secret) throw unauthorized('API key required');
    const key = await auth.apiKey(secret);
    if (!key) throw unauthorized('API key is invalid or revoked');
    ctx.principal = key;
    if (!rule.permission) return await next(req, ctx);
    if (!hasPermission(key, rule.permission)) throw forbidden(`API key lacks the ${rule.permission} permission`);
    if (method.requestType.fields.realm_id) {
      if (!keyCoversRealm(key, String(req.realmId ?? ''))) throw forbidden('API key is bound to another realm');
    } else if (!rule.realmCheckedByHandler && key.realm !== '*') {
      throw forbidden('API key is bound to a realm; this call needs a key for all realms');
    }
    return await next(req, ctx);
  };
}
