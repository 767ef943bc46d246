// The adapter's proto-driven redirect: a response message with `option (http_redirect_field)`
// answers 302 + Location when the handler sets that field, JSON otherwise; a bad option stops the boot.

import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import protobuf from 'protobufjs';
import { silentLogger } from '../lib/log.ts';
import type { Authenticator } from '../rpc/access.ts';
import type { BoundMethod } from '../rpc/dispatch.ts';
import { loadProtos } from '../rpc/proto.ts';
import { createGateway, redirectField } from './server.ts';

describe('http_redirect_field', () => {
  let server: Server;
  let base: string;
  let answer: Record<string, unknown> = {};

  before(async () => {
    const info = loadProtos().methods.find((m) => m.name === 'AppleWebLogin')!;
    const bound: BoundMethod = { info, handler: async () => answer };
    const auth: Authenticator = { apiKey: async () => null, userToken: async () => null } as unknown as Authenticator;
    server = createGateway({ methods: [bound], auth, log: silentLogger, trustProxy: 0 });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  it('answers 302 with the field as Location and no body when the handler sets it', async () => {
    answer = { location: 'https://idp.example/authorize?a=1&b=two%20words' };
    const res = await fetch(`${base}/api/oauth/r1/apple/login?clientId=app`, { redirect: 'manual' });
    assert.equal(res.status, 302);
    assert.equal(res.headers.get('location'), 'https://idp.example/authorize?a=1&b=two%20words');
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.ok(res.headers.get('x-request-id'));
    assert.equal(await res.text(), '');
  });

  it('writes the message as JSON when the field is empty', async () => {
    answer = { location: '' };
    const res = await fetch(`${base}/api/oauth/r1/apple/login?clientId=app`, { redirect: 'manual' });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { location: '' });
  });

  it('names the camelCase property of the field, and nothing for a message without the option', () => {
    const root = loadProtos().root;
    assert.equal(redirectField(root.lookupType('gatehouse.v1.AppleWebCallbackResponse')), 'location');
    assert.equal(redirectField(root.lookupType('gatehouse.v1.NativeLoginResponse')), null);
  });

  it('refuses at boot an option naming a missing or non-string field', () => {
    for (const [field, type] of [
      ['nope', 'string'],
      ['n', 'int64'],
    ] as const) {
      const t = new protobuf.Type('Bad').add(new protobuf.Field('n', 1, type));
      t.setOption('(http_redirect_field)', field);
      assert.throws(() => redirectField(t), /http_redirect_field/);
    }
  });
});
