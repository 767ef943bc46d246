// The strict JWS compact reader as tables: which base64url texts are read, which are refused.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeBase64urlStrict, readCompactJws } from './jws-compact.ts';

const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');

describe('decodeBase64urlStrict', () => {
  const accepted: Array<[string, string]> = [
    ['QQ', 'A'],
    ['QUI', 'AB'],
    ['QUJD', 'ABC'],
    ['_-8', '\xff\xef'],
  ];
  for (const [text, want] of accepted) {
    it(`reads ${JSON.stringify(text)}`, () => assert.deepEqual(decodeBase64urlStrict(text), Buffer.from(want, 'latin1')));
  }
  const refused: Array<[string, string]> = [
    ['padding', 'QQ=='],
    ['one padding character', 'QUI='],
    ['standard base64 +', 'a+8'],
    ['standard base64 /', 'a/8'],
    ['a tilde inside', 'QU~JD'],
    ['an asterisk inside', 'QUJ*D'],
    ['a space', 'QU JD'],
    ['a length ≡ 1 (mod 4)', 'QUJDR'],
    ['non-zero trailing bits (QR reads as QQ)', 'QR'],
    ['non-zero trailing bits (QUJ reads as QUI)', 'QUJ'],
    ['empty', ''],
    ['non-ASCII', 'QUJ\u0414'],
  ];
  for (const [name, text] of refused) {
    it(`refuses ${name}`, () => assert.equal(decodeBase64urlStrict(text), null));
  }
});

describe('readCompactJws', () => {
  const h = b64({ alg: 'EdDSA', typ: 'at+jwt', kid: 'k1' });
  const p = b64({ sub: 'u' });
  const sig = Buffer.alloc(64, 7).toString('base64url'); // 86 characters: 4 trailing bits

  it('reads a canonical token into its parts', () => {
    const jws = readCompactJws(`${h}.${p}.${sig}`, 4096)!;
    assert.deepEqual(jws.header, { alg: 'EdDSA', typ: 'at+jwt', kid: 'k1' });
    assert.equal(jws.payloadText, '{"sub":"u"}');
    assert.equal(jws.signingInput, `${h}.${p}`);
    assert.equal(jws.signature64, sig);
    assert.deepEqual(jws.signature, Buffer.alloc(64, 7));
  });

  const lastChar = sig[sig.length - 1]!;
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const sameBytes = alphabet.split('').find((c) => c !== lastChar && Buffer.from(sig.slice(0, -1) + c, 'base64url').equals(Buffer.alloc(64, 7)));
  assert.ok(sameBytes, 'a last character that Buffer reads as the same bytes');
  const refused: Array<[string, string]> = [
    ['two segments', `${h}.${p}`],
    ['four segments', `${h}.${p}.${sig}.x`],
    ['an empty signature', `${h}.${p}.`],
    ['padding after the signature', `${h}.${p}.${sig}==`],
    ['a tilde in the signature', `${h}.${p}.${sig.slice(0, 10)}~${sig.slice(10)}`],
    ['an asterisk in the signature', `${h}.${p}.${sig.slice(0, 10)}*${sig.slice(10)}`],
    ['padding inside the header', `${h}=.${p}.${sig}`],
    ['other trailing bits in the signature', `${h}.${p}.${sig.slice(0, -1)}${sameBytes}`],
    ['a header that is not an object', `${b64('[1]')}.${p}.${sig}`],
    ['a header that is not JSON', `${b64('alg')}.${p}.${sig}`],
    ['a header with a byte-order mark', `${b64('\ufeff{"alg":"EdDSA"}')}.${p}.${sig}`],
    ['a payload that is not UTF-8', `${h}.${Buffer.from([0x7b, 0xff, 0x7d]).toString('base64url')}.${sig}`],
  ];
  for (const [name, token] of refused) {
    it(`refuses ${name}`, () => assert.equal(readCompactJws(token, 4096), null));
  }

  it('refuses a token longer than the limit', () => {
    const t = `${h}.${p}.${sig}`;
    assert.ok(readCompactJws(t, t.length));
    assert.equal(readCompactJws(t, t.length - 1), null);
  });
});
