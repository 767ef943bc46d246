// GET /openapi.json: an OpenAPI 3.1 document of every HTTP route, generated from the protos at start;
// valid for a stock validator, the same as the committed docs/openapi.json, and true to the routes
// the adapter actually serves.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import SwaggerParser from '@apidevtools/swagger-parser';
import openapiTS from 'openapi-typescript';
import { OPENAPI_FILE, openApiFileText } from '../../server/openapi/file.ts';
import { loadProtos } from '../../server/rpc/proto.ts';
import { http } from '../helpers/http.ts';
import { type InProcessServer, startInProcess } from '../helpers/server.ts';

describe('GET /openapi.json', () => {
  let srv: InProcessServer;
  let served: any;
  before(async () => {
    srv = await startInProcess();
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

    it('marks the fields the server requires as required, for a stock code generator (openapi-typescript)', async () => {
      const types = await openapiTS(structuredClone(served));
      const consume = types.slice(types.indexOf('  PointsService_Consume: {'));
      const start = consume.indexOf('"application/json": {');
      const body = consume.slice(start, consume.indexOf('};', start));
      assert.match(body, /\n\s*userId: string;/);
      assert.match(body, /\n\s*amount: number;/);
      assert.match(body, /\n\s*description\?: string;/);
      assert.match(body, /\n\s*idempotencyKey\?: string;/);
      const settle = served.paths['/api/points/{realmId}/holds/{holdId}/settle'].post.requestBody.content['application/json'].schema;
      assert.deepEqual(settle.required, ['amount']);
    });

    it('shows the limits the protos declare, which the server enforces', () => {
      const consume = served.paths['/api/points/{realmId}/consume'].post.requestBody.content['application/json'].schema.properties;
      assert.equal(consume.amount.minimum, 1);
      assert.equal(consume.amount.maximum, Number.MAX_SAFE_INTEGER);
      assert.equal(consume.description.maxLength, 500);
      assert.deepEqual([consume.idempotencyKey.minLength, consume.idempotencyKey.maxLength], [1, 200]);
      const ttl = served.paths['/api/points/{realmId}/holds'].post.requestBody.content['application/json'].schema.properties.ttlSeconds;
      assert.deepEqual([ttl.minimum, ttl.maximum], [1, 86400]);
      const pageSize = served.paths['/api/points/{realmId}/me/transactions'].get.parameters.find((p: any) => p.name === 'pageSize');
      assert.deepEqual([pageSize.schema.minimum, pageSize.schema.maximum], [1, 200]);
    });

    it('lists every error an operation can answer, with the error body', () => {
      const consume = served.paths['/api/points/{realmId}/consume'].post.responses;
      assert.deepEqual(Object.keys(consume), ['200', '400', '401', '403', '404', '409', '413', '503', 'default']);
      assert.match(consume['409'].description, /`insufficient_points`/);
      assert.match(consume['409'].description, /`idempotency_conflict`/);
      assert.equal(consume['409'].content['application/json'].schema.$ref, '#/components/schemas/Error');
      assert.equal(consume['401'].$ref, '#/components/responses/Unauthorized');
      const login = served.paths['/api/oauth/{realmId}/{provider}/native-login'].post.responses;
      assert.ok(login['429'].headers['Retry-After'], 'a 429 says when to come back');
      assert.match(login['401'].description, /`unauthorized`/);
      assert.equal(login['403'], undefined, 'a public RPC needs no permission');
      const settle = served.paths['/api/points/{realmId}/holds/{holdId}/settle'].post.responses;
      assert.match(settle['409'].description, /`hold_expired`, `hold_closed`/);
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
});
