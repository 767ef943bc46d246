// Sign in with Apple. A private-relay address (…@privaterelay.appleid.com) is a real, deliverable
// mailbox and is stored as the account's email; `email_verified` is not required to match by
// email (native-idp-login.md, Email handling rules 1 and 4).
import type { NativeProvider } from './provider.ts';
import { claimEmail, claimTrue } from './provider.ts';

export function appleProvider(opts: { issuer: string; jwksUrl: string }): NativeProvider {
  return {
    kind: 'apple',
    issuers: [opts.issuer],
    jwksUrl: opts.jwksUrl,
    emailFacts(claims) {
      const email = claimEmail(claims.email);
      return { email, verified: email !== null && claimTrue(claims.email_verified), linkable: email !== null };
    },
  };
}
