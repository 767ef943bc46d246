// Google (One Tap / native SDK ID tokens). Google documents two issuer spellings, with and without
// the scheme. An email Google does not say is verified proves nothing about who owns the mailbox:
// it is treated as absent — never stored on an account, never linked — so nobody can claim an
// address ahead of its owner (account pre-hijacking) with an unverified Google account.
import { claimEmail, claimTrue, defineProvider } from './provider.ts';

export const google = defineProvider({
  kind: 'google',
  algorithms: ['RS256'],
  options: {
    jwksUrl: { arg: 'url', kind: 'url', default: 'https://www.googleapis.com/oauth2/v3/certs', doc: "Google's JWKS" },
    issuer: { arg: 'iss', kind: 'string', default: 'https://accounts.google.com', doc: 'issuer of Google ID tokens (accounts.google.com is accepted too)' },
  },
  issuers(configured) {
    return configured.startsWith('https://') ? [configured, configured.slice('https://'.length)] : [configured];
  },
  emailFacts(claims) {
    const email = claimEmail(claims.email);
    if (email === null || !claimTrue(claims.email_verified)) return { email: null, verified: false };
    return { email, verified: true };
  },
});
