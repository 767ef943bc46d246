import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { ENCRYPTED, newSecretsKeyText, SecretsKeyError } from './crypto/secrets.ts';
import { defaultSecretsKeyFile, loadSecrets } from './secrets-key.ts';

describe('the key of the secrets at rest', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-secrets-key-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const quiet = { warn: () => {} };

  it('lives beside a SQLite file, in ./data for PostgreSQL, nowhere for a database in memory', () => {
    assert.equal(defaultSecretsKeyFile('/srv/gh/gatehouse.db'), '/srv/gh/secrets.key');
    assert.equal(defaultSecretsKeyFile('postgres://db.example/gh'), resolve('data', 'secrets.key'));
    assert.equal(defaultSecretsKeyFile(':memory:'), null);
  });

  it('is generated once, owner-only, with a warning, and the same key is read back', () => {
    const db = join(dir, 'new', 'gatehouse.db');
    const warnings: string[] = [];
    const first = loadSecrets({ db, secretsKey: null, secretsKeyFile: null }, { warn: (m) => warnings.push(m) });
    const file = join(dir, 'new', 'secrets.key');
    assert.equal((statSync(file).mode & 0o777).toString(8), '600');
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /apart from the database backups/);
    const again = loadSecrets({ db, secretsKey: null, secretsKeyFile: null }, { warn: (m) => warnings.push(m) });
    assert.equal(again.kid, first.kid);
    assert.equal(warnings.length, 1, 'no warning when the key exists');
    assert.equal(again.open(ENCRYPTED.providerClientSecret, first.seal(ENCRYPTED.providerClientSecret, 's')), 's');
    assert.equal(readFileSync(file, 'utf8').trim().length, 44);
  });

  it('takes the key itself over a file, and a named file over the default one', () => {
    const text = newSecretsKeyText();
    const named = join(dir, 'named.key');
    writeFileSync(named, text, { mode: 0o600 });
    const fromEnv = loadSecrets({ db: join(dir, 'x.db'), secretsKey: text, secretsKeyFile: join(dir, 'absent.key') }, quiet);
    const fromFile = loadSecrets({ db: join(dir, 'x.db'), secretsKey: null, secretsKeyFile: named }, quiet);
    assert.equal(fromEnv.kid, fromFile.kid);
  });

  it('warns when the file is readable by others, and refuses one that holds no key', () => {
    const loose = join(dir, 'loose.key');
    writeFileSync(loose, newSecretsKeyText());
    chmodSync(loose, 0o644);
    const warnings: string[] = [];
    loadSecrets({ db: ':memory:', secretsKey: null, secretsKeyFile: loose }, { warn: (m) => warnings.push(m) });
    assert.match(warnings.join(), /chmod 600/);
    const bad = join(dir, 'bad.key');
    writeFileSync(bad, 'not a key\n', { mode: 0o600 });
    assert.throws(() => loadSecrets({ db: ':memory:', secretsKey: null, secretsKeyFile: bad }, quiet), SecretsKeyError);
    assert.throws(() => loadSecrets({ db: ':memory:', secretsKey: 'c2hvcnQ=', secretsKeyFile: null }, quiet), SecretsKeyError);
  });
});
