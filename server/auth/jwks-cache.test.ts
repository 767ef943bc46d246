import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HttpBodyTooLarge, HttpTimeout } from '../lib/http-request.ts';
import { failureCause } from './jwks-cache.ts';

describe('the cause of a failed JWKS fetch, as logged', () => {
  const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
  const cases: Array<[string, unknown, string]> = [
    ['a system error', refused, 'ECONNREFUSED'],
    ['several addresses tried (AggregateError)', new AggregateError([refused], 'all failed'), 'ECONNREFUSED'],
    ['a name that does not resolve', Object.assign(new Error('getaddrinfo ENOTFOUND keys.example'), { code: 'ENOTFOUND' }), 'ENOTFOUND'],
    ['a system error kept as the cause of another', new TypeError('fetch failed', { cause: refused }), 'ECONNREFUSED'],
    ['the request timeout', new HttpTimeout('no whole answer within 500 ms'), 'timeout'],
    ['an answer over the size cap', new HttpBodyTooLarge(262144), 'answer body over 262144 bytes'],
    ['our own refusal of the answer', new Error('JWKS answered HTTP 500'), 'JWKS answered HTTP 500'],
    ['a cause without a code: its message', new Error('wrapper', { cause: new Error('other side closed') }), 'other side closed'],
  ];
  for (const [what, err, want] of cases) it(what, () => assert.equal(failureCause(err), want));
});
