// Every 401 over HTTP says how to authenticate (RFC 7235 §3.1). API keys and users' access tokens
// are bearer tokens (RFC 6750 §3): without a credential the challenge carries no error code; when
// one was presented and refused, error="invalid_token" (§3.1). An error may bring its own challenge
// (the token endpoint's client authentication, RFC 6749 §5.2).
export const REALM = 'gatehouse';

export function wwwAuthenticate(own: string | undefined, credentialPresented: boolean): string {
  if (own) return own;
  return credentialPresented ? `Bearer realm="${REALM}", error="invalid_token"` : `Bearer realm="${REALM}"`;
}
