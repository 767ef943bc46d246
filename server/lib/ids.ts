import { createHash, randomBytes, randomUUID } from 'node:crypto';

/** A random id with a readable prefix, e.g. `usr_…`. 16 random bytes, base64url. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(16).toString('base64url')}`;
}

export function uuid(): string {
  return randomUUID();
}

/** A secret token: prefix + 32 random bytes, base64url (refresh tokens, API keys, codes). */
export function newSecret(prefix: string): string {
  return `${prefix}_${randomBytes(32).toString('base64url')}`;
}

/** Secrets are stored only as their SHA-256 (hex). */
export function sha256Hex(s: string | Buffer): string {
  return createHash('sha256').update(s).digest('hex');
}

export function sha256Base64Url(s: string | Buffer): string {
  return createHash('sha256').update(s).digest('base64url');
}
