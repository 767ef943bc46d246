import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clientIp, forwardedEntry } from './client-ip.ts';

describe('the client address behind trusted proxies', () => {
  const PEER = '::ffff:10.0.0.9';
  const cases: Array<[string, string | undefined, number, string]> = [
    // [what, X-Forwarded-For, trusted proxies, client address]
    ['no proxy trusted: the header is ignored', '198.51.100.7', 0, '10.0.0.9'],
    ['one proxy: the entry it appended (rightmost)', '203.0.113.66, 198.51.100.7', 1, '198.51.100.7'],
    ['one proxy: a forged leftmost entry changes nothing', '1.1.1.1, 2.2.2.2, 198.51.100.7', 1, '198.51.100.7'],
    ['two proxies: the second entry from the right', '203.0.113.66, 198.51.100.7, 10.0.0.2', 2, '198.51.100.7'],
    ['fewer entries than proxies: the leftmost, written by the first trusted proxy', '198.51.100.7', 2, '198.51.100.7'],
    ['fewer entries than proxies, several', '198.51.100.7, 10.0.0.2', 3, '198.51.100.7'],
    ['no header: the socket peer', undefined, 1, '10.0.0.9'],
    ['an entry that is no address: the socket peer', '198.51.100.7, unknown', 1, '10.0.0.9'],
    ['an empty entry: the socket peer', '198.51.100.7,', 1, '10.0.0.9'],
    ['an IPv4 entry with a port', '198.51.100.7:4711', 1, '198.51.100.7'],
    ['an IPv6 entry, bracketed with a port', '[2001:DB8::1]:443', 1, '2001:db8::1'],
    ['an IPv6 entry', '2001:db8::1', 1, '2001:db8::1'],
    ['an IPv4-mapped IPv6 entry', '::ffff:198.51.100.7', 1, '198.51.100.7'],
    ['duplicate headers joined by node, last proxy last', '203.0.113.66, 198.51.100.7', 1, '198.51.100.7'],
  ];
  for (const [what, xff, n, want] of cases) {
    it(what, () => assert.equal(clientIp(PEER, xff, n), want));
  }

  it('scans entries from the right without trimming what it does not use', () => {
    assert.deepEqual(
      [1, 2, 3, 4].map((n) => forwardedEntry('a, b, c', n).trim()),
      ['c', 'b', 'a', 'a'],
    );
    assert.equal(forwardedEntry('', 1), '');
    assert.equal(forwardedEntry(',', 2), '');
  });
});
