// PostgreSQL's side of `gatehouse db copy` (store/copy.ts). As a source: one REPEATABLE READ READ
// ONLY transaction, whose snapshot every read shares (rows through a cursor, a batch per FETCH);
// the summaries run in a second transaction on the same snapshot (SET TRANSACTION SNAPSHOT), with
// every use case's writes undone and the transaction rolled back: nothing is ever committed to the
// source. As a target: one transaction that migrates it, locks every data table against other
// writers and inserts a batch per statement (one array per column, unnest).
import pg from 'pg';
import { shownDatabase } from '../../lib/redact.ts';
import { CopyError, type CopySource, type CopyTarget, type UserKey } from '../copy.ts';
import { type Column, postgresKind, type TableShape, type Value } from '../copy-plan.ts';
import { clientConfig } from './connect.ts';
import { discardingContext } from './discarding.ts';
import { migratePostgres } from './migrate.ts';
import { PostgresPointsStore } from './points-store.ts';
import { quiet } from './tx.ts';

/** Tables of the backend's own bookkeeping, not copied: the schema version, and the counter
 *  replicas check their caches against (001_core.sql), which the target keeps its own of. */
const BOOKKEEPING = new Set(['schema_migrations', 'cache_version']);

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Integers as bigint, exact whatever their size (the stores' pools read BIGINT as numbers). */
const exactTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    const b = pg.types.builtins;
    if (oid === b.INT8 || oid === b.INT4 || oid === b.INT2) return (s: string) => BigInt(s);
    return pg.types.getTypeParser(oid, format);
  }) as pg.CustomTypesConfig['getTypeParser'],
};

/** A connection of the copy's own: no statement timeout (a batch of a large table may take a
 *  while), and none for idling in a transaction (the source's stays open while the target writes).
 *  `pipeline` for one the stores run on (they send a use case's statements together). */
async function connect(url: string, pipeline: boolean): Promise<pg.Client> {
  const client = new pg.Client({ ...clientConfig({ url, statementTimeoutMs: 0, lockTimeoutMs: 10_000 }), idle_in_transaction_session_timeout: 0, pipeline });
  // A connection that breaks while idle reports here; the statement in flight fails with it.
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (e) {
    await client.end().catch(() => {});
    throw new CopyError('db_open_failed', `cannot open database ${shownDatabase(url)}: ${(e as Error).message}`);
  }
  return client;
}

/** Which database `url` reaches, whatever the URL calls the server (`localhost`, `127.0.0.1`, a
 *  DNS alias): the cluster's system identifier (pg_control_system, the same for every address of
 *  one cluster) and the database's name; null when it cannot be asked (the copy's own opening
 *  then reports why). */
export async function postgresIdentity(url: string): Promise<string | null> {
  let c: pg.Client;
  try {
    c = await connect(url, false);
  } catch {
    return null;
  }
  try {
    const r = await c.query<{ system: string; db: string }>(
      'SELECT (SELECT system_identifier FROM pg_control_system())::text AS system, current_database() AS db',
    );
    return `pg:${r.rows[0]!.system}/${r.rows[0]!.db}`;
  } catch {
    return null;
  } finally {
    await c.end().catch(() => {});
  }
}

/** The data tables of the current schema, read from its catalog. */
async function tables(c: pg.ClientBase): Promise<TableShape[]> {
  const cols = await c.query<{ table_name: string; column_name: string; udt_name: string }>(
    `SELECT c.table_name, c.column_name, c.udt_name FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
     WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE' AND c.is_generated = 'NEVER'
     ORDER BY c.table_name, c.ordinal_position`,
  );
  const refs = await c.query<{ child: string; parent: string }>(
    `SELECT DISTINCT k.conrelid::regclass::text AS child, k.confrelid::regclass::text AS parent FROM pg_constraint k
     WHERE k.contype = 'f' AND k.connamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema())`,
  );
  const shapes = new Map<string, TableShape>();
  for (const r of cols.rows) {
    if (BOOKKEEPING.has(r.table_name)) continue;
    let t = shapes.get(r.table_name);
    if (!t) shapes.set(r.table_name, (t = { name: r.table_name, columns: [], references: [] }));
    const kind = postgresKind(r.udt_name);
    if (!kind) throw new CopyError('schema_mismatch', `${r.table_name}.${r.column_name}: db copy does not know PostgreSQL's type ${r.udt_name}`);
    t.columns.push({ name: r.column_name, kind, type: r.udt_name });
  }
  // regclass::text quotes a name only when it must; gatehouse's are plain.
  for (const r of refs.rows) shapes.get(r.child)?.references.push(r.parent);
  return [...shapes.values()];
}

async function schemaVersion(c: pg.ClientBase, url: string): Promise<number> {
  const has = await c.query<{ t: string | null }>("SELECT to_regclass('schema_migrations')::text AS t");
  if (has.rows[0]!.t === null) throw new CopyError('db_open_failed', `${shownDatabase(url)} is not a gatehouse database (it has no schema_migrations table)`);
  return (await c.query<{ v: number }>('SELECT coalesce(max(version), 0) AS v FROM schema_migrations')).rows[0]!.v;
}

async function count(c: pg.ClientBase, table: string): Promise<number> {
  return (await c.query<{ n: number }>(`SELECT count(*) AS n FROM ${quote(table)}`)).rows[0]!.n;
}

/** Opens the database at `url` as the copy's source, as of one snapshot. */
export async function openPostgresSource(url: string): Promise<CopySource> {
  // Pipelined: the next FETCH is sent before the last one's rows are used.
  const reader = await connect(url, true);
  let snapshot: string;
  try {
    await reader.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    snapshot = (await reader.query<{ s: string }>('SELECT pg_export_snapshot() AS s')).rows[0]!.s;
    await schemaVersion(reader, url);
  } catch (e) {
    await reader.end().catch(() => {});
    if (e instanceof CopyError) throw e;
    throw new CopyError('db_open_failed', `cannot read database ${shownDatabase(url)}: ${(e as Error).message}`);
  }
  let checker: pg.Client | null = null;
  return {
    schemaVersion: () => schemaVersion(reader, url),
    tables: () => tables(reader),
    count: (table) => count(reader, table),
    async *rows(table, columns: Column[], batch) {
      await reader.query(`DECLARE gatehouse_copy NO SCROLL CURSOR FOR SELECT ${columns.map((c) => quote(c.name)).join(', ')} FROM ${quote(table)}`);
      const fetch = () => quiet(reader.query<Value[]>({ text: `FETCH FORWARD ${batch} FROM gatehouse_copy`, rowMode: 'array', types: exactTypes }));
      // The next batch is asked for before this one is handed over: the server reads it while
      // the target writes this one.
      let next = fetch();
      try {
        for (;;) {
          const r = await next;
          if (r.rows.length === 0) break;
          next = fetch();
          yield r.rows;
        }
      } finally {
        await next.catch(() => {});
        await reader.query('CLOSE gatehouse_copy').catch(() => {});
      }
    },
    async users(after, limit) {
      // By id, the primary key: each page one walk of its index, in the order its comparison uses.
      const r = await reader.query<UserKey>(
        `SELECT realm_id AS "realmId", id AS "userId" FROM users WHERE deleted_at IS NULL AND ($1::text IS NULL OR id > $1) ORDER BY id LIMIT $2`,
        [after?.userId ?? null, limit],
      );
      return r.rows;
    },
    async points() {
      // A summary locks the user's row and inserts the grants due, which a READ ONLY transaction
      // refuses: the summaries get a read-write transaction of their own, on the same snapshot,
      // every write undone (discarding.ts) and the whole rolled back.
      checker = await connect(url, true);
      await checker.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
      if (!/^[0-9A-F-]+$/i.test(snapshot)) throw new Error(`unexpected snapshot id ${snapshot}`);
      await checker.query(`SET TRANSACTION SNAPSHOT '${snapshot}'`);
      return new PostgresPointsStore(discardingContext(checker));
    },
    async close() {
      for (const c of [checker, reader]) {
        if (!c) continue;
        await c.query('ROLLBACK').catch(() => {});
        await c.end().catch(() => {});
      }
    },
  };
}

/** Opens the database at `url` as the copy's target, migrated to this build's schema inside the
 *  copy's transaction: PostgreSQL's DDL is transactional, so a copy that does not commit (failed,
 *  interrupted, killed) leaves the target's schema as it was too. */
export async function openPostgresTarget(url: string): Promise<CopyTarget> {
  const c = await connect(url, true);
  try {
    await c.query('BEGIN');
    await migratePostgres(c, Date.now(), true);
  } catch (e) {
    await c.end().catch(() => {});
    throw new CopyError('db_open_failed', `cannot migrate database ${shownDatabase(url)}: ${(e as Error).message}`);
  }
  let points: PostgresPointsStore | null = null;
  return {
    schemaVersion: () => schemaVersion(c, url),
    tables: () => tables(c),
    async begin(names) {
      try {
        // EXCLUSIVE: others may read, none may write, until the copy commits or rolls back.
        await c.query(`LOCK TABLE ${names.map(quote).join(', ')} IN EXCLUSIVE MODE`);
      } catch (e) {
        if ((e as { code?: string }).code === '55P03')
          throw new CopyError('target_busy', `${shownDatabase(url)} is busy: stop the servers using it, then copy`);
        throw e;
      }
    },
    async counts(names) {
      const m = new Map<string, number>();
      for (const n of names) m.set(n, await count(c, n));
      return m;
    },
    async empty(names) {
      await c.query(`TRUNCATE ${names.map(quote).join(', ')}`);
      // TRUNCATE fires no row or statement trigger: tell any replica caching the rows removed.
      await c.query('UPDATE cache_version SET version = version + 1');
    },
    async write(plan, rows) {
      const arrays = plan.target.map((_, i) => rows.map((r) => r[i]));
      const casts = plan.target.map((col, i) => `$${i + 1}::${col.type}[]`).join(', ');
      await c.query(`INSERT INTO ${quote(plan.name)} (${plan.target.map((col) => quote(col.name)).join(', ')}) SELECT * FROM unnest(${casts})`, arrays);
    },
    points: async () => (points ??= new PostgresPointsStore(discardingContext(c))),
    async commit() {
      await c.query('COMMIT');
    },
    async rollback() {
      await c.query('ROLLBACK').catch(() => {});
    },
    async close(copied) {
      if (!copied) await c.query('ROLLBACK').catch(() => {});
      await c.end().catch(() => {});
    },
  };
}
