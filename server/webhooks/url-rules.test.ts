import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkUrlSyntax, isPrivateAddress, resolveAllowed } from './url-rules.ts';

describe('isPrivateAddress', () => {
  const table: Array<[string, boolean]> = [
    ['10.0.0.1', true],
    ['172.16.5.4', true],
    ['172.32.0.1', false],
    ['192.168.1.1', true],
    ['100.64.0.1', true],
    ['127.0.0.1', true],
    ['169.254.169.254', true],
    ['0.0.0.0', true],
    ['203.0.113.7', false],
    ['8.8.8.8', false],
    ['::1', true],
    ['::', true],
    ['fd00::1', true],
    ['fe80::1', true],
    ['::ffff:10.0.0.1', true],
    ['::ffff:203.0.113.7', false],
    ['2001:db8::1', false],
  ];
  for (const [address, expected] of table) it(`${address} → ${expected}`, () => assert.equal(isPrivateAddress(address), expected));
});

describe('checkUrlSyntax', () => {
  it('takes https anywhere and http only to a literal loopback host', () => {
    for (const ok of ['https://a.example/x', 'http://127.0.0.1:8/x', 'http://[::1]/x', 'http://localhost/x']) assert.doesNotThrow(() => checkUrlSyntax(ok), ok);
    for (const bad of [
      'http://a.example/x',
      'http://127.0.0.2/x',
      'file:///etc/passwd',
      'gopher://a.example',
      'https://u:p@a.example/',
      'https://u@a.example/',
      'x',
    ]) {
      assert.throws(() => checkUrlSyntax(bad), bad);
    }
    assert.throws(() => checkUrlSyntax(`https://a.example/${'x'.repeat(2048)}`));
  });
});

describe('resolveAllowed', () => {
  const resolver = (address: string) => async () => [{ address, family: 4 }];
  it('refuses a name resolving to a private address unless private addresses are allowed', async () => {
    const checked = checkUrlSyntax('https://internal.test/x');
    await assert.rejects(resolveAllowed(checked, resolver('169.254.169.254'), false));
    assert.deepEqual(await resolveAllowed(checked, resolver('169.254.169.254'), true), [{ address: '169.254.169.254', family: 4 }]);
    assert.deepEqual(await resolveAllowed(checked, resolver('203.0.113.7'), false), [{ address: '203.0.113.7', family: 4 }]);
  });
  it('never asks the resolver for a literal loopback host', async () => {
    const never = async () => {
      throw new Error('asked');
    };
    assert.deepEqual(await resolveAllowed(checkUrlSyntax('http://localhost:1/x'), never, false), [{ address: '127.0.0.1', family: 4 }]);
  });
});
