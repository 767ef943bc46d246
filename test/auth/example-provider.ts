// A native identity provider that exists only in tests (provider-registry.test.ts): a file like
// server/auth/providers/apple.ts, with an algorithm and an email rule of its own, handed to a
// registry built for the test and never listed in server/auth/providers/registry.ts.
import { claimEmail, defineProvider } from '../../server/auth/providers/provider.ts';

export const example = defineProvider({
  kind: 'example',
  algorithms: ['ES256', 'EdDSA'],
  options: {
    jwksUrl: { arg: 'url', kind: 'url', default: 'https://id.example/keys', doc: "Example ID's JWKS" },
    issuer: { arg: 'iss', kind: 'string', default: 'https://id.example', doc: 'issuer of Example ID tokens' },
  },
  // Its own rule: the address is kept but never counts as verified, whatever the token says.
  emailFacts(claims) {
    return { email: claimEmail(claims.email), verified: false };
  },
});
