// Where the key-encryption key of the secrets at rest (crypto/secrets.ts) comes from: GATEHOUSE_SECRETS_KEY
// (the key itself), else --secrets-key-file, else secrets.key in the data folder (beside the
// SQLite file; ./data for PostgreSQL), generated there on first start, readable by its owner only.
// It is kept apart from the database on purpose: a backup of the database alone reveals no secret,
// and a backup restored without its key opens none (README, docs/security.md).
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { type Config, loadConfig } from './config.ts';
import { newSecretsKeyText, parseSecretsKey, SecretBox, SecretsKeyError } from './crypto/secrets.ts';
import type { SecretsStore } from './crypto/store.ts';
import type { Logger } from './lib/log.ts';
import { makeOwnerOnlyDir } from './lib/owner-only.ts';
import { isPostgresUrl } from './store/database-kind.ts';

const FILE_NAME = 'secrets.key';

/** The key file a database uses when none is named; null for an in-memory database. */
export function defaultSecretsKeyFile(db: string): string | null {
  if (db === ':memory:' || db === '') return null;
  return isPostgresUrl(db) ? resolve('data', FILE_NAME) : join(dirname(resolve(db)), FILE_NAME);
}

export type SecretsKeySource = Pick<Config, 'db' | 'secretsKey' | 'secretsKeyFile'>;

/** The box sealing the secrets of `source.db`; generates the key file when it is absent. */
export function loadSecrets(source: SecretsKeySource, log: Pick<Logger, 'warn'>): SecretBox {
  if (source.secretsKey !== null) return new SecretBox(parseSecretsKey(source.secretsKey, 'GATEHOUSE_SECRETS_KEY (--secrets-key)'));
  const file = source.secretsKeyFile ?? defaultSecretsKeyFile(source.db);
  // Nothing of an in-memory database outlives the process: neither does its key.
  if (file === null) return SecretBox.ephemeral();
  return new SecretBox(readOrCreateKeyFile(file, log));
}

/** The key in `file`, which is created (mode 0600, with its folder) when missing. */
export function readOrCreateKeyFile(file: string, log: Pick<Logger, 'warn'>): Buffer {
  const existing = readKeyFile(file);
  if (existing) {
    if ((statSync(file).mode & 0o077) !== 0) log.warn('the secrets key file is readable by others than its owner: chmod 600 it', { file });
    return existing;
  }
  // A folder made here is the owner's alone, as the database's is (lib/owner-only.ts).
  makeOwnerOnlyDir(dirname(file));
  try {
    // wx: of processes starting together, one writes the file and the others read it.
    writeFileSync(file, `${newSecretsKeyText()}\n`, { mode: 0o600, flag: 'wx' });
    chmodSync(file, 0o600); // whatever the umask
    log.warn(
      'GENERATED THE KEY ENCRYPTING SECRETS AT REST: keep a copy of it apart from the database backups; without it the stored provider secrets and signing keys cannot be read',
      { file },
    );
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  // Another process may have created the file a moment ago and not yet written it.
  for (let attempt = 0; attempt < 100; attempt++) {
    const created = readKeyFile(file);
    if (created) return created;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
  }
  throw new SecretsKeyError(`${file}: empty secrets key file`);
}

/** The key in `file`, or null when there is no such file (an empty one being written counts as none). */
export function readKeyFile(file: string): Buffer | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  if (text.trim() === '') return null;
  return parseSecretsKey(text, file);
}

/** Seals, at start, every secret an older version stored in clear (idempotent: once all are
 *  sealed it changes nothing). A value sealed under a key this server lacks stops the start. */
export async function sealSecretsAtRest(store: SecretsStore, box: SecretBox, log: Pick<Logger, 'info'>): Promise<number> {
  const sealed = await store.rewriteSecrets((column, stored) => box.reseal(column, stored));
  if (sealed > 0) log.info('secrets stored in clear are now sealed', { count: sealed, kid: box.kid });
  return sealed;
}

/** The box of a command run on a server's database without the server (`keys create --db`,
 *  `secrets rotate`): the key that server uses, found the same way (its variables, else the
 *  default file beside the database), `keyFile` naming it otherwise. */
export function secretsOfDatabase(db: string, log: Pick<Logger, 'warn'>, keyFile?: string, env: NodeJS.ProcessEnv = process.env): SecretBox {
  const { secretsKey, secretsKeyFile } = loadConfig({ db }, env);
  return loadSecrets({ db, secretsKey: keyFile ? null : secretsKey, secretsKeyFile: keyFile ?? secretsKeyFile }, log);
}
