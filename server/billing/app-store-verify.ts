// App Store Server Notifications V2, verified with Apple's own App Store Server Library
// (SignedDataVerifier: the x5c chain to the configured roots, Apple's marker extensions, ES256, the
// bundle id, app Apple id and environment). Online checks (OCSP, the current date) are off: the
// chain is checked at the payload's signedDate, as the library does offline, and no request leaves
// the process. A chain verified once is kept (per distinct leaf and intermediate) with its validity.
import type { KeyObject, X509Certificate } from 'node:crypto';
import type { JWSTransactionDecodedPayload, ResponseBodyV2DecodedPayload } from '@apple/app-store-server-library';
import { GatehouseError } from '../errors.ts';

export interface AppStoreSettings {
  bundleId: string;
  /** Required by the library in production; absent in the sandbox. */
  appAppleId: number | null;
  environment: 'Production' | 'Sandbox';
}

/** The library's own skew when it compares a certificate's dates. */
const MAX_SKEW = 60_000;
const CACHE_LIMIT = 64;

interface Verified {
  key: KeyObject;
  notBefore: number;
  notAfter: number;
}

/** Verified chains by leaf and intermediate, shared by every realm's verifier of one process. */
const chains = new Map<string, Verified>();

type AppleLibrary = typeof import('@apple/app-store-server-library');

/** Apple's library, loaded at the first App Store notification: about 0.3 CPU-s that a server
 *  start need not spend. */
let library: Promise<{ apple: AppleLibrary; CachingVerifier: ReturnType<typeof cachingVerifierOf> }> | null = null;
const loadLibrary = () => (library ??= import('@apple/app-store-server-library').then((apple) => ({ apple, CachingVerifier: cachingVerifierOf(apple) })));

function cachingVerifierOf(apple: AppleLibrary) {
  return class CachingVerifier extends apple.SignedDataVerifier {
    protected override async verifyCertificateChain(
      trustedRoots: X509Certificate[],
      leaf: X509Certificate,
      intermediate: X509Certificate,
      effectiveDate: Date,
    ): Promise<KeyObject> {
      const key = `${leaf.fingerprint256}/${intermediate.fingerprint256}/${trustedRoots.map((r) => r.fingerprint256).join(',')}`;
      const at = effectiveDate.getTime();
      const hit = chains.get(key);
      if (hit) {
        if (hit.notBefore > at + MAX_SKEW || hit.notAfter < at - MAX_SKEW) throw new apple.VerificationException(6); // INVALID_CERTIFICATE, as the library says of dates
        return hit.key;
      }
      const publicKey = await this.verifyCertificateChainWithoutCaching(trustedRoots, leaf, intermediate, effectiveDate);
      const root = trustedRoots.find((r) => intermediate.checkIssued(r)) ?? intermediate;
      const certs = [leaf, intermediate, root];
      if (chains.size >= CACHE_LIMIT) chains.delete(chains.keys().next().value as string);
      chains.set(key, {
        key: publicKey,
        notBefore: Math.max(...certs.map((c) => Date.parse(c.validFrom))),
        notAfter: Math.min(...certs.map((c) => Date.parse(c.validTo))),
      });
      return publicKey;
    }
  };
}

export interface VerifiedNotification {
  payload: ResponseBodyV2DecodedPayload;
  transaction: JWSTransactionDecodedPayload | null;
}

const unauthorized = (why: string, cause?: unknown) => new GatehouseError('unauthorized', `App Store notification not verified: ${why}`, { cause });

/** The library's statuses, named for the answer (VerificationStatus). */
const STATUS_NAMES = [
  'ok',
  'verification failure',
  'retryable verification failure',
  'invalid app identifier',
  'invalid environment',
  'invalid chain length',
  'invalid certificate',
  'malformed',
];

/** A verifier for one realm's settings; roots are DER buffers. */
export function appStoreVerifier(roots: Buffer[], s: AppStoreSettings) {
  let made: Promise<{ apple: AppleLibrary; v: InstanceType<ReturnType<typeof cachingVerifierOf>> }> | null = null;
  const verifier = () =>
    (made ??= loadLibrary().then(({ apple, CachingVerifier }) => {
      const env = s.environment === 'Production' ? apple.Environment.PRODUCTION : apple.Environment.SANDBOX;
      return { apple, v: new CachingVerifier(roots, false, env, s.bundleId, s.appAppleId ?? undefined) };
    })).catch((e: unknown) => {
      made = null; // what the library refused is refused again at the next notification, not kept
      throw e;
    });
  return {
    /** The notification and its transaction, each verified (a transaction for another app or environment is refused too). */
    async verify(signedPayload: string): Promise<VerifiedNotification> {
      // Only ES256 is Apple's: a header naming another algorithm is refused before anything else.
      if (headerAlg(signedPayload) !== 'ES256') throw unauthorized('algorithm');
      const { apple, v } = await verifier();
      const guard = async <T>(f: () => Promise<T>): Promise<T> => {
        try {
          return await f();
        } catch (e) {
          if (e instanceof apple.VerificationException) throw unauthorized(STATUS_NAMES[e.status] ?? 'verification failure', e);
          throw unauthorized('verification failure', e);
        }
      };
      const payload = await guard(() => v.verifyAndDecodeNotification(signedPayload));
      const signedTx = payload.data?.signedTransactionInfo;
      if (!signedTx) return { payload, transaction: null };
      if (headerAlg(signedTx) !== 'ES256') throw unauthorized('algorithm');
      const transaction = await guard(() => v.verifyAndDecodeTransaction(signedTx));
      return { payload, transaction };
    },
  };
}

function headerAlg(jws: string): unknown {
  try {
    return JSON.parse(Buffer.from(jws.split('.')[0] ?? '', 'base64url').toString('utf8')).alg;
  } catch {
    return undefined;
  }
}

/** Root certificates from PEM or DER file contents (several PEM blocks in one file allowed). */
export function rootsFrom(contents: Buffer[]): Buffer[] {
  const out: Buffer[] = [];
  for (const c of contents) {
    const text = c.toString('latin1');
    const pems = text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g);
    if (!pems) {
      out.push(c);
      continue;
    }
    for (const p of pems) out.push(Buffer.from(p.replace(/-----[A-Z ]+-----|\s/g, ''), 'base64'));
  }
  return out;
}
