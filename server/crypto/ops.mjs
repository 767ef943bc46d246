// @ts-check
// The signature operations a login needs, as plain synchronous functions: the same code runs on the
// crypto worker (worker.mjs) and, when no worker can be had, on the event loop (offload.ts).
// Plain JavaScript (type-checked from its JSDoc): a worker thread loads it without tsx's loader,
// which would cost each thread ~25 MiB.
import { sign, verify } from 'node:crypto';

/**
 * @typedef {{ op: 'rs256_verify', data: string, signature: string }} Rs256Verify
 *   RSASSA-PKCS1-v1_5 with SHA-256 (RS256, RFC 7518 §3.3): is `signature` (base64url) valid for `data`?
 * @typedef {{ op: 'ed25519_sign', data: string }} Ed25519Sign
 *   Ed25519 (EdDSA, RFC 8037): the base64url signature of `data`.
 * @typedef {Rs256Verify | Ed25519Sign} SignatureJob
 * @typedef {boolean | string} SignatureResult
 */

/**
 * @param {SignatureJob} job
 * @param {import('node:crypto').KeyObject} key
 * @returns {SignatureResult}
 */
export function runSignatureJob(job, key) {
  if (job.op === 'rs256_verify') {
    try {
      return verify('sha256', Buffer.from(job.data), key, Buffer.from(job.signature, 'base64url'));
    } catch {
      return false; // a key that cannot verify RS256 verifies nothing
    }
  }
  return sign(null, Buffer.from(job.data), key).toString('base64url');
}
