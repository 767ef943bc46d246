// Server reflection as a strict client reads it: Python's protobuf DescriptorPool (Debian's
// python3-protobuf and python3-grpcio) built from the reflection answers alone refuses a file whose
// dependencies are missing, whose extension or reserved ranges are malformed or whose open enum
// does not start at zero. It then calls Consume dynamically. Skipped only when Python's grpc and
// protobuf modules or protoc are missing.

import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { api } from '../helpers/http.ts';
import { REFLECTION_PROTO_DIR, reflect, reflectedFiles } from '../helpers/reflection.ts';
import { type InProcessServer, startInProcess, tempDir } from '../helpers/server.ts';
import { createRealm, createUser } from '../points/helpers.ts';

const PYTHON = '/usr/bin/python3';
const CLIENT = join(import.meta.dirname, 'reflection-client.py');

function unavailable(): string | null {
  if (spawnSync(PYTHON, ['-c', 'import grpc, google.protobuf'], { encoding: 'utf8' }).status !== 0) {
    return 'Python grpc and protobuf are not installed (Debian: apt-get install python3-grpcio python3-protobuf)';
  }
  if (spawnSync('protoc', ['--version']).status !== 0) return 'protoc is not installed (Debian: apt-get install protobuf-compiler)';
  return null;
}

const skip = unavailable() ?? false;

describe('server reflection for a strict client (Python DescriptorPool)', { skip }, () => {
  let srv: InProcessServer;
  let generated: string;
  let userId: string;
  before(async () => {
    generated = tempDir('gatehouse-reflection-');
    const r = spawnSync('protoc', ['-I', REFLECTION_PROTO_DIR, `--python_out=${generated}`, 'grpc/reflection/v1/reflection.proto'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    srv = await startInProcess();
    const h = api(srv.http, srv.adminKey);
    await createRealm(h, 'refl');
    userId = await createUser(h, 'refl', 'refl@example.com');
    assert.equal((await h.post(`/api/points/refl/users/${userId}/grants`, { kind: 'topup_credit', amount: 10 })).status, 200);
  });
  after(() => srv?.stop());

  async function client(service: string, method: string, request: object): Promise<{ files: string[]; answer: Record<string, any> }> {
    const args = [CLIENT, join(generated, 'grpc', 'reflection', 'v1'), srv.grpc, service, method, JSON.stringify(request), srv.adminKey];
    const { stdout } = await promisify(execFile)(PYTHON, args, { encoding: 'utf8', timeout: 60_000 }).catch((e: { stderr?: string; message: string }) => {
      throw new Error(`the Python client failed: ${e.stderr || e.message}`);
    });
    return JSON.parse(stdout);
  }

  it('builds a pool from reflection alone and calls Consume with it', async () => {
    const { files, answer } = await client('gatehouse.v1.PointsService', 'Consume', { realmId: 'refl', userId, amount: 3 });
    assert.equal(answer.userId, userId);
    assert.equal(Number(answer.amount), 3);
    assert.equal(Number(answer.remaining.total), 7);
    // The real files, under their own names, with Google's and protobuf's own among them.
    for (const name of ['gatehouse/v1/points.proto', 'gatehouse/v1/options.proto', 'google/api/http.proto', 'google/protobuf/descriptor.proto']) {
      assert.ok(files.includes(name), `${name} not among ${files.join(', ')}`);
    }
  });

  it('answers the older grpc.reflection.v1alpha (grpcurl falls back to it) with the same files', async () => {
    const answer = await reflect(srv.grpc, { file_containing_symbol: 'gatehouse.v1.PointsService.Consume' }, 'v1alpha');
    const files = reflectedFiles(answer);
    assert.equal(files[0].name, 'gatehouse/v1/points.proto');
    for (const dep of ['google/api/annotations.proto', 'gatehouse/v1/options.proto']) assert.ok(files[0].dependency.includes(dep), dep);
    const names = files.map((f: { name: string }) => f.name);
    for (const dep of files.flatMap((f: { dependency: string[] }) => f.dependency)) assert.ok(names.includes(dep), `${dep} not served`);
  });

  it('resolves google.api.HttpBody for the pages service', async () => {
    const { files, answer } = await client('gatehouse.v1.PagesService', 'UserPointsStyle', { realmId: 'refl' });
    assert.ok(files.includes('google/api/httpbody.proto'), files.join(', '));
    assert.match(answer.contentType, /^text\/css/);
  });
});
