// The storage port of the secrets at rest (secrets.ts): every stored value of the encrypted
// columns, rewritten in one transaction (the sealing of clear values at start, `secrets rotate`).
import type { EncryptedColumn } from './secrets.ts';

export interface SecretsStore {
  /** Passes every stored value (not NULL) of every column of ENCRYPTED_COLUMNS to `change` and
   *  writes back what it returns (null: unchanged), all in one transaction: when `change` throws
   *  or a write fails, nothing has changed. Resolves with how many values changed. */
  rewriteSecrets(change: (column: EncryptedColumn, stored: string) => string | null): Promise<number>;
}
