// The descriptors server reflection serves: proto/'s files, the health service's and everything they
// import, as protoc compiles them (`protoc --include_imports --descriptor_set_out`), so a reflection
// client gets the real files under their own names with their dependency lists. Committed
// (server/rpc/descriptor-set.binpb), so the server needs no protoc; `npm run proto:types` rewrites
// it and a test fails when it is stale.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiProtoFiles, PROTO_INCLUDE_DIRS } from './proto.ts';

export const DESCRIPTOR_SET_FILE = join(dirname(fileURLToPath(import.meta.url)), 'descriptor-set.binpb');

/** Where grpc-health-check keeps health/v1/health.proto. */
export const HEALTH_PROTO_DIR = join(dirname(createRequire(import.meta.url).resolve('grpc-health-check/package.json')), 'proto');
export const HEALTH_PROTO = 'health/v1/health.proto';

/** protoc's FileDescriptorSet of the served protos (needs protoc on the PATH). */
export function compileDescriptorSet(): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-descriptors-'));
  try {
    const out = join(dir, 'set.binpb');
    const includes = [...PROTO_INCLUDE_DIRS, HEALTH_PROTO_DIR].flatMap((d) => ['-I', d]);
    execFileSync('protoc', [...includes, '--include_imports', `--descriptor_set_out=${out}`, ...apiProtoFiles(), HEALTH_PROTO], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    return readFileSync(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function readDescriptorSet(): Buffer {
  return readFileSync(DESCRIPTOR_SET_FILE);
}
