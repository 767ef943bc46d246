// The native identity providers gatehouse knows. Adding one is a file beside this one declaring its
// spec (apple.ts and google.ts are the models) and its entry in NATIVE_PROVIDERS below. Everything
// else reads this list: the server options and their env twins (config.ts), the providers an admin
// may configure (admin/service.ts), the native-login route and one JWKS cache per provider
// (auth/service.ts), and the CLI's provider help.
import { ALGORITHMS } from '../../crypto/ops.mjs';
import { apple } from './apple.ts';
import { google } from './google.ts';
import type { NativeProvider, NativeProviderSpec, ProviderOption } from './provider.ts';

/** In this order their options appear in `serve --help`. */
const NATIVE_PROVIDERS = [apple, google] as const;

export interface ProviderRegistry {
  readonly specs: readonly NativeProviderSpec[];
  /** The kinds, in the order of `specs`. */
  readonly kinds: readonly string[];
  get(kind: string): NativeProviderSpec | undefined;
}

const KIND_RE = /^[a-z][a-z0-9]{0,31}$/;
const OPTION_NAME_RE = /^[a-z][a-zA-Z0-9]{0,63}$/;

/** A registry of `specs`, checked: a bad spec stops the boot with a message naming it. */
export function providerRegistry(specs: readonly NativeProviderSpec[]): ProviderRegistry {
  const byKind = new Map<string, NativeProviderSpec>();
  for (const spec of specs) {
    const where = `identity provider ${JSON.stringify(spec.kind)}`;
    if (!KIND_RE.test(spec.kind)) throw new Error(`${where}: the kind must be 1–32 lowercase letters and digits, starting with a letter`);
    if (byKind.has(spec.kind)) throw new Error(`${where}: listed twice`);
    if (spec.algorithms.length === 0) throw new Error(`${where}: no accepted algorithm`);
    for (const alg of spec.algorithms) {
      if (!Object.hasOwn(ALGORITHMS, alg)) throw new Error(`${where}: unknown algorithm ${alg} (known: ${Object.keys(ALGORITHMS).join(', ')})`);
    }
    for (const name of Object.keys(spec.options)) {
      if (!OPTION_NAME_RE.test(name)) throw new Error(`${where}: option name ${JSON.stringify(name)} is not camelCase`);
    }
    if (!spec.options.jwksUrl || !spec.options.issuer) throw new Error(`${where}: options jwksUrl and issuer are required`);
    byKind.set(spec.kind, spec);
  }
  return { specs: [...byKind.values()], kinds: [...byKind.keys()], get: (kind) => byKind.get(kind) };
}

/** The providers gatehouse serves. */
export const PROVIDERS: ProviderRegistry = providerRegistry(NATIVE_PROVIDERS);

/** A provider option with the names it goes by. */
export interface NamedProviderOption extends ProviderOption {
  /** Config key: `appleJwksUrl`. */
  key: string;
  /** `--apple-jwks-url <url>`. */
  flag: string;
  /** `GATEHOUSE_APPLE_JWKS_URL`. */
  env: string;
}

/** The options of a provider, named after its kind (the contract's `--apple-jwks-url`
 *  `GATEHOUSE_APPLE_JWKS_URL` pattern), in declaration order. */
export function providerOptions(spec: NativeProviderSpec): NamedProviderOption[] {
  return Object.entries(spec.options as Record<string, ProviderOption>).map(([name, o]) => {
    const kebab = name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    return {
      ...o,
      key: optionKey(spec.kind, name),
      flag: `--${spec.kind}-${kebab} <${o.arg}>`,
      env: `GATEHOUSE_${spec.kind.toUpperCase()}_${kebab.replace(/-/g, '_').toUpperCase()}`,
    };
  });
}

function optionKey(kind: string, name: string): string {
  return `${kind}${name[0]!.toUpperCase()}${name.slice(1)}`;
}

/** The value of a provider's option in a loaded config (config.ts). */
function providerSetting(spec: NativeProviderSpec, config: object, name: string): string {
  const v = (config as Record<string, unknown>)[optionKey(spec.kind, name)];
  if (typeof v !== 'string') throw new Error(`identity provider ${spec.kind}: option ${name} is not configured`);
  return v;
}

/** A provider as the login code uses it, with the configured issuer and JWKS URL. */
export function configuredProvider(spec: NativeProviderSpec, config: object): NativeProvider {
  const issuer = providerSetting(spec, config, 'issuer');
  return {
    kind: spec.kind,
    issuers: spec.issuers ? spec.issuers(issuer) : [issuer],
    jwksUrl: providerSetting(spec, config, 'jwksUrl'),
    algorithms: spec.algorithms,
    emailFacts: (claims) => spec.emailFacts(claims),
  };
}

// The config keys of the listed providers, as types: { appleJwksUrl: string; appleIssuer: string; … }.
type OptionValues<P> = P extends NativeProviderSpec<infer K, infer N> ? { [O in N | 'jwksUrl' | 'issuer' as `${K}${Capitalize<O>}`]: string } : never;
type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
export type ProviderOptionValues = UnionToIntersection<OptionValues<(typeof NATIVE_PROVIDERS)[number]>>;
