import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readHttpRules } from './http-rule.ts';

describe('google.api.http rules', () => {
  it('reads a rule without an annotation as no route', () => {
    assert.deepEqual(readHttpRules('M', undefined), []);
  });

  it('reads a body naming one field (the gateway binds the raw body to it; it must be a bytes field)', () => {
    assert.deepEqual(readHttpRules('M', { post: '/hook', body: 'payload' }), [{ method: 'POST', pattern: '/hook', body: 'payload' }]);
  });

  it('makes each additional binding a route of the same method, whether protobufjs gives one or a list', () => {
    assert.deepEqual(readHttpRules('M', { get: '/a/{id}', additional_bindings: { get: '/b/{id}' } }), [
      { method: 'GET', pattern: '/a/{id}', body: '' },
      { method: 'GET', pattern: '/b/{id}', body: '' },
    ]);
    assert.deepEqual(readHttpRules('M', { post: '/a', body: '*', additional_bindings: [{ put: '/b', body: '*' }, { get: '/c' }] }), [
      { method: 'POST', pattern: '/a', body: '*' },
      { method: 'PUT', pattern: '/b', body: '*' },
      { method: 'GET', pattern: '/c', body: '' },
    ]);
  });

  const refused: Array<[string, unknown, RegExp]> = [
    ['a custom pattern', { custom: { kind: 'HEAD', path: '/a' } }, /custom patterns are not supported/],
    ['a custom pattern in a binding', { get: '/a', additional_bindings: { custom: { kind: 'OPTIONS', path: '/a' } } }, /additional_bindings\[0\].*custom/],
    ['a body naming a nested field path', { post: '/a', body: 'realm.id' }, /body "realm.id" is not supported/],
    ['response_body', { get: '/a', response_body: 'realms' }, /response_body is not supported/],
    [
      'a binding with bindings of its own',
      { get: '/a', additional_bindings: { get: '/b', additional_bindings: { get: '/c' } } },
      /must not contain additional_bindings/,
    ],
    ['no verb', { body: '*' }, /exactly one of/],
    ['a selector', { selector: 'x.Y', get: '/a' }, /selector/],
  ];
  for (const [what, raw, message] of refused) {
    it(`stops the boot on ${what}`, () => {
      assert.throws(
        () => readHttpRules('gatehouse.v1.S.M', raw),
        (e: Error) => message.test(e.message) && e.message.includes('gatehouse.v1.S.M'),
      );
    });
  }
});
