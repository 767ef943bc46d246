// Opens the SQLite database once per process: pragmas set here and nowhere else.
import { accessSync, constants } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { createOwnerOnlyFile, makeOwnerOnlyDir, tightenFile } from '../../lib/owner-only.ts';
import { StoreOpenError } from '../errors.ts';
import { groupCommit } from './group-commit.ts';
import { migrate } from './migrate.ts';

export type Db = Database.Database;

/** The page cache of each connection, in KiB (below). */
export const CACHE_KIB = 2000;

export interface OpenOptions {
  busyTimeoutMs?: number;
  readonly?: boolean;
}

export function openDatabase(path: string, opts: OpenOptions = {}): Db {
  const onDisk = path !== ':memory:' && path !== '';
  if (onDisk && !opts.readonly) {
    tempFilesBeside(path);
    try {
      makeOwnerOnlyDir(dirname(path));
    } catch (e) {
      throw new StoreOpenError(`cannot create the folder of ${path}: ${(e as Error).message}`);
    }
    try {
      createOwnerOnlyFile(path);
      tightenFile(`${path}-wal`);
      tightenFile(`${path}-shm`);
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      if (err.code !== 'EACCES' && err.code !== 'EROFS') throw new StoreOpenError(`cannot create database ${path}: ${err.message}`);
      // A folder gatehouse may not write to: better-sqlite3's own open below says so.
    }
  }
  let db: Db;
  try {
    db = new Database(path, { readonly: opts.readonly ?? false });
  } catch (e) {
    throw new StoreOpenError(`cannot open database ${path}: ${(e as Error).message}`);
  }
  try {
    if (!opts.readonly && onDisk) accessSync(path, constants.W_OK);
    db.pragma(`busy_timeout = ${Math.max(0, Math.floor(opts.busyTimeoutMs ?? 5000))}`);
    if (!opts.readonly) {
      db.pragma('journal_mode = WAL');
      // WAL + NORMAL: a committed transaction survives a crash of the process (it is in the WAL
      // before COMMIT returns); only an OS crash or power loss can lose the last few.
      db.pragma('synchronous = NORMAL');
    }
    db.pragma('foreign_keys = ON');
    // SQLite's own page cache size, 2000 KiB (sqlite.org/pragma.html#pragma_cache_size), not the
    // 16 000 better-sqlite3 builds it with: a page read again comes from the operating system's
    // cache at the cost of a read call, while each page kept is C memory the process holds for
    // good. Measured on the bench's database (1M ledger rows, and 300 users in turn): the same CPU
    // per consume at 2 000 and 16 000 KiB, and a server's memory ~10 MiB lower after 18 000 consumes.
    db.pragma(`cache_size = -${CACHE_KIB}`);
    if (!opts.readonly) migrate(db);
  } catch (e) {
    db.close();
    const err = e as { code?: string; message: string };
    if (err.code === 'SQLITE_READONLY' || err.code === 'EACCES' || err.code === 'EROFS') {
      throw new StoreOpenError(`database ${path} is read-only: gatehouse needs to write to it and to its folder`);
    }
    if (err.code === 'SQLITE_FULL') throw new StoreOpenError(`the disk holding ${path} is full`);
    if (err.code === 'SQLITE_NOTADB' || err.code === 'SQLITE_CORRUPT') throw new StoreOpenError(`${path} is not a gatehouse database (${err.message})`);
    throw e instanceof StoreOpenError ? e : new StoreOpenError(`cannot prepare database ${path}: ${err.message}`);
  }
  return db;
}

/** SQLite's temporary files — a transaction's savepoint journal once past 64 KiB (group commit
 *  gives each unit a savepoint), a large sort — go in the folder of the database it writes, which
 *  holds the WAL anyway and is kept to its owner, unless SQLITE_TMPDIR names another. SQLite would
 *  otherwise try TMPDIR, /var/tmp, /usr/tmp, /tmp and the working folder (sqlite.org/tempfiles.html):
 *  under a read-only root filesystem none may be writable, and such a transaction fails with
 *  SQLITE_IOERR_GETTEMPPATH. SQLite reads the variable when it first opens a database in the
 *  process: here, the server's own. */
function tempFilesBeside(path: string): void {
  if (!process.env.SQLITE_TMPDIR) process.env.SQLITE_TMPDIR = dirname(resolve(path));
}

/** What a unit may return: anything but a promise. A unit runs synchronously inside the
 *  transaction; whatever an async function awaits would run after its COMMIT, outside it. */
export type Synchronous<T> = T extends PromiseLike<unknown> ? never : T;

/** Runs `fn` as one all-or-nothing unit of a BEGIN IMMEDIATE transaction: the write lock is taken
 *  up front, so two writers never interleave a read-then-write (no double spend), and a failure
 *  rolls the unit back. Units queued in the same turn share the transaction (group-commit.ts);
 *  the promise settles after COMMIT. An async `fn` does not type-check (Synchronous). */
export function immediate<T>(db: Db, fn: () => Synchronous<T>): Promise<T> {
  return groupCommit(db, fn) as Promise<T>;
}

/** immediate() for a write of rows a cache keeps (lib/cache.ts): `forget` drops them once the unit
 *  has written (later units of its batch read the new rows) and again once it has settled (a
 *  rolled-back batch must leave nothing of it cached). */
export async function immediateForgetting<T>(db: Db, forget: () => void, fn: () => Synchronous<T>): Promise<T> {
  try {
    return await immediate(db, () => {
      const result = fn();
      forget();
      return result;
    });
  } finally {
    forget();
  }
}
