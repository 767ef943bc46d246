// The TypeScript types of proto/ (server/rpc/generated/) are what the generator makes of proto/ now,
// with the server's loader options: a change to proto/ without `npm run proto:types` fails here. And
// what server/rpc/types.ts and the CLI's rpc() add by hand still says what proto/ says.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import protobuf from 'protobufjs';
import type { CliService } from '../../cli/context.ts';
import { isJsonList } from '../../server/rpc/json.ts';
import { loadProtos } from '../../server/rpc/proto.ts';
import { PROTO_TYPES_DIR, tsFiles, writeProtoTypes } from '../../server/rpc/proto-types.ts';
import type { JsonLists, ServiceName } from '../../server/rpc/types.ts';

// Exactly the members of the hand-kept lists: the compiler holds these objects to those types, the
// tests below hold them to proto/.
const SERVICES: Record<ServiceName, true> = {
  'gatehouse.v1.AdminService': true,
  'gatehouse.v1.AuthService': true,
  'gatehouse.v1.BillingService': true,
  'gatehouse.v1.PagesService': true,
  'gatehouse.v1.PointsService': true,
};
const JSON_LISTS: Record<keyof JsonLists, true> = {
  'gatehouse.v1.QuotaWindowList': true,
  'gatehouse.v1.StringList': true,
};
const CLI_SERVICES: Record<CliService, true> = {
  AdminService: true,
  BillingService: true,
  PagesService: true,
  PointsService: true,
};

/** The messages the requests and responses of `methods` are made of, by full name. */
function messagesOf(methods: ReturnType<typeof loadProtos>['methods']): Map<string, protobuf.Type> {
  const seen = new Map<string, protobuf.Type>();
  const visit = (t: protobuf.Type) => {
    const name = t.fullName.slice(1);
    if (seen.has(name)) return;
    seen.set(name, t);
    for (const f of t.fieldsArray) if (f.resolvedType instanceof protobuf.Type) visit(f.resolvedType);
  };
  for (const m of methods) {
    visit(m.requestType);
    visit(m.responseType);
  }
  return seen;
}

const stale = 'server/rpc/generated/ is stale: run `npm run proto:types`';

describe('the generated types of proto/', () => {
  it('are the committed server/rpc/generated/, file for file and byte for byte', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-proto-types-'));
    try {
      writeProtoTypes(dir);
      const fresh = tsFiles(dir).map((f) => relative(dir, f));
      assert.deepEqual(
        tsFiles(PROTO_TYPES_DIR).map((f) => relative(PROTO_TYPES_DIR, f)),
        fresh,
        stale,
      );
      for (const f of fresh) {
        assert.ok(readFileSync(join(PROTO_TYPES_DIR, f), 'utf8') === readFileSync(join(dir, f), 'utf8'), `${f}: ${stale}`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('name every service of proto/ in server/rpc/types.ts (Services)', () => {
    assert.deepEqual(Object.keys(SERVICES).sort(), [...loadProtos().services].sort());
  });

  it('name every json_list message of the API in server/rpc/types.ts (JsonLists)', () => {
    const lists = [...messagesOf(loadProtos().methods)].filter(([, t]) => isJsonList(t)).map(([name]) => name);
    assert.deepEqual(Object.keys(JSON_LISTS).sort(), lists.sort());
  });

  it('leave out of the CLI every service whose messages rename a field with json_name (ProtoJson keeps the names)', () => {
    const cli = loadProtos().methods.filter((m) => m.service.replace(/^gatehouse\.v1\./, '') in CLI_SERVICES);
    const renamed = [...messagesOf(cli).values()].flatMap((t) =>
      t.fieldsArray.filter((f) => f.options?.json_name !== undefined).map((f) => `${t.name}.${f.name}`),
    );
    assert.deepEqual(renamed, []);
  });
});
