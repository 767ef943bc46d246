// SQLite's side of `gatehouse db copy` (copy.ts). As a source: the file is opened read-only and
// copied by one VACUUM INTO, which reads it inside one read transaction: a consistent snapshot
// however much a server writes meanwhile (the online backup API restarts whenever the source
// changes between its steps, so under a steady writer it never finished). The snapshot goes to a
// private temporary folder; rows are read and summaries asked there, so the source is only ever
// read, and the summaries' writes land in the snapshot, removed at the end. As a target: the file
// is opened (created and migrated when new) and written in one BEGIN IMMEDIATE transaction, many
// rows per INSERT. A new target is built beside its path and renamed into place once committed.
//
// A copy killed outright (SIGKILL, a crash) runs no clean-up: what it leaves is named after its
// process (the snapshot's folder, a new target's file), and the next copy removes what belongs to
// a process that is gone.
import { existsSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import Database, { type Statement } from 'better-sqlite3';
import { createOwnerOnlyFile } from '../../lib/owner-only.ts';
import { CopyError, type CopyProgress, type CopySource, type CopyTarget, type UserKey } from '../copy.ts';
import { type Column, sqliteKind, type TablePlan, type TableShape, type Value } from '../copy-plan.ts';
import { discardingWrites } from './discarding.ts';
import { type Db, openDatabase } from './open.ts';
import { SqlitePointsStore } from './points-store.ts';

/** Tables of SQLite's own bookkeeping, not copied. */
const BOOKKEEPING = new Set(['schema_migrations']);

/** SQLite's bound on the parameters of one statement (SQLITE_MAX_VARIABLE_NUMBER). */
const MAX_PARAMETERS = 32766;

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The data tables of `db`, read from its schema. */
export function sqliteTables(db: Db): TableShape[] {
  const names = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%' ORDER BY name").pluck().all() as string[];
  const columns = db.prepare('SELECT name, type FROM pragma_table_xinfo(?) WHERE hidden = 0 ORDER BY cid');
  const references = db.prepare('SELECT DISTINCT "table" FROM pragma_foreign_key_list(?)').pluck();
  return names
    .filter((n) => !BOOKKEEPING.has(n))
    .map((name) => ({
      name,
      columns: (columns.all(name) as Array<{ name: string; type: string }>).map((c): Column => {
        const kind = sqliteKind(c.type);
        if (!kind) throw new CopyError('schema_mismatch', `${name}.${c.name}: db copy does not know SQLite's type ${c.type || '(none)'}`);
        return { name: c.name, kind, type: c.type };
      }),
      references: references.all(name) as string[],
    }));
}

function schemaVersion(db: Db, path: string): number {
  const has = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get();
  if (!has) throw new CopyError('db_open_failed', `${path} is not a gatehouse database (it has no schema_migrations table)`);
  return (db.prepare('SELECT coalesce(max(version), 0) FROM schema_migrations').pluck().get() as number) ?? 0;
}

/** The snapshot folders of copies, in the temporary folder: `gatehouse-copy-<pid>-XXXXXX`. */
const SNAPSHOT_FOLDER = /^gatehouse-copy-(\d+)-[^-]+$/;
/** A new target while it is built, beside it: `.<name>.copy-<pid>` (with its -wal and -shm). */
const buildingName = (target: string, pid: number) => `.${basename(target)}.copy-${pid}`;
const BUILDING_FILE = /^\..+\.copy-(\d+)(-wal|-shm|-journal)?$/;

/** Whether process `pid` still runs (EPERM: it does, as another user). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes the entries of `dir` that `pattern` names after a process (its first group) that is
 *  gone: what a killed copy left. A process still running keeps its own. */
export function removeLeftovers(dir: string, pattern: RegExp): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const m = pattern.exec(name);
    if (m && Number(m[1]) !== process.pid && !running(Number(m[1]))) rmSync(join(dir, name), { recursive: true, force: true });
  }
}

/** Opens `path` as the copy's source: a snapshot of it in a private temporary folder. */
export async function openSqliteSource(path: string, progress: CopyProgress): Promise<CopySource> {
  if (!existsSync(path)) throw new CopyError('usage', `--from: no database at ${path}`, true);
  removeLeftovers(tmpdir(), SNAPSHOT_FOLDER);
  const dir = mkdtempSync(join(tmpdir(), `gatehouse-copy-${process.pid}-`)); // 0700: the snapshot holds secrets
  const snapshot = join(dir, 'snapshot.db');
  let db: Db;
  try {
    const live = new Database(path, { readonly: true, fileMustExist: true });
    try {
      live.pragma('busy_timeout = 5000');
      // Owner-only before a byte is written (VACUUM INTO writes into an empty file).
      createOwnerOnlyFile(snapshot);
      progress.begin('snapshot', 0);
      live.prepare('VACUUM INTO ?').run(snapshot);
      progress.end();
    } finally {
      live.close();
    }
    db = new Database(snapshot);
    // A throwaway file: the summaries' writes need no journal to survive a crash.
    db.pragma('journal_mode = MEMORY');
    db.pragma('synchronous = OFF');
    schemaVersion(db, path);
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    if (e instanceof CopyError) throw e;
    const err = e as { code?: string; message: string };
    if (err.code === 'SQLITE_NOTADB') throw new CopyError('db_open_failed', `${path} is not a gatehouse database (${err.message})`);
    throw new CopyError('db_open_failed', `cannot read database ${path}: ${err.message}`);
  }
  // By id, the primary key: each page one walk of its index.
  const users = {
    first: db.prepare('SELECT realm_id AS realmId, id AS userId FROM users WHERE deleted_at IS NULL ORDER BY id LIMIT ?'),
    next: db.prepare('SELECT realm_id AS realmId, id AS userId FROM users WHERE deleted_at IS NULL AND id > ? ORDER BY id LIMIT ?'),
  };
  return {
    schemaVersion: async () => schemaVersion(db, path),
    tables: async () => sqliteTables(db),
    count: async (table) =>
      db
        .prepare(`SELECT count(*) FROM ${quote(table)}`)
        .pluck()
        .get() as number,
    async *rows(table, columns, batch) {
      // Integers as bigint: exact whatever their size.
      const stmt = db
        .prepare(`SELECT ${columns.map((c) => quote(c.name)).join(', ')} FROM ${quote(table)}`)
        .raw(true)
        .safeIntegers(true);
      let rows: Value[][] = [];
      for (const row of stmt.iterate() as IterableIterator<Value[]>) {
        rows.push(row);
        if (rows.length === batch) {
          yield rows;
          rows = [];
        }
      }
      if (rows.length > 0) yield rows;
    },
    users: async (after, limit) => (after === null ? users.first.all(limit) : users.next.all(after.userId, limit)) as UserKey[],
    points: async () => new SqlitePointsStore(db),
    async close() {
      if (db.open) db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Opens `path` as the copy's target, created and migrated when it is new (then built beside
 *  it, under a name of this process, and renamed to `path` once the copy is committed). */
export function openSqliteTarget(path: string): CopyTarget {
  removeLeftovers(dirname(path), BUILDING_FILE);
  const existed = existsSync(path);
  const file = existed ? path : join(dirname(path), buildingName(path, process.pid));
  let db: Db;
  try {
    db = openDatabase(file);
  } catch (e) {
    throw new CopyError('db_open_failed', (e as Error).message);
  }
  const inserts = new Map<string, Statement>();
  const insert = (plan: TablePlan, rows: number): Statement => {
    const key = `${plan.name}\n${rows}`;
    let s = inserts.get(key);
    if (!s) {
      const one = `(${plan.target.map(() => '?').join(', ')})`;
      s = db.prepare(`INSERT INTO ${quote(plan.name)} (${plan.target.map((c) => quote(c.name)).join(', ')}) VALUES ${Array(rows).fill(one).join(', ')}`);
      inserts.set(key, s);
    }
    return s;
  };
  let points: SqlitePointsStore | null = null;
  return {
    schemaVersion: async () => schemaVersion(db, path),
    tables: async () => sqliteTables(db),
    async begin() {
      try {
        db.exec('BEGIN IMMEDIATE');
      } catch (e) {
        const code = (e as { code?: string }).code;
        if (code === 'SQLITE_BUSY') throw new CopyError('target_busy', `${path} is busy: stop the servers using it, then copy`);
        throw e;
      }
      // Tables are filled parents first; the keys are checked at COMMIT all the same, so a cycle
      // of references (none today) would not stop a copy that ends consistent.
      db.pragma('defer_foreign_keys = ON');
    },
    async counts(tables) {
      return new Map(
        tables.map((t) => [
          t,
          db
            .prepare(`SELECT count(*) FROM ${quote(t)}`)
            .pluck()
            .get() as number,
        ]),
      );
    },
    async empty(tables) {
      for (const t of tables) db.prepare(`DELETE FROM ${quote(t)}`).run();
    },
    async write(plan, rows) {
      const per = Math.max(1, Math.floor(MAX_PARAMETERS / plan.target.length));
      for (let i = 0; i < rows.length; i += per) {
        const chunk = rows.slice(i, i + per);
        const values: Value[] = [];
        for (const row of chunk) for (const v of row) values.push(typeof v === 'boolean' ? (v ? 1n : 0n) : v); // SQLite has no boolean
        insert(plan, chunk.length).run(values);
      }
    },
    points: async () => (points ??= new SqlitePointsStore(discardingWrites(db))),
    async commit() {
      db.exec('COMMIT');
    },
    async rollback() {
      if (db.inTransaction) db.exec('ROLLBACK');
    },
    async close(copied) {
      // Closing the last connection checkpoints the WAL into the file and removes -wal and -shm.
      if (db.open) db.close();
      if (existed) return;
      if (copied) renameSync(file, path);
      for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
    },
  };
}
