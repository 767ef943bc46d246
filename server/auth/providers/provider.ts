// What differs between identity providers on the native path: the issuer, the keys and their
// algorithms, and the email rule (docs/login.md). Everything else is
// one code path. A provider is one file in this folder declaring a NativeProviderSpec, listed in
// registry.ts.
import type { JwsAlgorithm } from '../../crypto/offload.ts';
import type { IdTokenClaims } from '../id-token.ts';

export interface EmailFacts {
  /** The email the token carries (normalised) and the provider lets us use, or null. A non-null
   *  email is stored on a new account and may link an existing account whose email is verified. */
  email: string | null;
  /** The provider asserts the address is verified. */
  verified: boolean;
}

/** One server option of a provider. Its names follow from the provider's kind and the option's
 *  name (registry.ts): `jwksUrl` of `apple` is `--apple-jwks-url <arg>`, env
 *  `GATEHOUSE_APPLE_JWKS_URL`, config key `appleJwksUrl`. */
export interface ProviderOption {
  /** The value's name in `serve --help` (`--apple-issuer <iss>`). */
  arg: string;
  /** `url`: an http(s) URL, trailing slashes dropped; `string`: taken as given. */
  kind: 'url' | 'string';
  default: string;
  doc: string;
}

/** A native identity provider, as its file declares it. `K` is its kind, `N` the names of its
 *  options beyond the two every provider has. */
export interface NativeProviderSpec<K extends string = string, N extends string = string> {
  /** The provider type: the `{provider}` of the native-login path and of the admin routes, the
   *  placeholder email domain `{sub}@{kind}.placeholder`, the prefix of its options. Lowercase
   *  letters and digits. */
  kind: K;
  /** The only `alg` values its ID tokens may carry (RFC 8725 §3.1); keys of other types in its
   *  JWKS are ignored. */
  algorithms: readonly JwsAlgorithm[];
  /** Its server options: where its JWKS is and which issuer it signs as, and any of its own. */
  options: { jwksUrl: ProviderOption; issuer: ProviderOption } & { [name in N]: ProviderOption };
  /** The accepted `iss` values for the configured issuer (without this: exactly it). */
  issuers?(configured: string): string[];
  /** The provider's email rule: what the token's email claims let us use. */
  emailFacts(claims: IdTokenClaims): EmailFacts;
}

/** A provider as the login code uses it: its spec with the configured issuer and JWKS URL. */
export interface NativeProvider {
  kind: string;
  issuers: string[];
  jwksUrl: string;
  algorithms: readonly JwsAlgorithm[];
  emailFacts(claims: IdTokenClaims): EmailFacts;
}

/** Declares a provider, keeping its kind and option names as types (so the config keys of the
 *  providers in registry.ts are typed). */
export function defineProvider<const K extends string, const N extends string = never>(spec: NativeProviderSpec<K, N>): NativeProviderSpec<K, N> {
  return spec;
}

/** Providers send `email_verified` as a boolean or as the string "true". */
export function claimTrue(v: unknown): boolean {
  return v === true || v === 'true';
}

export function claimEmail(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const e = v.trim().toLowerCase();
  return e.length > 0 && e.length <= 320 && /^[^\s@]+@[^\s@]+$/.test(e) ? e : null;
}
