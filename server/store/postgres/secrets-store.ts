// PostgreSQL implementation of SecretsStore: one transaction over every encrypted column, its rows
// locked as they are read, so replicas starting together seal a clear value once.

import { ENCRYPTED_COLUMNS, type EncryptedColumn } from '../../crypto/secrets.ts';
import type { SecretsStore } from '../../crypto/store.ts';
import { inTransaction, type TxContext } from './tx.ts';

export class PostgresSecretsStore implements SecretsStore {
  constructor(private readonly ctx: TxContext) {}

  async rewriteSecrets(change: (column: EncryptedColumn, stored: string) => string | null): Promise<number> {
    return inTransaction(this.ctx, 'rewriteSecrets', async (tx) => {
      let changed = 0;
      for (const column of ENCRYPTED_COLUMNS) {
        const keys = column.key.join(', ');
        const rows = await tx.rows<Record<string, string>>(
          `SELECT ${keys}, ${column.column} AS value FROM ${column.table} WHERE ${column.column} IS NOT NULL ORDER BY ${keys} FOR UPDATE`,
          [],
        );
        const where = column.key.map((k, i) => `${k} = $${i + 2}`).join(' AND ');
        for (const row of rows) {
          const next = change(column, row.value!);
          if (next === null) continue;
          tx.run(`UPDATE ${column.table} SET ${column.column} = $1 WHERE ${where}`, [next, ...column.key.map((k) => row[k])]);
          changed++;
        }
      }
      return changed;
    });
  }
}
