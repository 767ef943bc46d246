import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { wwwAuthenticate } from './www-authenticate.ts';

describe('WWW-Authenticate of a 401', () => {
  it('challenges for a bearer token, without an error code when none was sent', () => {
    assert.equal(wwwAuthenticate(undefined, false), 'Bearer realm="gatehouse"');
  });
  it('says invalid_token when a token was sent and refused (RFC 6750 §3.1)', () => {
    assert.equal(wwwAuthenticate(undefined, true), 'Bearer realm="gatehouse", error="invalid_token"');
  });
  it("keeps the error's own challenge", () => {
    assert.equal(wwwAuthenticate('Basic realm="gatehouse"', true), 'Basic realm="gatehouse"');
  });
});
