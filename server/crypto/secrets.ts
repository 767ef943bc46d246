// Secrets at rest (docs/security.md): every secret the database holds is sealed with AES-256-GCM
// under the key-encryption key (--secrets-key-file / GATEHOUSE_SECRETS_KEY), so a dump or a stolen
// backup alone reveals none. A sealed value is a versioned envelope naming the key it was sealed
// with, `enc:v1:<kid>:<iv>:<ciphertext+tag>` (base64url parts), so a key rotation
// (`gatehouse secrets rotate`) tells what is sealed under the old key from what is under the new.
// The table and column are the authenticated data: a sealed value moved to another column does
// not open.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** A column that holds a secret. `key`: its table's primary-key columns (the rewrite of every
 *  value by `secrets rotate` and at start addresses rows by them). */
export interface EncryptedColumn {
  table: string;
  column: string;
  key: readonly string[];
}

/**
 * Every column holding a secret: THE list. A store seals what it writes to one of these columns
 * and opens what it reads (`secrets.seal(ENCRYPTED.x, value)`, `secrets.open(ENCRYPTED.x, stored)`);
 * the sealing of clear values at start, `secrets rotate` and the dump test take every entry from
 * here. Adding a secret is one line here, plus those two calls in its store.
 */
export const ENCRYPTED = {
  providerClientSecret: { table: 'providers', column: 'client_secret', key: ['realm_id', 'provider'] },
  providerPrivateKey: { table: 'providers', column: 'private_key', key: ['realm_id', 'provider'] },
  signingPrivateKey: { table: 'signing_keys', column: 'private_pem', key: ['kid'] },
  webhookSecret: { table: 'webhooks', column: 'secret', key: ['id'] },
  webhookPreviousSecret: { table: 'webhooks', column: 'previous_secret', key: ['id'] },
  appleRefreshToken: { table: 'user_identities', column: 'apple_refresh_token', key: ['realm_id', 'provider', 'subject'] },
  jobSecret: { table: 'jobs', column: 'secret', key: ['id'] },
  paymentProviderSecret: { table: 'billing_provider_settings', column: 'secret', key: ['realm_id', 'provider'] },
} as const satisfies Record<string, EncryptedColumn>;

export const ENCRYPTED_COLUMNS: readonly EncryptedColumn[] = Object.values(ENCRYPTED);

const PREFIX = 'enc:v1:';
const KEY_BYTES = 32;
const IV_BYTES = 12; // NIST SP 800-38D §8.2: 96-bit random IVs
const TAG_BYTES = 16;

export class SecretsKeyError extends Error {
  override name = 'SecretsKeyError';
}

/** A key-encryption key from its base64 text (32 bytes). */
export function parseSecretsKey(text: string, where: string): Buffer {
  const trimmed = text.trim();
  const key = /^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed) ? Buffer.from(trimmed, 'base64') : Buffer.alloc(0);
  if (key.length !== KEY_BYTES) throw new SecretsKeyError(`${where}: expected a ${KEY_BYTES}-byte key in base64 (openssl rand -base64 32)`);
  return key;
}

/** A new random key-encryption key, as the base64 text a key file holds. */
export function newSecretsKeyText(): string {
  return randomBytes(KEY_BYTES).toString('base64');
}

/** A key's public name: it tells keys apart, and reveals nothing of the key. */
function kidOf(key: Buffer): string {
  return createHash('sha256').update('gatehouse secrets key id\0').update(key).digest().subarray(0, 6).toString('base64url');
}

const aad = (c: EncryptedColumn) => Buffer.from(`${c.table}.${c.column}`);

/** Whether `stored` is a sealed envelope (rather than a value stored in clear by an older version). */
export function isSealed(stored: string): boolean {
  return stored.startsWith(PREFIX);
}

/** The kid an envelope names, or null for a clear value. */
export function sealedWith(stored: string): string | null {
  return isSealed(stored) ? stored.slice(PREFIX.length).split(':', 1)[0]! : null;
}

/** Seals with the current key; opens what the current key or a previous one sealed. */
export class SecretBox {
  readonly kid: string;
  private readonly keys = new Map<string, Buffer>();

  constructor(
    private readonly current: Buffer,
    previous: readonly Buffer[] = [],
  ) {
    if (current.length !== KEY_BYTES) throw new SecretsKeyError(`a secrets key has ${KEY_BYTES} bytes`);
    this.kid = kidOf(current);
    for (const k of [current, ...previous]) this.keys.set(kidOf(k), k);
  }

  /** A box with a key of its own that nothing keeps: for a database that lives in memory only. */
  static ephemeral(): SecretBox {
    return new SecretBox(randomBytes(KEY_BYTES));
  }

  /** The key it seals with (for a box that also opens what this one sealed: a rotation's). */
  currentKey(): Buffer {
    return this.current;
  }

  seal(column: EncryptedColumn, plain: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.current, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(aad(column));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${PREFIX}${this.kid}:${iv.toString('base64url')}:${body.toString('base64url')}`;
  }

  sealOrNull(column: EncryptedColumn, plain: string | null): string | null {
    return plain === null ? null : this.seal(column, plain);
  }

  open(column: EncryptedColumn, stored: string): string {
    const where = `${column.table}.${column.column}`;
    if (!isSealed(stored)) throw new SecretsKeyError(`${where} holds a value in clear: it is sealed when the server starts`);
    const [kid, ivText, bodyText] = stored.slice(PREFIX.length).split(':');
    const key = kid === undefined ? undefined : this.keys.get(kid);
    if (!key) throw new SecretsKeyError(`${where} is sealed under key ${kid}, which this server does not have (its key is ${this.kid})`);
    const body = Buffer.from(bodyText ?? '', 'base64url');
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(ivText ?? '', 'base64url'), { authTagLength: TAG_BYTES });
      decipher.setAAD(aad(column));
      decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
      return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretsKeyError(`${where}: a sealed value does not open (altered, or moved from another column)`);
    }
  }

  openOrNull(column: EncryptedColumn, stored: string | null): string | null {
    return stored === null ? null : this.open(column, stored);
  }

  /**
   * What a stored value becomes when every secret is brought under the current key: null when it
   * is already; a clear value (an older version's) or one sealed under a previous key, sealed
   * anew. A value under a key this box does not know stops everything (SecretsKeyError).
   */
  reseal(column: EncryptedColumn, stored: string): string | null {
    const kid = sealedWith(stored);
    if (kid === this.kid) return null;
    return this.seal(column, kid === null ? stored : this.open(column, stored));
  }
}
