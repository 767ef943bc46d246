import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { failureCause } from './jwks-cache.ts';

describe('the cause of a failed JWKS fetch, as logged', () => {
  const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
  const cases: Array<[string, unknown, string]> = [
    ["fetch's TypeError wrapping the system error", new TypeError('fetch failed', { cause: refused }), 'ECONNREFUSED'],
    ['several addresses tried (AggregateError)', new TypeError('fetch failed', { cause: new AggregateError([refused], 'all failed') }), 'ECONNREFUSED'],
    ['a name that does not resolve', new TypeError('fetch failed', { cause: Object.assign(new Error('getaddrinfo'), { code: 'ENOTFOUND' }) }), 'ENOTFOUND'],
    ['the fetch timeout', new DOMException('The operation was aborted due to timeout', 'TimeoutError'), 'timeout'],
    ['our own refusal of the answer', new Error('JWKS answered HTTP 500'), 'JWKS answered HTTP 500'],
    ['a cause without a code: its message', new TypeError('fetch failed', { cause: new Error('other side closed') }), 'other side closed'],
  ];
  for (const [what, err, want] of cases) it(what, () => assert.equal(failureCause(err), want));
});
