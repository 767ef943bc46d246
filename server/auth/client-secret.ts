// The client secret of Sign in with Apple's token endpoint: a short-lived ES256 JWT signed with the
// team's .p8 key (Apple, "Creating a client secret"): header alg ES256 + kid = key id; claims
// iss = team id, sub = Services ID, aud = https://appleid.apple.com, iat, exp (at most six months;
// we sign a fresh one per exchange, valid for five minutes). Never logged.

/** Apple's documented audience of the client secret — fixed, whatever base URL the endpoints use. */
export const APPLE_CLIENT_SECRET_AUDIENCE = 'https://appleid.apple.com';
export const CLIENT_SECRET_TTL_S = 300;

export interface ClientSecretInput {
  teamId: string;
  keyId: string;
  /** The Services ID (Apple's client_id of the web flow). */
  servicesId: string;
  /** PKCS#8 PEM (the .p8 file). */
  privateKeyPem: string;
  /** Seconds since the epoch. */
  now: number;
}

export async function appleClientSecret(i: ClientSecretInput): Promise<string> {
  // jose loads with the first exchange, not at every start.
  const { importPKCS8, SignJWT } = await import('jose');
  const key = await importPKCS8(i.privateKeyPem, 'ES256');
  return new SignJWT({})
    .setProtectedHeader({ alg: 'ES256', kid: i.keyId })
    .setIssuer(i.teamId)
    .setSubject(i.servicesId)
    .setAudience(APPLE_CLIENT_SECRET_AUDIENCE)
    .setIssuedAt(i.now)
    .setExpirationTime(i.now + CLIENT_SECRET_TTL_S)
    .sign(key);
}
