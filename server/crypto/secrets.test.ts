import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { ENCRYPTED, ENCRYPTED_COLUMNS, isSealed, parseSecretsKey, SecretBox, SecretsKeyError, sealedWith } from './secrets.ts';

const column = ENCRYPTED.providerClientSecret;

describe('secrets at rest', () => {
  it('seals into a versioned envelope naming the key, and opens it again', () => {
    const box = SecretBox.ephemeral();
    const sealed = box.seal(column, 'the client secret');
    assert.match(sealed, /^enc:v1:[A-Za-z0-9_-]{8}:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]+$/);
    assert.equal(sealedWith(sealed), box.kid);
    assert.equal(sealed.includes('client secret'), false);
    assert.equal(box.open(column, sealed), 'the client secret');
    assert.notEqual(box.seal(column, 'the client secret'), sealed, 'a fresh IV each time');
  });

  it('refuses a value altered, moved to another column, sealed under an unknown key, or stored in clear', () => {
    const box = SecretBox.ephemeral();
    const sealed = box.seal(column, 'secret');
    const flipped = sealed.slice(0, -2) + (sealed.at(-2) === 'A' ? 'B' : 'A') + sealed.at(-1);
    for (const [what, attempt] of [
      ['altered', () => box.open(column, flipped)],
      ['moved', () => box.open(ENCRYPTED.providerPrivateKey, sealed)],
      ['unknown key', () => SecretBox.ephemeral().open(column, sealed)],
      ['clear', () => box.open(column, 'secret')],
    ] as const) {
      assert.throws(attempt, SecretsKeyError, what);
    }
  });

  it('reseals clear values and values under a previous key, and leaves those under the current key', () => {
    const oldKey = randomBytes(32);
    const old = new SecretBox(oldKey);
    const rotating = new SecretBox(randomBytes(32), [oldKey]);
    const underOld = old.seal(column, 'a');
    const underNew = rotating.reseal(column, underOld)!;
    assert.equal(sealedWith(underNew), rotating.kid);
    assert.equal(rotating.open(column, underNew), 'a');
    assert.equal(rotating.reseal(column, underNew), null);
    const fromClear = rotating.reseal(column, 'clear text')!;
    assert.equal(isSealed(fromClear), true);
    assert.equal(rotating.open(column, fromClear), 'clear text');
    assert.throws(() => old.reseal(column, underNew), SecretsKeyError, 'a key the box does not have');
  });

  it('reads a key of 32 bytes in base64 and refuses anything else', () => {
    const text = randomBytes(32).toString('base64');
    assert.equal(parseSecretsKey(`${text}\n`, 'k').length, 32);
    for (const bad of ['', 'not base64!', randomBytes(16).toString('base64')]) assert.throws(() => parseSecretsKey(bad, 'k'), SecretsKeyError);
  });

  it('lists every encrypted column once, with the keys of its rows', () => {
    const names = ENCRYPTED_COLUMNS.map((c) => `${c.table}.${c.column}`);
    assert.equal(new Set(names).size, names.length);
    for (const c of ENCRYPTED_COLUMNS) assert.ok(c.key.length > 0, `${c.table} names its key`);
  });
});
