import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiKeyRecord, ClientApp, ProviderConfig } from './model.ts';
import { applyClientPatch, applyProviderPut, fieldChanges, keyRevocation, revokedKey } from './record-changes.ts';
import type { ProviderPut } from './store.ts';

describe("an operator's change to a stored record", () => {
  const stored: ProviderConfig = {
    realmId: 'r',
    provider: 'apple',
    clientId: 'com.app',
    enabled: true,
    clientSecret: 'secret',
    additionalClientIds: ['com.app.b'],
    teamId: 'TEAM',
    keyId: 'KEY',
    privateKey: 'PEM',
    webClientId: 'com.app.web',
    requireNonce: true,
    updatedAt: 1,
  };
  const put: ProviderPut = { realmId: 'r', provider: 'apple', clientId: 'com.app2', enabled: false, additionalClientIds: [], updatedAt: 2 };
  const table: Array<[string, ProviderConfig | null, ProviderPut, ProviderConfig]> = [
    [
      'a put leaving the secrets and Apple web settings out keeps them',
      stored,
      put,
      { ...stored, clientId: 'com.app2', enabled: false, additionalClientIds: [], updatedAt: 2 },
    ],
    [
      'null removes a secret or key',
      stored,
      { ...put, clientSecret: null, privateKey: null },
      { ...stored, clientId: 'com.app2', enabled: false, additionalClientIds: [], updatedAt: 2, clientSecret: null, privateKey: null },
    ],
    [
      'given values replace the stored ones',
      stored,
      { ...put, clientSecret: 's2', teamId: 'T2', keyId: 'K2', privateKey: 'P2', webClientId: 'w2' },
      {
        ...stored,
        clientId: 'com.app2',
        enabled: false,
        additionalClientIds: [],
        updatedAt: 2,
        clientSecret: 's2',
        teamId: 'T2',
        keyId: 'K2',
        privateKey: 'P2',
        webClientId: 'w2',
      },
    ],
    [
      'a first put has no secrets and empty Apple settings unless given',
      null,
      put,
      {
        realmId: 'r',
        provider: 'apple',
        clientId: 'com.app2',
        enabled: false,
        clientSecret: null,
        additionalClientIds: [],
        teamId: '',
        keyId: '',
        privateKey: null,
        webClientId: '',
        requireNonce: false,
        updatedAt: 2,
      },
    ],
    [
      'requireNonce given replaces the stored one, left out keeps it (a put never turns it off unasked)',
      stored,
      { ...put, requireNonce: false },
      { ...stored, clientId: 'com.app2', enabled: false, additionalClientIds: [], updatedAt: 2, requireNonce: false },
    ],
  ];
  for (const [name, s, p, want] of table) it(`provider: ${name}`, () => assert.deepEqual(applyProviderPut(s, p), want));

  it('client: a patch replaces the fields it names and keeps the rest', () => {
    const c: ClientApp = {
      realmId: 'r',
      clientId: 'c',
      name: 'App',
      type: 'first_party',
      redirectUris: [],
      ipBinding: 'off',
      enabled: true,
      accessTokenTtlSeconds: 60,
      refreshTokenTtlSeconds: 600,
      createdAt: 0,
    };
    assert.deepEqual(applyClientPatch(c, { enabled: false, name: 'New' }), { ...c, enabled: false, name: 'New' });
  });

  it('api key: revoking keeps the first revocation time', () => {
    const k: ApiKeyRecord = { id: 'key_1', keyHash: 'h', realm: '*', permissions: ['*'], name: '', createdAt: 0, revokedAt: null };
    assert.deepEqual(revokedKey(k, 5), { ...k, revokedAt: 5 });
    assert.deepEqual(revokedKey({ ...k, revokedAt: 3 }, 5), { ...k, revokedAt: 3 });
  });

  it('api key: a revocation is audited once, when it changes the key', () => {
    const k: ApiKeyRecord = { id: 'key_1', keyHash: 'h', realm: 'r1', permissions: ['*'], name: '', createdAt: 0, revokedAt: null };
    const by = { actor: { type: 'api_key' as const, id: 'key_0' }, requestId: null };
    const first = keyRevocation(k, 5, by);
    assert.deepEqual(first.key, { ...k, revokedAt: 5 });
    assert.equal(first.audit?.action, 'api_key.revoke');
    assert.deepEqual(keyRevocation(first.key, 9, by), { key: first.key, audit: null });
  });
});

describe("an operator's change as its audit record's changes", () => {
  const table: Array<[string, Record<string, unknown> | null, Record<string, unknown>, Record<string, { before: unknown; after: unknown }>]> = [
    [
      'a new record shows every field set, before null',
      null,
      { name: 'a', list: [] },
      { name: { before: null, after: 'a' }, list: { before: null, after: [] } },
    ],
    ['an update shows only the fields that differ', { name: 'a', n: 1, list: [1] }, { name: 'a', n: 2, list: [1] }, { n: { before: 1, after: 2 } }],
    ['arrays and objects compare by value', { list: [1, 2] }, { list: [2, 1] }, { list: { before: [1, 2], after: [2, 1] } }],
    [
      'a secret set, changed or removed is "[redacted]", never its value',
      { secret: 'x' },
      { secret: 'y' },
      { secret: { before: '[redacted]', after: '[redacted]' } },
    ],
    ['a secret removed shows null after', { secret: 'x' }, { secret: null }, { secret: { before: '[redacted]', after: null } }],
    ['a skipped field is never shown', { at: 1 }, { at: 2 }, {}],
  ];
  for (const [name, before, after, want] of table) {
    it(name, () => assert.deepEqual(fieldChanges(before, after, { redact: ['secret'], skip: ['at'] }), want));
  }
});
