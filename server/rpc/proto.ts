// Loads proto/ once: proto-loader definitions for grpc-js and reflection, and a protobufjs Root
// (original field names and comments kept) for the HTTP adapter's JSON mapping and the OpenAPI
// document. A bad annotation stops the boot.
import { accessSync, constants, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as protoLoader from '@grpc/proto-loader';
import protobuf from 'protobufjs';
import { type ErrorCode, isErrorCode } from '../errors.ts';
import { optionValues } from './field-rules.ts';
import { type HttpRule, readHttpRules } from './http-rule.ts';

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
  definition: protoLoader.MethodDefinition<object, object>;
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
  packageDefinition: protoLoader.PackageDefinition;
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
  const files = apiProtoFiles();
  const packageDefinition = protoLoader.loadSync(files, LOADER_OPTIONS);

  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => resolveImport(target);
  // alternateCommentMode keeps `//` comments too: they become the OpenAPI descriptions.
  root.loadSync(
    files.map((f) => join(PROTO_DIR, f)),
    { keepCase: true, alternateCommentMode: true },
  );
  root.resolveAll();

  const methods: MethodInfo[] = [];
  const services: string[] = [];
  for (const [fullName, def] of Object.entries(packageDefinition)) {
    if (!fullName.startsWith('gatehouse.') || (def as { format?: string }).format) continue;
    const first = Object.values(def)[0] as { path?: unknown } | undefined;
    if (!first || typeof first.path !== 'string') continue;
    services.push(fullName);
    const svc = root.lookupService(fullName);
    for (const [name, m] of Object.entries(def as Record<string, protoLoader.MethodDefinition<object, object>>)) {
      const rpc = svc.methods[name];
      if (!rpc) throw new Error(`proto: ${fullName}.${name} not found in reflection root`);
      const options = (m.options ?? {}) as Record<string, unknown>;
      methods.push({
        service: fullName,
        name,
        path: m.path,
        definition: m,
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
