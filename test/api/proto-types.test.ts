// The TypeScript types of proto/ (server/rpc/generated/) are what the generator makes of proto/ now,
// with the server's loader options: a change to proto/ without `npm run proto:types` fails here.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { PROTO_TYPES_DIR, tsFiles, writeProtoTypes } from '../../server/rpc/proto-types.ts';

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
});
