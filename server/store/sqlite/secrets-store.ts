// SQLite implementation of SecretsStore: one BEGIN IMMEDIATE transaction over every encrypted
// column. secure_delete is on while it runs, so the pages a clear value leaves are zeroed rather
// than kept in the file's free space.

import { ENCRYPTED_COLUMNS, type EncryptedColumn } from '../../crypto/secrets.ts';
import type { SecretsStore } from '../../crypto/store.ts';
import { type Db, immediate } from './open.ts';

export class SqliteSecretsStore implements SecretsStore {
  constructor(private readonly db: Db) {}

  async rewriteSecrets(change: (column: EncryptedColumn, stored: string) => string | null): Promise<number> {
    const statements = ENCRYPTED_COLUMNS.map((c) => ({
      column: c,
      read: this.db.prepare(`SELECT ${c.key.join(', ')}, ${c.column} AS value FROM ${c.table} WHERE ${c.column} IS NOT NULL`),
      write: this.db.prepare(`UPDATE ${c.table} SET ${c.column} = ? WHERE ${c.key.map((k) => `${k} = ?`).join(' AND ')}`),
    }));
    const secureDelete = this.db.pragma('secure_delete', { simple: true });
    this.db.pragma('secure_delete = ON');
    try {
      return await immediate(this.db, () => {
        let changed = 0;
        for (const { column, read, write } of statements) {
          for (const row of read.all() as Array<Record<string, string>>) {
            const next = change(column, row.value!);
            if (next === null) continue;
            write.run(next, ...column.key.map((k) => row[k]));
            changed++;
          }
        }
        return changed;
      });
    } finally {
      this.db.pragma(`secure_delete = ${Number(secureDelete)}`);
    }
  }
}
