// The protos work with stock tools and beside Google's own definitions: protoc compiles every file
// against googleapis (as google-proto-files ships it), google/api and google/rpc are Google's own
// files (no copies under proto/ to clash with googleapis in a client's process), every gatehouse
// file names its Go and Java packages, and server reflection describes Google's definitions.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { compileDescriptorSet, readDescriptorSet } from '../../server/rpc/descriptor-set.ts';
import { apiProtoFiles, GOOGLE_PROTO_DIR, PROTO_DIR } from '../../server/rpc/proto.ts';
import { reflect, reflectedFiles } from '../helpers/reflection.ts';
import { type InProcessServer, startInProcess } from '../helpers/server.ts';

/** protoc's version as [major, minor], or null when protoc is not installed. */
function protocVersion(): [number, number] | null {
  const r = spawnSync('protoc', ['--version'], { encoding: 'utf8' });
  if (r.error || r.status !== 0) return null;
  const m = /(\d+)\.(\d+)/.exec(r.stdout);
  return m ? [Number(m[1]), Number(m[2])] : null;
}

describe('proto hygiene', () => {
  it('keeps no copies of Google protos under proto/', () => {
    assert.ok(!existsSync(join(PROTO_DIR, 'google')), 'proto/google/ must not exist: google/api and google/rpc come from google-proto-files');
    assert.ok(existsSync(join(GOOGLE_PROTO_DIR, 'google', 'api', 'http.proto')));
  });

  it('names the Go and Java packages in every gatehouse proto', () => {
    for (const file of apiProtoFiles()) {
      const text = readFileSync(join(PROTO_DIR, file), 'utf8');
      assert.match(text, /^option go_package = "[^"]+;gatehousev1";$/m, file);
      assert.match(text, /^option java_package = "[^"]+";$/m, file);
      assert.match(text, /^option java_multiple_files = true;$/m, file);
    }
  });

  const version = protocVersion();
  // proto3 `optional` needs protoc 3.15 or newer.
  const skip = !version
    ? 'protoc is not installed (Debian: apt-get install protobuf-compiler)'
    : version[0] === 3 && version[1] < 15
      ? `protoc ${version.join('.')} is older than 3.15 (proto3 optional)`
      : false;
  it('compiles every proto with protoc against googleapis', { skip }, () => {
    const r = spawnSync('protoc', ['-I', PROTO_DIR, '-I', GOOGLE_PROTO_DIR, '--include_imports', '-o', '/dev/null', ...apiProtoFiles()], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, '', 'protoc warned'); // e.g. an unused import
  });

  it('gives the descriptor set reflection serves (run `npm run proto:types` after changing proto/)', { skip }, () => {
    assert.ok(compileDescriptorSet().equals(readDescriptorSet()), 'server/rpc/descriptor-set.binpb is stale: run `npm run proto:types`');
  });
});

describe('server reflection', () => {
  let srv: InProcessServer;
  before(async () => {
    srv = await startInProcess();
  });
  after(() => srv.stop());

  /** The file descriptors reflection serves for a symbol, by file name. */
  async function filesFor(symbol: string): Promise<Map<string, any>> {
    const files = reflectedFiles(await reflect(srv.grpc, { file_containing_symbol: symbol }));
    return new Map(files.map((file) => [file.name, file]));
  }

  it("describes Google's own google.api.HttpRule (with additional_bindings) to reflection clients", async () => {
    const files = [...(await filesFor('gatehouse.v1.AuthService')).values()];
    // Googleapis' own file, under its own name, as a dependency of the one asked for.
    const api = files.find((f) => f.name === 'google/api/http.proto');
    assert.ok(api, files.map((f) => f.name).join(', '));
    assert.equal(api.package, 'google.api');
    const rule = api.messageType.find((m: any) => m.name === 'HttpRule');
    const fields = rule.field.map((f: any) => f.name);
    for (const name of ['additional_bindings', 'custom', 'response_body']) assert.ok(fields.includes(name), fields.join(', '));
  });
});
