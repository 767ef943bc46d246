// TypeScript types of every message and service of proto/, written by proto-loader-gen-types into
// server/rpc/generated/ (committed; `npm run proto:types` rewrites it, a test fails when it is stale).
// The generator is run with the loader options the server loads proto/ with, so the types describe
// the objects handlers really receive and return.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiProtoFiles, LOADER_OPTIONS, PROTO_INCLUDE_DIRS } from './proto.ts';

export const PROTO_TYPES_DIR = join(dirname(fileURLToPath(import.meta.url)), 'generated');

const GENERATOR = join(dirname(createRequire(import.meta.url).resolve('@grpc/proto-loader/package.json')), 'build', 'bin', 'proto-loader-gen-types.js');

/** The generator's flags carry the loader options' names: `--defaults`, `--longs=Number`… */
export function generatorFlags(options: Record<string, unknown>): string[] {
  const flags: string[] = [];
  for (const [name, value] of Object.entries(options)) {
    if (name === 'includeDirs') continue;
    if (typeof value === 'boolean') {
      if (value) flags.push(`--${name}`);
    } else if (typeof value === 'function') flags.push(`--${name}=${value.name}`);
    else throw new Error(`proto types: loader option ${name} has no generator flag`);
  }
  return flags;
}

/** Writes the types of proto/ into `outDir`, replacing what was there. */
export function writeProtoTypes(outDir: string): void {
  rmSync(outDir, { recursive: true, force: true });
  execFileSync(
    process.execPath,
    [
      GENERATOR,
      ...generatorFlags(LOADER_OPTIONS as Record<string, unknown>),
      ...PROTO_INCLUDE_DIRS.flatMap((dir) => ['-I', dir]),
      // grpc-js: the service definitions and handler interfaces are generated only for a gRPC library.
      '--grpcLib=@grpc/grpc-js',
      // Imports as the project writes them (allowImportingTsExtensions); all of them `import type`.
      '--importFileExtension=.ts',
      '-O',
      outDir,
      ...apiProtoFiles(),
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  // Each file names its .proto by absolute path: keep the path below the include directory only, so
  // the output is the same wherever the checkout and node_modules are.
  for (const file of tsFiles(outDir)) {
    const text = readFileSync(file, 'utf8');
    const relative = PROTO_INCLUDE_DIRS.reduce((t, dir) => t.replaceAll(`// Original file: ${dir}/`, '// Original file: '), text);
    if (relative !== text) writeFileSync(file, relative);
  }
}

/** The .ts files under `dir`, as absolute paths, sorted. */
export function tsFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}
