// Sign in with Apple. A private-relay address (…@privaterelay.appleid.com) is a real, deliverable
// mailbox and is stored as the account's email; the email is taken as Apple states it, with its
// `email_verified`, which is not required to sign in (docs/security.md, "Accounts and emails").
// What Apple does not state as verified is stored unverified and so never attracts
// another sign-in's link (users/model.ts planLoginMatch).
// Apple also has a web-redirect login (auth/apple-web.ts), which uses this entry and `authUrl`.
import { claimEmail, claimTrue, defineProvider } from './provider.ts';

export const apple = defineProvider({
  kind: 'apple',
  // Apple signs its ID tokens with RS256 only.
  algorithms: ['RS256'],
  options: {
    jwksUrl: { arg: 'url', kind: 'url', default: 'https://appleid.apple.com/auth/keys', doc: "Apple's JWKS" },
    issuer: { arg: 'iss', kind: 'string', default: 'https://appleid.apple.com', doc: 'issuer of Apple ID tokens' },
    authUrl: { arg: 'url', kind: 'url', default: 'https://appleid.apple.com', doc: "base of Apple's authorize and token endpoints" },
  },
  emailFacts(claims) {
    const email = claimEmail(claims.email);
    return { email, verified: email !== null && claimTrue(claims.email_verified) };
  },
});
