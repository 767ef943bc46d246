// @ts-check
// The signature operations a login needs, as plain synchronous functions: the same code runs on the
// crypto worker (worker.mjs) and, when no worker can be had, on the event loop (offload.ts).
// Plain JavaScript (type-checked from its JSDoc): a worker thread loads it without tsx's loader,
// which would cost each thread ~25 MiB.
import { sign, verify } from 'node:crypto';

/**
 * @typedef {'RS256' | 'ES256' | 'EdDSA'} JwsAlgorithm
 * @typedef {{ op: 'verify', alg: JwsAlgorithm, data: string, signature: string }} VerifyJob
 *   Is `signature` (base64url) a valid `alg` signature of `data`?
 * @typedef {{ op: 'sign', alg: JwsAlgorithm, data: string }} SignJob
 *   The base64url `alg` signature of `data`.
 * @typedef {VerifyJob | SignJob} SignatureJob
 * @typedef {boolean | string} SignatureResult
 * @typedef {{ kty: string, digest: string | null, keyTypes: readonly string[], minBits?: number, curve?: string, dsaEncoding?: 'ieee-p1363' }} AlgorithmSpec
 */

/** Entries per job in a batch sent to the worker (offload.ts WorkerBatch.jobs). */
export const JOB_FIELDS = 5;

/**
 * The JWS algorithms gatehouse computes (RFC 7518 §3.1, RFC 8037 §3.1): the JWK `kty` of their keys,
 * the digest node:crypto is given, and the keys that may be used with them.
 * @type {Readonly<Record<JwsAlgorithm, AlgorithmSpec>>}
 */
export const ALGORITHMS = {
  // RSASSA-PKCS1-v1_5 with SHA-256; a key of 2048 bits or more (RFC 7518 §3.3).
  RS256: { kty: 'RSA', digest: 'sha256', keyTypes: ['rsa'], minBits: 2048 },
  // ECDSA on P-256 with SHA-256; the signature is R‖S, 64 bytes, not DER (RFC 7518 §3.4).
  ES256: { kty: 'EC', digest: 'sha256', keyTypes: ['ec'], curve: 'prime256v1', dsaEncoding: 'ieee-p1363' },
  // Ed25519 or Ed448: the curve fixes the hash (RFC 8037 §3.1).
  EdDSA: { kty: 'OKP', digest: null, keyTypes: ['ed25519', 'ed448'] },
};

/**
 * Whether `key` may be used with `alg`. node:crypto would otherwise compute whatever the key's type
 * allows: an RSA key given no digest signs and verifies RSA-SHA256, which is not EdDSA.
 * @param {import('node:crypto').KeyObject} key
 * @param {string} alg
 * @returns {boolean}
 */
export function keyFits(key, alg) {
  if (!Object.hasOwn(ALGORITHMS, alg)) return false;
  const a = ALGORITHMS[/** @type {JwsAlgorithm} */ (alg)];
  const type = key.asymmetricKeyType;
  if (type === undefined || !a.keyTypes.includes(type)) return false;
  // asymmetricKeyDetails is read only for RSA and EC keys: node caches it for them.
  if (a.minBits !== undefined && (key.asymmetricKeyDetails?.modulusLength ?? 0) < a.minBits) return false;
  if (a.curve !== undefined && key.asymmetricKeyDetails?.namedCurve !== a.curve) return false;
  return true;
}

/**
 * @param {SignatureJob} job
 * @param {import('node:crypto').KeyObject} key
 * @returns {SignatureResult}
 */
export function runSignatureJob(job, key) {
  const fits = keyFits(key, job.alg);
  if (job.op === 'verify') {
    if (!fits) return false; // a key that cannot verify `alg` verifies nothing
    const a = ALGORITHMS[job.alg];
    try {
      return verify(a.digest, Buffer.from(job.data), a.dsaEncoding ? { key, dsaEncoding: a.dsaEncoding } : key, Buffer.from(job.signature, 'base64url'));
    } catch {
      return false;
    }
  }
  if (!fits) throw new Error(`key cannot sign ${job.alg}`);
  const a = ALGORITHMS[job.alg];
  return sign(a.digest, Buffer.from(job.data), a.dsaEncoding ? { key, dsaEncoding: a.dsaEncoding } : key).toString('base64url');
}
