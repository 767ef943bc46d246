// Loads proto/ once: grpc-js service definitions (proto-loader's objects: camelCase fields), and a
// protobufjs Root (original field names and comments kept) for the HTTP adapter's JSON mapping and
// the OpenAPI document. A bad annotation stops the boot.
import { accessSync, constants, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as grpc from '@grpc/grpc-js';
import type * as protoLoader from '@grpc/proto-loader';
import protobuf from 'protobufjs';
import { type ErrorCode, isErrorCode } from '../errors.ts';
import { optionValues } from './field-rules.ts';
import { type HttpRule, readHttpRules } from './http-rule.ts';
import { PROTO_SNAPSHOT_FILE, rootsFromSnapshot } from './proto-snapshot.ts';

export type { HttpRule } from './http-rule.ts';

export const PROTO_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'proto');
/** Google's own google/api and google/rpc definitions (googleapis, as the google-proto-files package
 *  ships them), so a client that also loads googleapis sees one definition of each. */
export const GOOGLE_PROTO_DIR = dirname(createRequire(import.meta.url).resolve('google-proto-files/package.json'));
/** Where imports are looked up, in order: gatehouse's protos, then Google's. */
export const PROTO_INCLUDE_DIRS = [PROTO_DIR, GOOGLE_PROTO_DIR];

/** An import path (`google/api/http.proto`) as a file, for a protobufjs Root's resolvePath
 *  (protobufjs takes the well-known google/protobuf/ types it bundles without asking). */
export function resolveImport(target: string): string {
  if (isAbsolute(target)) return target;
  for (const dir of PROTO_INCLUDE_DIRS) {
    const file = join(dir, target);
    try {
      accessSync(file, constants.R_OK);
      return file;
    } catch {
      // not in this directory
    }
  }
  throw new Error(`proto: import ${target} not found in ${PROTO_INCLUDE_DIRS.join(', ')}`);
}

/** proto-loader options shared by server and clients: camelCase fields, int64 as JS numbers. */
export const LOADER_OPTIONS: protoLoader.Options = {
  keepCase: false,
  longs: Number,
  enums: String,
  defaults: true,
  oneofs: false,
  includeDirs: PROTO_INCLUDE_DIRS,
};

export interface AccessRule {
  permission?: string;
  public?: boolean;
  userToken?: boolean;
  realmCheckedByHandler?: boolean;
  anyApiKey?: boolean;
}

export interface MethodInfo {
  service: string; // gatehouse.v1.AdminService
  name: string; // CreateRealm
  path: string; // /gatehouse.v1.AdminService/CreateRealm
  definition: grpc.MethodDefinition<object, object>;
  requestType: protobuf.Type;
  responseType: protobuf.Type;
  /** The rule of google.api.http and its additional bindings: one HTTP route each (none: gRPC only). */
  http: HttpRule[];
  access: AccessRule;
  /** The codes of (errors): what it answers besides every call's own (options.proto). */
  errors: ErrorCode[];
  /** (ignore_unknown_query_parameters): an unknown query parameter is ignored, not refused. */
  ignoreUnknownQuery: boolean;
}

export interface LoadedProtos {
  /** Every service of the API by full name (gatehouse.v1.AdminService), as grpc-js takes it. */
  packageDefinition: Record<string, grpc.ServiceDefinition>;
  root: protobuf.Root;
  methods: MethodInfo[];
  services: string[];
}

/** All .proto files of the API (gatehouse/v1), relative to proto/. */
export function apiProtoFiles(): string[] {
  const dir = join(PROTO_DIR, 'gatehouse', 'v1');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.proto'))
    .sort()
    .map((f) => relative(PROTO_DIR, join(dir, f)));
}

let cached: LoadedProtos | null = null;

export function loadProtos(): LoadedProtos {
  if (cached) return cached;
  // From the snapshot of the parse when no file it read has changed (proto-snapshot.ts).
  const { api: root, loader: loaderRoot } = rootsFromSnapshot(PROTO_SNAPSHOT_FILE, resolveImport) ?? parseProtos();

  const packageDefinition: Record<string, grpc.ServiceDefinition> = {};
  const methods: MethodInfo[] = [];
  const services: string[] = [];
  for (const [fullName, service] of servicesOf(loaderRoot)) {
    if (!fullName.startsWith('gatehouse.') || service.methodsArray.length === 0) continue;
    services.push(fullName);
    const definition = serviceDefinition(fullName, service);
    packageDefinition[fullName] = definition;
    const svc = root.lookupService(fullName);
    for (const method of service.methodsArray) {
      const name = method.name;
      const rpc = svc.methods[name];
      if (!rpc) throw new Error(`proto: ${fullName}.${name} not found in reflection root`);
      const options = methodOptions(rpc.parsedOptions);
      methods.push({
        service: fullName,
        name,
        path: `/${fullName}/${name}`,
        definition: definition[name]!,
        requestType: root.lookupType(rpc.resolvedRequestType!.fullName),
        responseType: root.lookupType(rpc.resolvedResponseType!.fullName),
        http: readHttpRules(`${fullName}.${name}`, options['(google.api.http)']),
        access: readAccessRule(options['(access)'] ?? options['(gatehouse.v1.access)']),
        errors: readErrorCodes(`${fullName}.${name}`, optionValues(rpc, 'errors')),
        ignoreUnknownQuery: optionValues(rpc, 'ignore_unknown_query_parameters').includes(true),
      });
    }
  }
  cached = { packageDefinition, root, methods, services };
  return cached;
}

/** proto/ parsed: `api` with the names and comments of the text, for the HTTP adapter's JSON
 *  mapping and the OpenAPI document; `loader`, the same with camelCase field names, for grpc-js's
 *  service definitions. */
export function parseProtos(): { api: protobuf.Root; loader: protobuf.Root } {
  const api = new protobuf.Root();
  api.resolvePath = (_origin, target) => resolveImport(target);
  // alternateCommentMode keeps `//` comments too: they become the OpenAPI descriptions.
  withoutLoaderCommons(() =>
    api.loadSync(
      apiProtoFiles().map((f) => join(PROTO_DIR, f)),
      { keepCase: true, alternateCommentMode: true },
    ),
  );
  api.resolveAll();
  // grpc-js's definitions come from the same parse with camelCase field names, as proto-loader's
  // loadSync would make them (LOADER_OPTIONS), without its descriptor of every message: nothing
  // here reads them (reflection answers from protoc's descriptor set), and making them cost more
  // than the parse at each start of a server or a CLI call.
  return { api, loader: camelCased(api) };
}

/** The google/protobuf/ files @grpc/proto-loader adds to those protobufjs bundles once it is loaded
 *  (its addCommonProtos): hidden from a parse, which then reads them from GOOGLE_PROTO_DIR whether or
 *  not proto-loader was loaded before it in the process, as the snapshot's parse did. */
const LOADER_COMMONS = ['api', 'descriptor', 'source_context', 'type'].map((n) => `google/protobuf/${n}.proto`);

function withoutLoaderCommons<T>(parse: () => T): T {
  const common = protobuf.common as unknown as Record<string, unknown>;
  const hidden = LOADER_COMMONS.filter((f) => f in common).map((f) => [f, common[f]] as const);
  for (const [f] of hidden) delete common[f];
  try {
    return parse();
  } finally {
    for (const [f, json] of hidden) common[f] = json;
  }
}

/** Every service under `ns`, by full name without the leading dot, in declaration order. */
function servicesOf(ns: protobuf.NamespaceBase): Array<[string, protobuf.Service]> {
  return ns.nestedArray.flatMap((o): Array<[string, protobuf.Service]> => {
    if (o instanceof protobuf.Service) return [[o.fullName.slice(1), o]];
    return o instanceof protobuf.Namespace ? servicesOf(o) : [];
  });
}

/** `root` again with every field and oneof named as protobufjs's parser names them without
 *  `keepCase` (util.camelCase: `page_size` → `pageSize`), rebuilt from its JSON: a few times cheaper
 *  than parsing the text a second time. Only what was parsed from text is renamed: the parser takes
 *  the google/protobuf types it bundles (filename null) as they are either way. The JSON keeps each
 *  object's edition, so encodings (packed repeated fields, presence) are the parse's;
 *  test/api/proto-load.test.ts holds the two equal. */
export function camelCased(root: protobuf.Root): protobuf.Root {
  const camel = protobuf.util.camelCase;
  const parsed = (o: protobuf.ReflectionObject | undefined) => typeof o?.filename === 'string';
  type Json = { fields?: Record<string, unknown>; oneofs?: Record<string, { oneof: string[] }>; nested?: Record<string, Json> };
  const rename = (json: Json, ns: protobuf.ReflectionObject): void => {
    if (ns instanceof protobuf.Type && parsed(ns)) {
      if (json.fields) json.fields = Object.fromEntries(Object.entries(json.fields).map(([name, f]) => [camel(name), f]));
      if (json.oneofs) json.oneofs = Object.fromEntries(Object.entries(json.oneofs).map(([name, o]) => [camel(name), { ...o, oneof: o.oneof.map(camel) }]));
    }
    if (!json.nested) return;
    const nested = (ns as protobuf.NamespaceBase).nested ?? {};
    for (const [name, o] of Object.entries(json.nested)) rename(o, nested[name]!);
    // An extension declared in a namespace is a field among its nested objects, renamed as well.
    json.nested = Object.fromEntries(
      Object.entries(json.nested).map(([name, o]) => [nested[name] instanceof protobuf.Field && parsed(nested[name]) ? camel(name) : name, o]),
    );
  };
  const json = root.toJSON() as Json;
  rename(json, root);
  const copy = protobuf.Root.fromJSON(json as protobuf.INamespace);
  copy.resolveAll();
  return copy;
}

/** A service as proto-loader defines it for grpc-js: each method's path and its (de)serialisers,
 *  objects shaped by LOADER_OPTIONS (int64 as numbers, enums as names, defaults filled in). */
function serviceDefinition(fullName: string, service: protobuf.Service): Record<string, grpc.MethodDefinition<object, object>> {
  const definition: Record<string, grpc.MethodDefinition<object, object>> = {};
  for (const method of service.methodsArray) {
    const request = method.resolvedRequestType!;
    const response = method.resolvedResponseType!;
    definition[method.name] = {
      path: `/${fullName}/${method.name}`,
      requestStream: Boolean(method.requestStream),
      responseStream: Boolean(method.responseStream),
      requestSerialize: serializer(request),
      requestDeserialize: deserializer(request),
      responseSerialize: serializer(response),
      responseDeserialize: deserializer(response),
    };
  }
  return definition;
}

function serializer(type: protobuf.Type): (value: object) => Buffer {
  return (value) => {
    if (Array.isArray(value)) throw new Error(`Failed to serialize message: expected object with ${type.name} structure, got array instead`);
    // A Buffer: protobufjs writes into one under Node.
    return type.encode(type.fromObject(value)).finish() as Buffer;
  };
}

function deserializer(type: protobuf.Type): (bytes: Buffer) => object {
  return (bytes) => type.toObject(type.decode(bytes), LOADER_OPTIONS);
}

/** A method's options as proto-loader merges them: one object, by option name. */
function methodOptions(parsed: Array<Record<string, unknown>> | undefined): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  for (const entry of parsed ?? []) Object.assign(options, entry);
  return options;
}

function readErrorCodes(where: string, raw: unknown[]): ErrorCode[] {
  const codes = raw.flatMap((v) => {
    const list = (v as { codes?: unknown }).codes ?? [];
    return (Array.isArray(list) ? list : [list]).map(String);
  });
  for (const code of codes) if (!isErrorCode(code)) throw new Error(`proto: ${where}: (errors) names an unknown code ${code}`);
  return codes as ErrorCode[];
}

function readAccessRule(raw: unknown): AccessRule {
  const r = (raw ?? {}) as Record<string, unknown>;
  return {
    permission: typeof r.permission === 'string' && r.permission ? r.permission : undefined,
    public: r.public === true,
    userToken: r.user_token === true || r.userToken === true,
    realmCheckedByHandler: r.realm_checked_by_handler === true,
    anyApiKey: r.any_api_key === true,
  };
}
