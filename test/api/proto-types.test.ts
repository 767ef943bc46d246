// The TypeScript types of proto/ (server/rpc/generated/) are what the generator makes of proto/ now,
// with the server's loader options: a change to proto/ without `npm run proto:types` fails here.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { loadProtos } from '../../server/rpc/proto.ts';
import { PROTO_TYPES_DIR, tsFiles, writeProtoTypes } from '../../server/rpc/proto-types.ts';
import type { ServiceName } from '../../server/rpc/types.ts';

// Exactly the keys of the hand-kept lists in server/rpc/types.ts: the compiler holds these objects to
// those types, the tests below hold them to proto/.
const SERVICES: Record<ServiceName, true> = {
  'gatehouse.v1.AdminService': true,
  'gatehouse.v1.AuthService': true,
  'gatehouse.v1.BillingService': true,
  'gatehouse.v1.PagesService': true,
  'gatehouse.v1.PointsService': true,
};

const stale = 'server/rpc/generated/ is stale: run `npm run proto:types`';

describe('the generated types of proto/', () => {
  it('are the committed server/rpc/generated/, file for file and byte for byte', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-proto-types-'));
    try {
      writeProtoTypes(dir);
      const fresh = tsFiles(dir).map((f) => relative(dir, f));
      assert.deepEqual(tsFiles(PROTO_TYPES_DIR).map((f) => relative(PROTO_TYPES_DIR, f)), fresh, stale);
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
});
