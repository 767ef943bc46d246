// proto/'s parse kept as protobufjs JSON in server/rpc/generated/protos.json (`npm run proto:types`
// writes it): a server start or a CLI call rebuilds its two Roots from it, ~45 ms of CPU (a quarter)
// cheaper than parsing the text, whenever every file that parse read is unchanged (the snapshot
// names each with the SHA-256 of its text, and protobufjs's version). Otherwise the text is parsed
// as before: a stale snapshot costs time, never a wrong API. test/api/proto-snapshot.test.ts holds
// the rebuilt Roots equal to the parse, object for object, and the committed snapshot current.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';

export const PROTO_SNAPSHOT_FILE = join(dirname(fileURLToPath(import.meta.url)), 'generated', 'protos.json');

const PROTOBUFJS_VERSION: string = createRequire(import.meta.url)('protobufjs/package.json').version;

/** What a Root's JSON leaves out of an object: its parsed options and file. */
interface Extras {
  parsedOptions?: unknown;
  filename?: string;
}

export interface ProtoSnapshot {
  protobufjs: string;
  /** Every file the parse read, by import name, with the SHA-256 of its text. */
  sources: Array<[string, string]>;
  /** The parse with names and comments kept (the HTTP adapter's, OpenAPI's): its JSON and, by
   *  object path, what the JSON leaves out. */
  api: { json: protobuf.INamespace; extras: Record<string, Extras> };
  /** grpc-js's camelCase Root (proto.ts camelCased), JSON only: nothing of it reads the rest. */
  loader: protobuf.INamespace;
}

/** Where a file the parse read is found again: `name` resolved as an import. */
type Resolve = (name: string) => string;

const hashOf = (text: Buffer) => createHash('sha256').update(text).digest('hex');

/** A file of the parse by import name: relative to the include directory it was found in, or as
 *  protobufjs names the google/protobuf files it bundles (not read from disk). */
function importName(file: string, includeDirs: readonly string[]): string {
  if (!isAbsolute(file)) return file;
  for (const dir of includeDirs) {
    const rel = relative(dir, file);
    if (!rel.startsWith('..') && !isAbsolute(rel)) return rel;
  }
  throw new Error(`proto snapshot: ${file} is in none of ${includeDirs.join(', ')}`);
}

/** The hash of a file the parse read; the google/protobuf files protobufjs bundles (named, not
 *  read: not absolute) go with its version. */
const BUNDLED = 'bundled';
const sourceHash = (file: string) => (isAbsolute(file) ? hashOf(readFileSync(file)) : BUNDLED);

/** Every reflection object under `ns` by kind and full name: nested ones, a type's fields and
 *  oneofs, a service's methods. */
export function* objectsOf(ns: protobuf.NamespaceBase): Generator<[string, protobuf.ReflectionObject]> {
  for (const o of ns.nestedArray) {
    yield [`n${o.fullName}`, o];
    if (o instanceof protobuf.Type) {
      for (const f of o.fieldsArray) if (!f.declaringField) yield [`f${f.fullName}`, f];
      for (const one of o.oneofsArray) yield [`o${one.fullName}`, one];
    }
    if (o instanceof protobuf.Service) for (const m of o.methodsArray) yield [`m${m.fullName}`, m];
    if (o instanceof protobuf.Namespace) yield* objectsOf(o);
  }
}

/** The snapshot of a parse: `api` (names and comments kept) and `loader` (its camelCase copy). */
function snapshotOf(api: protobuf.Root, loader: protobuf.Root, includeDirs: readonly string[]): ProtoSnapshot {
  const name = (file: string) => importName(file, includeDirs);
  const extras: Record<string, Extras> = {};
  for (const [path, o] of objectsOf(api)) {
    const extra: Extras = {};
    if (o.parsedOptions) extra.parsedOptions = o.parsedOptions;
    if (o.filename) extra.filename = name(o.filename);
    if (Object.keys(extra).length) extras[path] = extra;
  }
  return {
    protobufjs: PROTOBUFJS_VERSION,
    sources: api.files.map((f) => [name(f), sourceHash(f)]),
    api: { json: api.toJSON({ keepComments: true }), extras },
    loader: loader.toJSON(),
  };
}

/** The snapshot as the generator writes it. */
export function snapshotText(api: protobuf.Root, loader: protobuf.Root, includeDirs: readonly string[]): string {
  return `${JSON.stringify(snapshotOf(api, loader, includeDirs))}\n`;
}

/** The snapshot's two Roots when it was taken of the files as they are now (protobufjs's version
 *  too); null when it is missing, unreadable or stale. */
export function rootsFromSnapshot(file: string, resolve: Resolve): { api: protobuf.Root; loader: protobuf.Root } | null {
  let snapshot: ProtoSnapshot;
  try {
    snapshot = JSON.parse(readFileSync(file, 'utf8')) as ProtoSnapshot;
  } catch {
    return null;
  }
  // Each file as the parse would name it: found again where imports are looked up, or bundled.
  const paths = new Map<string, string>();
  try {
    if (snapshot.protobufjs !== PROTOBUFJS_VERSION) return null;
    for (const [name, hash] of snapshot.sources) {
      const path = hash === BUNDLED ? name : resolve(name);
      if (sourceHash(path) !== hash) return null;
      paths.set(name, path);
    }
  } catch {
    return null; // a file it names is gone
  }
  const api = protobuf.Root.fromJSON(snapshot.api.json);
  api.files = [...paths.values()];
  for (const [path, o] of objectsOf(api)) {
    const extra = snapshot.api.extras[path];
    if (!extra) continue;
    if (extra.parsedOptions !== undefined) o.parsedOptions = extra.parsedOptions as protobuf.ReflectionObject['parsedOptions'];
    if (extra.filename !== undefined) o.filename = paths.get(extra.filename) ?? extra.filename;
  }
  api.resolveAll();
  const loader = protobuf.Root.fromJSON(snapshot.loader);
  loader.resolveAll();
  return { api, loader };
}
