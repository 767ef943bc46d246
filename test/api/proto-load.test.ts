// loadProtos parses proto/ once and derives grpc-js's camelCase definitions from that parse
// (server/rpc/proto.ts camelCased): the derived Root must be the one protobufjs's parser makes
// without keepCase, object for object, or a field would go over the wire under another name,
// number or encoding.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import protobuf from 'protobufjs';
import { apiProtoFiles, camelCased, loadProtos, resolveImport } from '../../server/rpc/proto.ts';

function parsed(keepCase: boolean): protobuf.Root {
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => resolveImport(target);
  root.loadSync(apiProtoFiles(), { keepCase });
  root.resolveAll();
  return root;
}

/** Every field of every message under `ns`, by full name, with what its encoding depends on. */
function wireOf(ns: protobuf.NamespaceBase, out = new Map<string, unknown>()): Map<string, unknown> {
  for (const o of ns.nestedArray) {
    if (o instanceof protobuf.Type)
      for (const f of o.fieldsArray) out.set(f.fullName, [f.id, f.type, f.repeated, f.packed, f.map, Boolean(f.hasPresence), f.partOf?.name ?? null]);
    if (o instanceof protobuf.Namespace) wireOf(o, out);
  }
  return out;
}

describe('the protos loaded once', () => {
  const direct = parsed(false);
  const derived = camelCased(parsed(true));

  it('derives the Root the parser makes without keepCase: the same JSON, object for object', () => {
    assert.equal(JSON.stringify(derived.toJSON()), JSON.stringify(direct.toJSON()));
  });

  it('gives every field the parse’s number, type, encoding and presence', () => {
    const want = wireOf(direct);
    assert.ok(want.size > 300, `${want.size} fields`);
    assert.deepEqual(wireOf(derived), want);
  });

  it('names fields in camelCase for grpc-js and keeps the original names for the HTTP adapter', () => {
    const consume = loadProtos().methods.find((m) => m.name === 'Consume')!;
    assert.ok(consume.requestType.fields.idempotency_key, 'the original name');
    const encoded = consume.definition.requestSerialize({ realmId: 'r', userId: 'u', amount: 3, idempotencyKey: 'k' });
    assert.deepEqual(consume.requestType.toObject(consume.requestType.decode(encoded), { longs: Number }), {
      realm_id: 'r',
      user_id: 'u',
      amount: 3,
      idempotency_key: 'k',
    });
  });
});
