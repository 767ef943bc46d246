// Loads proto/ once: proto-loader definitions for grpc-js and reflection, and a protobufjs Root
// (original field names kept) for the HTTP adapter's JSON mapping. A bad annotation stops the boot.
import { readdirSync } from 'node:fs';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as protoLoader from '@grpc/proto-loader';
import protobuf from 'protobufjs';

export const PROTO_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'proto');

/** proto-loader options shared by server and clients: camelCase fields, int64 as JS numbers. */
export const LOADER_OPTIONS: protoLoader.Options = {
  keepCase: false,
  longs: Number,
  enums: String,
  defaults: true,
  oneofs: false,
  includeDirs: [PROTO_DIR],
};

export interface HttpRule {
  method: 'GET' | 'PUT' | 'POST' | 'DELETE' | 'PATCH';
  pattern: string;
  body: string;
}

export interface AccessRule {
  permission?: string;
  public?: boolean;
  userToken?: boolean;
  realmCheckedByHandler?: boolean;
}

export interface MethodInfo {
  service: string; // gatehouse.v1.AdminService
  name: string; // CreateRealm
  path: string; // /gatehouse.v1.AdminService/CreateRealm
  definition: protoLoader.MethodDefinition<object, object>;
  requestType: protobuf.Type;
  responseType: protobuf.Type;
  http: HttpRule | null;
  access: AccessRule;
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
  root.resolvePath = (_origin, target) => {
    // Google's well-known types ship with protobufjs; everything else lives in proto/.
    if (target.startsWith('google/protobuf/') || isAbsolute(target)) return target;
    return join(PROTO_DIR, target);
  };
  root.loadSync(files.map((f) => join(PROTO_DIR, f)), { keepCase: true });
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
        http: readHttpRule(`${fullName}.${name}`, options['(google.api.http)']),
        access: readAccessRule(options['(access)'] ?? options['(gatehouse.v1.access)']),
      });
    }
  }
  cached = { packageDefinition, root, methods, services };
  return cached;
}

function readHttpRule(where: string, raw: unknown): HttpRule | null {
  if (raw == null) return null;
  const r = raw as Record<string, string>;
  const verbs = (['get', 'put', 'post', 'delete', 'patch'] as const).filter((v) => typeof r[v] === 'string' && r[v] !== '');
  if (verbs.length !== 1) throw new Error(`proto: ${where}: google.api.http needs exactly one of get/put/post/delete/patch`);
  const verb = verbs[0]!;
  return { method: verb.toUpperCase() as HttpRule['method'], pattern: r[verb]!, body: r.body ?? '' };
}

function readAccessRule(raw: unknown): AccessRule {
  const r = (raw ?? {}) as Record<string, unknown>;
  return {
    permission: typeof r.permission === 'string' && r.permission ? r.permission : undefined,
    public: r.public === true,
    userToken: r.user_token === true || r.userToken === true,
    realmCheckedByHandler: r.realm_checked_by_handler === true,
  };
}
