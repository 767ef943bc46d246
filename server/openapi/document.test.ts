import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import protobuf from 'protobufjs';
import { readHttpRules } from '../rpc/http-rule.ts';
import type { MethodInfo } from '../rpc/proto.ts';
import { buildOpenApi } from './document.ts';

// A small API of its own, for what gatehouse's protos do not use (enums, maps).
const SOURCE = `
syntax = "proto3";
package demo.v1;
// Things in a shelf.
service ShelfService {
  // Lists the things. Newest first.
  rpc ListThings(ListThingsRequest) returns (ListThingsResponse);
  rpc PutThing(PutThingRequest) returns (Thing);
}
enum Color { COLOR_UNSPECIFIED = 0; RED = 1; }
// One thing.
message Thing {
  string thing_id = 1;
  Color color = 2;
  map<string, int64> counts = 3;   // per label
  repeated Thing parts = 4;
  Thing parent = 5;
  optional int64 weight_grams = 6;
}
message ListThingsRequest {
  string shelf_id = 1;
  repeated string labels = 2;
  int32 page_size = 3;
  Thing example = 4;
}
message ListThingsResponse { repeated Thing things = 1; }
message PutThingRequest {
  string shelf_id = 1;
  string thing_id = 2;
  Color color = 3;
  map<string, int64> counts = 4;
}
`;

function demo(): MethodInfo[] {
  const root = protobuf.parse(SOURCE, new protobuf.Root(), { keepCase: true, alternateCommentMode: true }).root;
  root.resolveAll();
  const svc = root.lookupService('demo.v1.ShelfService');
  const info = (name: string, http: unknown, access: MethodInfo['access']): MethodInfo => {
    const m = svc.methods[name]!;
    return {
      service: 'demo.v1.ShelfService',
      name,
      path: `/demo.v1.ShelfService/${name}`,
      definition: undefined as unknown as MethodInfo['definition'],
      requestType: root.lookupType(m.requestType),
      responseType: root.lookupType(m.responseType),
      http: readHttpRules(name, http),
      access,
      errors: [],
      ignoreUnknownQuery: false,
    };
  };
  return [
    info('ListThings', { get: '/v1/shelves/{shelf_id}/things', additional_bindings: { get: '/v1/things' } }, { public: true }),
    info('PutThing', { put: '/v1/shelves/{shelf_id}/things/{thing_id}', body: '*' }, { permission: 'things.manage' }),
  ];
}

describe('the OpenAPI document', () => {
  const doc = buildOpenApi(demo()) as any;
  const schemas = doc.components.schemas;

  it('describes messages as components with camelCase names, enums, maps, repeated and nested messages', () => {
    const thing = schemas['demo.v1.Thing'];
    assert.equal(thing.description, 'One thing.');
    assert.deepEqual(Object.keys(thing.properties), ['thingId', 'color', 'counts', 'parts', 'parent', 'weightGrams']);
    assert.deepEqual(thing.properties.color, { type: 'string', enum: ['COLOR_UNSPECIFIED', 'RED'] });
    assert.equal(thing.properties.counts.type, 'object');
    assert.equal(thing.properties.counts.additionalProperties.type, 'integer');
    assert.equal(thing.properties.counts.additionalProperties.format, 'int64');
    assert.equal(thing.properties.counts.description, 'per label');
    assert.deepEqual(thing.properties.parts, { type: 'array', items: { $ref: '#/components/schemas/demo.v1.Thing' } });
    assert.deepEqual(thing.properties.parent, { oneOf: [{ $ref: '#/components/schemas/demo.v1.Thing' }, { type: 'null' }] });
    assert.equal(thing.properties.weightGrams.maximum, 2 ** 53 - 1);
  });

  it('makes each additional binding an operation of its own', () => {
    assert.equal(doc.paths['/v1/shelves/{shelfId}/things'].get.operationId, 'ShelfService_ListThings');
    assert.equal(doc.paths['/v1/things'].get.operationId, 'ShelfService_ListThings_2');
  });

  it('takes the query parameters from the request fields the path does not set, skipping nested messages', () => {
    const names = (op: any) => op.parameters.map((p: any) => `${p.in}:${p.name}`);
    assert.deepEqual(names(doc.paths['/v1/shelves/{shelfId}/things'].get), ['path:shelfId', 'query:labels', 'query:pageSize']);
    assert.deepEqual(names(doc.paths['/v1/things'].get), ['query:shelfId', 'query:labels', 'query:pageSize']);
  });

  it('takes the body "*" as the request message less its path fields, as JSON (no form: it holds a map)', () => {
    const op = doc.paths['/v1/shelves/{shelfId}/things/{thingId}'].put;
    const content = op.requestBody.content;
    assert.deepEqual(Object.keys(content), ['application/json']);
    assert.deepEqual(Object.keys(content['application/json'].schema.properties), ['color', 'counts']);
  });

  it('takes summaries and descriptions from the comments', () => {
    const op = doc.paths['/v1/shelves/{shelfId}/things'].get;
    assert.equal(op.summary, 'Lists the things');
    assert.match(op.description, /^Lists the things\. Newest first\./);
    assert.deepEqual(doc.tags, [{ name: 'ShelfService', description: 'Things in a shelf.' }]);
  });

  it('asks for an API key where the access rule names a permission, and nothing on public routes', () => {
    const put = doc.paths['/v1/shelves/{shelfId}/things/{thingId}'].put;
    assert.deepEqual(put.security, [{ apiKey: [] }, { apiKeyHeader: [] }]);
    assert.equal(put['x-gatehouse-permission'], 'things.manage');
    assert.equal(put.responses['401'].$ref, '#/components/responses/Unauthorized');
    assert.deepEqual(doc.paths['/v1/things'].get.security, []);
    assert.equal(put.responses.default.$ref, '#/components/responses/Error');
  });

  it('is the same text every time', () => {
    assert.equal(JSON.stringify(buildOpenApi(demo())), JSON.stringify(doc));
  });
});
