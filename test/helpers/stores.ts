// The store interfaces over a database, for tests that check a fact no API call shows. A test
// reaches a running server's data through these (its own connection, as another replica would),
// never through SQL.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { openStorage } from '../../server/backend.ts';
import { openDatabase } from '../../server/store/sqlite/open.ts';
import { sqliteStores } from '../../server/store/sqlite/stores.ts';
import { createdEndpoint, webhookAuditRecord } from '../../server/webhooks/model.ts';
import type { StoreFixture, Stores } from '../store/contract.ts';
import { secretsOf, tempDir } from './server.ts';

export type { Stores };

export interface OpenStores extends Stores {
  close(): void;
}

/** Every store over the database at `db` (a SQLite file, or ':memory:'), on a connection of its own. */
export function openStores(db: string): OpenStores {
  const conn = openDatabase(db);
  return {
    ...sqliteStores(conn, secretsOf(db)),
    close: () => {
      if (conn.open) conn.close();
    },
  };
}

/** Every store over the database at `db`, a SQLite file or a postgres:// URL, on connections of
 *  their own. */
export async function openStoresAt(db: string): Promise<Stores & { close(): Promise<void> }> {
  const storage = await openStorage(db, secretsOf(db));
  return { ...storage.stores, close: () => storage.close() };
}

/** An enabled endpoint of `realmId` taking every event type. The outbox keeps an event only while
 *  an endpoint subscribes to it (docs/events.md), so a test that reads the outbox subscribes first.
 *  Its URL is a closed loopback port: its deliveries fail and are retried, which no such test reads. */
export async function subscribeToEveryEvent(s: Stores, realmId: string, now = Date.now()): Promise<{ unsubscribe(): Promise<void> }> {
  const actor = { type: 'system' as const, id: 'test' };
  const e = createdEndpoint({ realmId, url: 'http://127.0.0.1:9/outbox', eventTypes: ['*'], description: 'every event', enabled: true }, now);
  await s.webhooks.create(e, webhookAuditRecord('create', null, e, actor, null, now));
  return {
    unsubscribe: async () => {
      await s.webhooks.delete(realmId, e.id, (current) => webhookAuditRecord('delete', current, null, actor, null, now));
    },
  };
}

/** Runs `fn` with the stores over `db` (a SQLite file or a postgres:// URL), closed afterwards. */
export async function withStores<T>(db: string, fn: (s: Stores) => Promise<T>): Promise<T> {
  const s = await openStoresAt(db);
  try {
    return await fn(s);
  } finally {
    await s.close();
  }
}

/** The backend's own check that the database at `db` is sound ('ok' when it is): for SQLite,
 *  integrity_check over every page and index. Read-only. */
export function databaseIntegrity(db: string): string {
  const conn = openDatabase(db, { readonly: true });
  try {
    return String(conn.pragma('integrity_check', { simple: true }));
  } finally {
    conn.close();
  }
}

/** A fresh database in a folder of its own; `peer()` opens it again through another connection (a
 *  second replica); `close()` closes every connection and deletes the folder. */
export async function freshSqliteStores(): Promise<StoreFixture> {
  const dir = tempDir('gatehouse-store-');
  const path = join(dir, 'store.db');
  const opened = [openStores(path)];
  return {
    ...opened[0]!,
    async peer() {
      const p = openStores(path);
      opened.push(p);
      return p;
    },
    async close() {
      for (const s of opened) s.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
