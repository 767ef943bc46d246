// Google (One Tap / native SDK ID tokens). Google documents two issuer spellings, with and without
// the scheme. An email Google does not say is verified proves nothing about who owns the mailbox:
// it is treated as absent — never stored on an account, never linked — so nobody can claim an
// address ahead of its owner (account pre-hijacking) with an unverified Google account.
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
      if (email === null || !claimTrue(claims.email_verified)) return { email: null, verified: false };
      return { email, verified: true };
    },
  };
}
