import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import protobuf from 'protobufjs';
import { GatehouseError } from '../errors.ts';
import { messageFromJson, messageFromParams, messageToJson } from './json.ts';
import { loadProtos } from './proto.ts';

const { root } = loadProtos();
const update = root.lookupType('gatehouse.v1.UpdateClientRequest');
const client = root.lookupType('gatehouse.v1.Client');
const create = root.lookupType('gatehouse.v1.CreateClientRequest');

const fails = (fn: () => unknown, field: string) => {
  assert.throws(fn, (e: unknown) => e instanceof GatehouseError && e.code === 'bad_request' && e.extra.field === field);
};

describe('proto3 JSON in', () => {
  it('accepts camelCase and original field names alike', () => {
    assert.deepEqual(messageFromJson(create, { clientId: 'a', redirect_uris: ['x'] }), { clientId: 'a', redirectUris: ['x'] });
  });
  it('keeps null, [] and a list apart for a json_list field', () => {
    assert.deepEqual(messageFromJson(update, { redirectUris: null }), {});
    assert.deepEqual(messageFromJson(update, { redirectUris: [] }), { redirectUris: { values: [] } });
    assert.deepEqual(messageFromJson(update, { redirectUris: ['a'] }), { redirectUris: { values: ['a'] } });
  });
  it('names the field of each type error', () => {
    fails(() => messageFromJson(create, { clientId: 5 }), 'clientId');
    fails(() => messageFromJson(create, { redirectUris: 'x' }), 'redirectUris');
    fails(() => messageFromJson(create, { redirectUris: ['ok', 3] }), 'redirectUris[1]');
    fails(() => messageFromJson(create, { enabled: 'yes' }), 'enabled');
    fails(() => messageFromJson(create, { accessTokenTtlSeconds: 2 ** 53 }), 'accessTokenTtlSeconds');
    fails(() => messageFromJson(create, { accessTokenTtlSeconds: 1.25 }), 'accessTokenTtlSeconds');
    fails(() => messageFromJson(create, { accessTokenTtlSeconds: '9.5' }), 'accessTokenTtlSeconds');
    fails(() => messageFromJson(create, { accessTokenTtlSeconds: ' 900' }), 'accessTokenTtlSeconds');
    fails(() => messageFromJson(create, { accessTokenTtlSeconds: '9007199254740992' }), 'accessTokenTtlSeconds');
    fails(() => messageFromJson(create, { surprise: 1 }), 'surprise');
  });
  it('takes an integer as a JSON number or a decimal string (proto3 JSON)', () => {
    assert.deepEqual(messageFromJson(create, { accessTokenTtlSeconds: '900' }), { accessTokenTtlSeconds: 900 });
    assert.deepEqual(messageFromJson(create, { accessTokenTtlSeconds: '-9007199254740991' }), { accessTokenTtlSeconds: -9007199254740991 });
    assert.deepEqual(messageFromJson(create, { accessTokenTtlSeconds: 900 }), { accessTokenTtlSeconds: 900 });
  });
  it('refuses a negative unsigned integer and names the field by its JSON name whichever spelling came', () => {
    const t = protobuf.parse('syntax = "proto3"; message U { uint64 max_count = 1; }', { keepCase: true }).root.lookupType('U');
    fails(() => messageFromJson(t, { maxCount: '-1' }), 'maxCount');
    fails(() => messageFromJson(t, { max_count: 2 ** 53 }), 'maxCount');
    assert.deepEqual(messageFromJson(t, { max_count: '7' }), { maxCount: 7 });
  });
  it('reads query strings by either name, ignores unknown ones and converts types', () => {
    const q = new URLSearchParams('client_id=a&enabled=true&access_token_ttl_seconds=60&utm=x');
    assert.deepEqual(messageFromParams(create, q, new Set()), { clientId: 'a', enabled: true, accessTokenTtlSeconds: 60 });
    fails(() => messageFromParams(create, new URLSearchParams('accessTokenTtlSeconds=abc'), new Set()), 'accessTokenTtlSeconds');
  });
});

describe('proto3 JSON out', () => {
  it('writes every field, timestamps as RFC 3339 and unset messages as null', () => {
    const out = messageToJson(client, { clientId: 'a', createdAt: { seconds: 1767225600, nanos: 5_000_000 } });
    assert.equal(out.createdAt, '2026-01-01T00:00:00.005Z');
    assert.equal(out.enabled, false);
    assert.deepEqual(out.redirectUris, []);
    assert.equal(out.accessTokenTtlSeconds, 0);
    assert.equal(messageToJson(client, {}).createdAt, null);
  });
  it('leaves out an unset proto3 optional scalar', () => {
    const out = messageToJson(update, { realmId: 'r', clientId: 'c' });
    assert.ok(!('name' in out));
    assert.equal(out.redirectUris, null);
  });
});
