// GET /openapi.json: an OpenAPI 3.1 document of every HTTP route, generated from the protos at start;
// valid for a stock validator, the same as the committed docs/openapi.json, and true to the routes
// the adapter actually serves.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import SwaggerParser from '@apidevtools/swagger-parser';
import { OPENAPI_FILE, openApiFileText } from '../../server/openapi/file.ts';
import { loadProtos } from '../../server/rpc/proto.ts';
import { http } from '../helpers/http.ts';
import { type SpawnedServer, spawnServer } from '../helpers/server.ts';

let srv: SpawnedServer;
let served: any;
before(async () => {
  srv = await spawnServer();
  const r = await http(srv.http, 'GET', '/openapi.json');
  assert.equal(r.status, 200, r.text);
  assert.match(r.headers.get('content-type') ?? '', /^application\/json/);
  served = r.body;
});
after(() => srv.stop());

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1 for swagger-parser', async () => {
    assert.equal(served.openapi, '3.1.0');
    await SwaggerParser.validate(structuredClone(served));
  });

  it('would be refused by the validator if it were malformed (the check above can fail)', async () => {
    const broken = structuredClone(served);
    broken.paths['/api/admin/realms/{realmId}'].get.parameters[0].in = 'body'; // OpenAPI 2's, not 3.1's
    await assert.rejects(SwaggerParser.validate(broken));
  });

  it('is the committed docs/openapi.json (run `npm run openapi` after changing proto/)', () => {
    const committed = readFileSync(OPENAPI_FILE, 'utf8');
    assert.ok(committed === openApiFileText(), 'docs/openapi.json is stale: run `npm run openapi`');
    assert.deepEqual(served, JSON.parse(committed));
  });

  it('describes every route of every RPC, additional bindings included', () => {
    const camel = (s: string) => s.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
    let count = 0;
    for (const m of loadProtos().methods) {
      for (const rule of m.http) {
        const path = rule.pattern.replace(/\{([a-z_]+)\}/g, (_, f: string) => `{${camel(f)}}`);
        const op = served.paths[path]?.[rule.method.toLowerCase()];
        assert.ok(op, `${rule.method} ${path} (${m.name}) is missing`);
        assert.equal(op.tags[0], m.service.split('.').pop());
        count++;
      }
    }
    const described = Object.values(served.paths).reduce((n: number, item: any) => n + Object.keys(item).length, 0);
    assert.equal(described, count, 'no operation without a route');
  });

  it('uses camelCase names and int64 as integer, with bodies and path and query parameters', () => {
    const consume = served.paths['/api/points/{realmId}/consume'].post;
    assert.deepEqual(
      consume.parameters.map((p: any) => `${p.in}:${p.name}`),
      ['path:realmId'],
    );
    const body = consume.requestBody.content['application/json'].schema;
    assert.deepEqual(Object.keys(body.properties), ['userId', 'amount', 'description', 'idempotencyKey']);
    assert.equal(body.properties.amount.type, 'integer');
    assert.equal(body.properties.amount.format, 'int64');
    const list = served.paths['/api/bill/{realmId}/entitlement-mappings'].get;
    assert.deepEqual(
      list.parameters.map((p: any) => `${p.in}:${p.name}`),
      ['path:realmId', 'query:paymentProvider', 'query:externalProductId'],
    );
    const summary = served.components.schemas['gatehouse.v1.PointsSummary'];
    assert.deepEqual(Object.keys(summary.properties), [
      'userId',
      'balances',
      'windows',
      'spendableFromQuota',
      'spendableFromPool',
      'total',
      'held',
      'holds',
      'holdCount',
    ]);
    const history = served.paths['/api/points/{realmId}/users/{userId}/transactions'].get;
    assert.deepEqual(
      history.parameters.map((p: any) => `${p.in}:${p.name}`),
      ['path:realmId', 'path:userId', 'query:pageSize', 'query:pageToken', 'query:kind'],
    );
  });

  it('gives each operation the security of its access rule and the contract error body', () => {
    assert.deepEqual(served.paths['/api/points/{realmId}/consume'].post.security, [{ apiKey: [] }, { apiKeyHeader: [] }]);
    assert.deepEqual(served.paths['/api/points/{realmId}/me'].get.security, [{ userToken: [] }]);
    assert.deepEqual(served.paths['/api/oauth/{realmId}/token'].post.security, []);
    assert.deepEqual(served.components.securitySchemes.apiKeyHeader, {
      type: 'apiKey',
      in: 'header',
      name: 'X-API-Key',
      description: 'The same API key in the `X-API-Key` header',
    });
    assert.deepEqual(served.components.schemas.Error.required, ['error', 'message', 'status', 'requestId']);
    for (const item of Object.values(served.paths) as any[]) {
      for (const op of Object.values(item) as any[]) assert.equal(op.responses.default.$ref, '#/components/responses/Error');
    }
  });

  it('takes summaries from the proto comments', () => {
    assert.equal(served.paths['/api/oauth/{realmId}/introspect'].post.summary, 'RFC 7662 for resource servers holding an API key with tokens.introspect');
  });

  it('answers HEAD, and 405 to other methods', async () => {
    assert.equal((await http(srv.http, 'HEAD', '/openapi.json')).status, 200);
    const post = await http(srv.http, 'POST', '/openapi.json', { body: {} });
    assert.equal(post.status, 405);
    assert.equal(post.headers.get('allow'), 'GET');
    assert.equal(post.body.error, 'method_not_allowed');
  });
});
