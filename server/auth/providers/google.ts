// Google (One Tap / native SDK ID tokens). Google documents two issuer spellings, with and without
// the scheme. An email is linked to an existing account only when Google says it is verified
// (issue 3): an unverified address proves nothing about who owns the mailbox.
import type { NativeProvider } from './provider.ts';
import { claimEmail, claimTrue } from './provider.ts';

export function googleProvider(opts: { issuer: string; jwksUrl: string }): NativeProvider {
  const issuers = [opts.issuer];
  if (opts.issuer.startsWith('https://')) issuers.push(opts.issuer.slice('https://'.length));
  return {
    kind: 'google',
    issuers,
    jwksUrl: opts.jwksUrl,
    emailFacts(claims) {
      const email = claimEmail(claims.email);
      const verified = email !== null && claimTrue(claims.email_verified);
      return { email, verified, linkable: verified };
    },
  };
}
