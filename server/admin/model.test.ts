import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { redirectUriProblem } from './model.ts';

describe('redirect URI rules (judged on the raw string)', () => {
  const accepted = [
    'https://app.example/cb',
    'https://app.example/cb?tenant=7',
    'https://app.example:8443/cb',
    'HTTPS://App.Example/cb',
    'https://app.example/a%20b',
    'http://127.0.0.1:49152/cb',
    'http://[::1]:8080/cb',
    'http://localhost/cb',
    'http://LOCALHOST:3000/cb',
    'com.example.app:/cb',
    'com.example.app://oauth/callback',
  ];
  for (const uri of accepted) it(`accepts ${uri}`, () => assert.equal(redirectUriProblem(uri), null));

  const refused: Array<[string, string, RegExp]> = [
    ['a CR/LF (header splitting)', 'https://app.example/cb\r\nSet-Cookie: x=1', /whitespace or control/],
    ['a LF that URL parsing would drop', 'https://app.example/c\nb', /whitespace or control/],
    ['a tab', 'https://app.exa\tmple/cb', /whitespace or control/],
    ['a space', 'https://app.example/c b', /whitespace or control/],
    ['a NUL', 'https://app.example/cb\u0000', /whitespace or control/],
    ['a no-break space', 'https://app.example/cb\u00a0', /whitespace or control/],
    ['a zero-width space', 'https://app.example/\u200bcb', /whitespace or control/],
    ['a fragment', 'https://app.example/cb#x', /fragment/],
    ['an empty fragment', 'https://app.example/cb#', /fragment/],
    ['a backslash URL parsing would mend', 'https:\\\\app.example/cb', /URI characters/],
    ['a quote', 'https://app.example/"><script>', /URI characters/],
    ['non-ASCII', 'https://exämple.com/cb', /URI characters/],
    ['a broken percent-encoding', 'https://app.example/%zz', /percent-encoded/],
    ['a relative reference', '/cb', /absolute/],
    ['words', 'not a uri', /whitespace/],
    ['an empty string', '', /absolute/],
    ['a scheme alone', 'https:', /absolute/],
    ['https without slashes', 'https:app.example/cb', /https:\/\/host/],
    ['https with one slash', 'https:/app.example/cb', /https:\/\/host/],
    ['https with an empty host', 'https:///cb', /https:\/\/host/],
    ['a bad port', 'https://app.example:99999/cb', /absolute/],
    ['plain http to a public host', 'http://app.example/cb', /loopback/],
    ['plain http to a name that only starts like loopback', 'http://localhost.evil.example/cb', /loopback/],
    ['plain http to a loopback spelled another way', 'http://0x7f.0.0.1/cb', /loopback/],
    ['plain http with loopback as user info', 'http://127.0.0.1@evil.example/cb', /loopback/],
    ['a scheme without a period', 'myapp://cb', /private-use/],
    ['javascript:', 'javascript:alert(1)', /private-use/],
    ['data:', 'data:text/html,x', /private-use/],
    ['file:', 'file:///etc/passwd', /private-use/],
  ];
  for (const [name, uri, why] of refused) {
    it(`refuses ${name}`, () => assert.match(redirectUriProblem(uri) ?? 'accepted', why));
  }
});
