// The signature operations a login needs, as plain synchronous functions: the same code runs on the
// crypto worker (worker.ts) and, when no worker can be had, on the event loop (offload.ts).
import { sign, verify, type KeyObject } from 'node:crypto';

export type SignatureJob =
  /** RSASSA-PKCS1-v1_5 with SHA-256 (RS256, RFC 7518 §3.3): is `signature` (base64url) valid for `data`? */
  | { op: 'rs256_verify'; data: string; signature: string }
  /** Ed25519 (EdDSA, RFC 8037): the base64url signature of `data`. */
  | { op: 'ed25519_sign'; data: string };

export type SignatureResult = boolean | string;

export function runSignatureJob(job: SignatureJob, key: KeyObject): SignatureResult {
  if (job.op === 'rs256_verify') {
    try {
      return verify('sha256', Buffer.from(job.data), key, Buffer.from(job.signature, 'base64url'));
    } catch {
      return false; // a key that cannot verify RS256 verifies nothing
    }
  }
  return sign(null, Buffer.from(job.data), key).toString('base64url');
}
