// Files and folders that hold secrets (the database, the key of the secrets at rest, a backup):
// the owner's alone, whatever the umask.
import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

// The database holds the realms' signing keys, client secrets and Apple's private key: it, its
// -wal/-shm files and any folder gatehouse makes for it are the owner's alone.
export const DB_FILE_MODE = 0o600;
export const DB_DIR_MODE = 0o700;

/** Creates the folders up to `dir` that are missing, each DB_DIR_MODE. */
export function makeOwnerOnlyDir(dir: string): void {
  const leaf = resolve(dir);
  const first = mkdirSync(leaf, { recursive: true, mode: DB_DIR_MODE });
  if (first === undefined) return;
  // mkdir's mode is masked by the umask; set it outright on every folder made here.
  for (let d = leaf; ; d = dirname(d)) {
    chmodSync(d, DB_DIR_MODE);
    if (d === first || dirname(d) === d) break;
  }
}

/** Creates `path` empty with DB_FILE_MODE, or takes group and other access away from an existing
 *  file (never adds any: a read-only file stays read-only). SQLite creates the -wal, -shm and
 *  journal files with the database file's own mode. */
export function createOwnerOnlyFile(path: string): void {
  try {
    closeSync(openSync(path, 'wx', DB_FILE_MODE));
    chmodSync(path, DB_FILE_MODE); // openSync's mode is masked by the umask
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    tightenFile(path);
  }
}

/** Takes group and other access away from a regular file that exists; a file of another owner
 *  is left as it is (only its owner may change its mode). */
export function tightenFile(path: string): void {
  try {
    const st = statSync(path);
    const mode = st.mode & 0o777;
    if (st.isFile() && mode & 0o077) chmodSync(path, mode & 0o700);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'EPERM') throw e;
  }
}
