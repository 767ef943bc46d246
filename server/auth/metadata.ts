// RFC 8414 authorization server metadata of a realm's issuer {publicUrl}/api/oauth/{realmId}: one
// document at each address the proto lists, so a relying-party library finds every endpoint from
// the issuer URL alone.
import { type AdminStore, requireRealm } from '../admin/store.ts';
import type { RequestOut } from '../rpc/types.ts';
import { GRANT_TYPES } from './token.ts';

export function createMetadata(deps: { admin: AdminStore; issuer(realmId: string): string }) {
  return async function metadata(req: RequestOut<'gatehouse.v1.AuthService', 'Metadata'>) {
    await requireRealm(deps.admin, req.realmId);
    const base = deps.issuer(req.realmId);
    return {
      issuer: base,
      authorizationEndpoint: `${base}/authorize`,
      tokenEndpoint: `${base}/token`,
      jwksUri: `${base}/.well-known/jwks.json`,
      revocationEndpoint: `${base}/revoke`,
      introspectionEndpoint: `${base}/introspect`,
      responseTypesSupported: ['code'],
      grantTypesSupported: GRANT_TYPES,
      codeChallengeMethodsSupported: ['S256'],
      // Public clients with PKCE: the client_id is sent, no secret (RFC 7591 §2 "none").
      tokenEndpointAuthMethodsSupported: ['none'],
      revocationEndpointAuthMethodsSupported: ['none'],
      // An API key as a bearer token; RFC 8414 §2 lets this list name an access token type.
      introspectionEndpointAuthMethodsSupported: ['Bearer'],
      userinfoEndpoint: `${base}/userinfo`,
      // No ID tokens are issued, so no id_token_signing_alg_values_supported is claimed.
      subjectTypesSupported: ['public'],
    };
  };
}
