// The snapshot of proto/'s parse a server or a CLI call starts from (server/rpc/proto-snapshot.ts):
// both Roots rebuilt from it must be the parse's, object for object, or the HTTP adapter, OpenAPI or
// grpc-js would read another API; and it is used only while every file the parse read is unchanged.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type protobuf from 'protobufjs';
import { PROTO_INCLUDE_DIRS, parseProtos, resolveImport } from '../../server/rpc/proto.ts';
import { objectsOf, PROTO_SNAPSHOT_FILE, type ProtoSnapshot, rootsFromSnapshot, snapshotText } from '../../server/rpc/proto-snapshot.ts';

/** What the server, the CLI and the generators read of an object (resolved links by name), as JSON:
 *  the parser makes some option objects without a prototype. */
function described(o: protobuf.ReflectionObject): unknown {
  const x = o as unknown as Record<string, unknown> & { [k: string]: { fullName?: string } | undefined };
  return JSON.parse(
    JSON.stringify({
      json: (o as unknown as { toJSON(options: protobuf.IToJSONOptions): unknown }).toJSON({ keepComments: true }),
      parsedOptions: o.parsedOptions,
      filename: o.filename,
      comment: o.comment,
      edition: x._edition,
      features: x._features,
      resolvedType: x.resolvedType?.fullName,
      request: x.resolvedRequestType?.fullName,
      response: x.resolvedResponseType?.fullName,
      partOf: x.partOf?.fullName,
      declaringField: x.declaringField?.fullName,
      defaultValue: x.defaultValue,
      packed: (o as protobuf.Field).packed,
      hasPresence: (o as protobuf.Field).hasPresence,
      properties: Object.keys(o).sort(),
    }),
  );
}

function assertSameObjects(got: protobuf.Root, want: protobuf.Root): void {
  const g = new Map(objectsOf(got));
  const w = new Map(objectsOf(want));
  // Sorted: the extensions' fields on the extended options types come in the order they resolved in.
  assert.deepEqual([...g.keys()].sort(), [...w.keys()].sort());
  assert.ok(w.size > 500, `${w.size} objects`);
  for (const [path, o] of w) assert.deepEqual(described(g.get(path)!), described(o), path);
}

describe("the snapshot of proto/'s parse", () => {
  const parsed = parseProtos();
  const tmp = mkdtempSync(join(tmpdir(), 'gatehouse-proto-snapshot-'));
  after(() => rmSync(tmp, { recursive: true, force: true }));

  it('is what `npm run proto:types` writes from proto/ now', () => {
    assert.ok(
      snapshotText(parsed.api, parsed.loader, PROTO_INCLUDE_DIRS) === readFileSync(PROTO_SNAPSHOT_FILE, 'utf8'),
      'server/rpc/generated/protos.json is stale: run `npm run proto:types`',
    );
  });

  it('rebuilds the Root of names and comments and the camelCase Root as the parse makes them, object for object', () => {
    const rebuilt = rootsFromSnapshot(PROTO_SNAPSHOT_FILE, resolveImport);
    assert.ok(rebuilt, 'the committed snapshot is used');
    assert.deepEqual(rebuilt.api.files, parsed.api.files);
    assertSameObjects(rebuilt.api, parsed.api);
    assertSameObjects(rebuilt.loader, parsed.loader);
  });

  it('is not used once a file it was taken of changed, is gone, or protobufjs is another version', () => {
    const snapshot = JSON.parse(readFileSync(PROTO_SNAPSHOT_FILE, 'utf8')) as ProtoSnapshot;
    const variant = (name: string, change: (s: ProtoSnapshot) => void): string => {
      const copy = structuredClone(snapshot);
      change(copy);
      const file = join(tmp, `${name}.json`);
      writeFileSync(file, JSON.stringify(copy));
      return file;
    };
    const same = variant('same', () => {});
    assert.ok(rootsFromSnapshot(same, resolveImport), 'an unchanged copy is used');
    const edited = variant('edited', (s) => {
      s.sources[0]![1] = '0'.repeat(64);
    });
    assert.equal(rootsFromSnapshot(edited, resolveImport), null);
    const gone = variant('gone', (s) => {
      s.sources.push(['gatehouse/v1/removed.proto', '0'.repeat(64)]);
    });
    assert.equal(rootsFromSnapshot(gone, resolveImport), null);
    const upgraded = variant('upgraded', (s) => {
      s.protobufjs = '0.0.0';
    });
    assert.equal(rootsFromSnapshot(upgraded, resolveImport), null);
    writeFileSync(join(tmp, 'torn.json'), readFileSync(PROTO_SNAPSHOT_FILE, 'utf8').slice(0, 1000));
    assert.equal(rootsFromSnapshot(join(tmp, 'torn.json'), resolveImport), null);
    assert.equal(rootsFromSnapshot(join(tmp, 'missing.json'), resolveImport), null);
  });
});
