// Sign in with Apple. A private-relay address (…@privaterelay.appleid.com) is a real, deliverable
// mailbox and is stored as the account's email; the email is taken as Apple states it, with its
// `email_verified`, which is not required to match by email (native-idp-login.md, Email handling
// rules 1 and 4). What Apple does not state as verified is stored unverified and so never attracts
// another sign-in's link (users/model.ts planLoginMatch).
import type { NativeProvider } from './provider.ts';
import { claimEmail, claimTrue } from './provider.ts';

export function appleProvider(opts: { issuer: string; jwksUrl: string }): NativeProvider {
  return {
    kind: 'apple',
    issuers: [opts.issuer],
    jwksUrl: opts.jwksUrl,
    emailFacts(claims) {
      const email = claimEmail(claims.email);
      return { email, verified: email !== null && claimTrue(claims.email_verified) };
    },
  };
}
