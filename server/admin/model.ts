// Records of the admin concern and the pure rules that validate them.
import { badRequest } from '../errors.ts';

export const PERMISSIONS = [
  'realms.manage',
  'clients.manage',
  'providers.manage',
  'api_keys.manage',
  'settings.view',
  'settings.manage',
  'billing.manage',
  'points.view',
  'points.manage',
  'points.consume',
  'tokens.introspect',
  'users.manage',
] as const;

export interface Realm {
  id: string;
  name: string;
  createdAt: number;
}

export type ClientType = 'first_party' | 'third_party';
export type IpBinding = 'off' | 'exact' | 'subnet';

export interface ClientApp {
  realmId: string;
  clientId: string;
  name: string;
  type: ClientType;
  redirectUris: string[];
  ipBinding: IpBinding;
  enabled: boolean;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  createdAt: number;
}

export interface ProviderConfig {
  realmId: string;
  /** An identity provider's kind (auth/providers/registry.ts). */
  provider: string;
  clientId: string;
  enabled: boolean;
  clientSecret: string | null;
  additionalClientIds: string[];
  teamId: string;
  keyId: string;
  privateKey: string | null;
  /** Apple web flow: the Services ID ('' = web flow not configured). */
  webClientId: string;
  /** Native logins must carry a `nonce` (docs/login.md): the only defence against a captured ID
   *  token being replayed. */
  requireNonce: boolean;
  updatedAt: number;
}

export interface ApiKeyRecord {
  id: string;
  keyHash: string;
  realm: string;
  permissions: string[];
  name: string;
  createdAt: number;
  revokedAt: number | null;
}

const ID_RE = /^[a-z0-9][a-z0-9_-]{0,63}$/;

export function validateRealmId(id: string, field = 'id'): void {
  if (!ID_RE.test(id)) throw badRequest(`${field}: 1–64 characters of a-z, 0-9, _ and -, starting with a letter or digit`, { field });
}

export function validateName(name: string, field = 'name'): void {
  if (name.trim() === '') throw badRequest(`${field}: required`, { field });
  if (name.length > 200) throw badRequest(`${field}: at most 200 characters`, { field });
}

export function validateClientId(id: string, field = 'clientId'): void {
  if (!/^[A-Za-z0-9._:-]{1,128}$/.test(id)) throw badRequest(`${field}: 1–128 characters of A-Z a-z 0-9 . _ : -`, { field });
}

export function validateClientType(t: string): asserts t is ClientType {
  if (t !== 'first_party' && t !== 'third_party') throw badRequest('type: expected "first_party" or "third_party"', { field: 'type' });
}

export function validateIpBinding(b: string): asserts b is IpBinding {
  if (b !== 'off' && b !== 'exact' && b !== 'subnet') throw badRequest('ipBinding: expected "off", "exact" or "subnet"', { field: 'ipBinding' });
}

/** Redirect URIs are absolute, carry no fragment (RFC 6749 §3.1.2), and plain http only for
 *  loopback; custom schemes (com.example.app:/cb) are allowed for native apps (RFC 8252 §7.1). */
export function validateRedirectUris(uris: string[]): void {
  if (uris.length > 20) throw badRequest('redirectUris: at most 20', { field: 'redirectUris' });
  uris.forEach((u, i) => {
    const problem = redirectUriProblem(u);
    if (problem) throw badRequest(`redirectUris[${i}]: ${problem}`, { field: `redirectUris[${i}]` });
  });
}

const LOOPBACK_HOSTS = ['127.0.0.1', '[::1]', 'localhost'];

/** Why a redirect URI may not be registered, or null. The raw string is judged before any parsing:
 *  WHATWG URL parsing drops tabs and newlines and mends `\` and missing slashes, so a value that
 *  parses cleanly can still reach a Location header raw. Only RFC 3986 characters (§2; the rest
 *  percent-encoded), an absolute URI (§4.3) with no fragment (RFC 6749 §3.1.2); https, http only
 *  to a loopback host (RFC 8252 §7.3), or a private-use scheme that is a reverse domain name
 *  (RFC 8252 §7.1: it contains a period). */
export function redirectUriProblem(raw: string): string | null {
  if (/[\s\p{Cc}\p{Cf}\p{Z}]/u.test(raw)) return 'must not contain whitespace or control characters';
  if (raw.includes('#')) return 'must not contain a fragment';
  if (!/^[A-Za-z0-9\-._~:/?[\]@!$&'()*+,;=%]*$/.test(raw)) return 'only URI characters are allowed (RFC 3986 §2; percent-encode the rest)';
  if (/%(?![0-9A-Fa-f]{2})/.test(raw)) return 'a % must start a percent-encoded octet (%XX)';
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):(.+)$/.exec(raw);
  if (!m) return 'not an absolute URI';
  try {
    new URL(raw);
  } catch {
    return 'not an absolute URI';
  }
  const scheme = m[1]!.toLowerCase();
  if (scheme === 'https' || scheme === 'http') {
    const authority = /^\/\/([^/?]*)/.exec(m[2]!)?.[1];
    const host = authority?.replace(/^.*@/, '').replace(/:\d*$/, '').toLowerCase();
    if (!host) return `expected ${scheme}://host/…`;
    if (scheme === 'http' && !LOOPBACK_HOSTS.includes(host)) return 'plain http is only allowed for loopback addresses (127.0.0.1, [::1], localhost)';
    return null;
  }
  if (!scheme.includes('.')) return 'use https, http on a loopback address, or a private-use scheme in reverse-domain form (com.example.app:/cb)';
  return null;
}

export function validateTtl(v: number, field: string, min: number, max: number): void {
  if (!Number.isInteger(v) || v < min || v > max) throw badRequest(`${field}: between ${min} and ${max} seconds`, { field });
}

/** `p` must be one of the `known` identity provider kinds. */
export function validateProvider(p: string, known: readonly string[]): void {
  if (!known.includes(p)) {
    throw badRequest(`provider: expected one of ${known.join(', ')}`, { field: 'provider' });
  }
}

export function validatePermissions(perms: string[]): void {
  if (perms.length === 0) throw badRequest('permissions: at least one', { field: 'permissions' });
  for (const p of perms) {
    if (p !== '*' && !(PERMISSIONS as readonly string[]).includes(p)) {
      throw badRequest(`permissions: unknown permission "${p}" (known: *, ${PERMISSIONS.join(', ')})`, { field: 'permissions' });
    }
  }
}
