// gRPC server reflection (grpc.reflection.v1 and v1alpha, as grpcurl and grpc_cli speak them),
// answered from protoc's descriptor set (rpc/descriptor-set.ts): each file's bytes exactly as protoc
// wrote them, with its dependencies. A file rebuilt from proto-loader's package definition was
// merged per package and lost its imports, options and reserved ranges, which strict clients
// (Python's DescriptorPool) refuse.
// https://github.com/grpc/grpc/blob/master/doc/server-reflection.md
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import protobuf from 'protobufjs';
import descriptor from 'protobufjs/ext/descriptor/index.js';

interface DescribedFile {
  name: string;
  bytes: Uint8Array;
  dependencies: string[];
}

interface MessageDescriptor {
  name: string;
  nestedType?: MessageDescriptor[];
  enumType?: Array<{ name: string }>;
  extension?: FieldDescriptor[];
}
interface FieldDescriptor {
  name: string;
  number: number;
  extendee?: string;
}
interface FileDescriptor {
  name: string;
  package?: string;
  dependency?: string[];
  messageType?: MessageDescriptor[];
  enumType?: Array<{ name: string }>;
  service?: Array<{ name: string; method?: Array<{ name: string }> }>;
  extension?: FieldDescriptor[];
}

/** What reflection answers, indexed once at start. */
export class DescriptorIndex {
  private readonly files = new Map<string, DescribedFile>();
  private readonly symbols = new Map<string, DescribedFile>();
  /** extendee (no leading dot) → field number → the file declaring the extension. */
  private readonly extensions = new Map<string, Map<number, DescribedFile>>();
  readonly services: string[] = [];

  constructor(set: Uint8Array) {
    const FileDescriptorProto = (descriptor as unknown as { FileDescriptorProto: protobuf.Type }).FileDescriptorProto;
    for (const bytes of rawFiles(set)) {
      const proto = FileDescriptorProto.decode(bytes) as unknown as FileDescriptor;
      const file: DescribedFile = { name: proto.name, bytes, dependencies: proto.dependency ?? [] };
      this.files.set(file.name, file);
      const prefix = proto.package ? `${proto.package}.` : '';
      for (const m of proto.messageType ?? []) this.indexMessage(file, prefix, m);
      for (const e of proto.enumType ?? []) this.symbols.set(prefix + e.name, file);
      for (const x of proto.extension ?? []) this.indexExtension(file, prefix, x);
      for (const s of proto.service ?? []) {
        this.symbols.set(prefix + s.name, file);
        this.services.push(prefix + s.name);
        for (const m of s.method ?? []) this.symbols.set(`${prefix}${s.name}.${m.name}`, file);
      }
    }
    for (const file of this.files.values()) {
      for (const dep of file.dependencies)
        if (!this.files.has(dep)) throw new Error(`reflection: ${file.name} imports ${dep}, missing from the descriptor set`);
    }
  }

  private indexMessage(file: DescribedFile, prefix: string, m: MessageDescriptor): void {
    const name = prefix + m.name;
    this.symbols.set(name, file);
    for (const nested of m.nestedType ?? []) this.indexMessage(file, `${name}.`, nested);
    for (const e of m.enumType ?? []) this.symbols.set(`${name}.${e.name}`, file);
    for (const x of m.extension ?? []) this.indexExtension(file, `${name}.`, x);
  }

  private indexExtension(file: DescribedFile, prefix: string, x: FieldDescriptor): void {
    this.symbols.set(prefix + x.name, file);
    const extendee = (x.extendee ?? '').replace(/^\./, '');
    let byNumber = this.extensions.get(extendee);
    if (!byNumber) this.extensions.set(extendee, (byNumber = new Map()));
    byNumber.set(x.number, file);
  }

  /** The file and every file it imports, directly or not, the file first. */
  private withDependencies(file: DescribedFile): Uint8Array[] {
    const out: DescribedFile[] = [];
    const seen = new Set<string>();
    const visit = (f: DescribedFile) => {
      if (seen.has(f.name)) return;
      seen.add(f.name);
      out.push(f);
      for (const dep of f.dependencies) visit(this.files.get(dep)!);
    };
    visit(file);
    return out.map((f) => f.bytes);
  }

  fileByName(name: string): Uint8Array[] | null {
    const file = this.files.get(name);
    return file ? this.withDependencies(file) : null;
  }

  fileContainingSymbol(symbol: string): Uint8Array[] | null {
    const file = this.symbols.get(symbol.replace(/^\./, ''));
    return file ? this.withDependencies(file) : null;
  }

  fileContainingExtension(extendee: string, number: number): Uint8Array[] | null {
    const file = this.extensions.get(extendee.replace(/^\./, ''))?.get(number);
    return file ? this.withDependencies(file) : null;
  }

  extensionNumbers(extendee: string): number[] | null {
    const byNumber = this.extensions.get(extendee.replace(/^\./, ''));
    return byNumber ? [...byNumber.keys()].sort((a, b) => a - b) : null;
  }
}

/** The FileDescriptorProto bytes of a FileDescriptorSet (`repeated FileDescriptorProto file = 1`),
 *  sliced as they are rather than decoded and encoded again (which would drop custom options). */
function rawFiles(set: Uint8Array): Uint8Array[] {
  const reader = protobuf.Reader.create(set);
  const out: Uint8Array[] = [];
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    if (tag >>> 3 === 1 && (tag & 7) === 2) out.push(reader.bytes());
    else reader.skipType(tag & 7);
  }
  return out;
}

type ReflectionRequest = Record<string, unknown> & { host?: string; message_request?: string };

/** The answer to one request of the stream. */
export function reflectionAnswer(index: DescriptorIndex, req: ReflectionRequest): Record<string, unknown> {
  const base = { valid_host: req.host ?? '', original_request: req };
  const files = (found: Uint8Array[] | null, what: string) =>
    found
      ? { ...base, file_descriptor_response: { file_descriptor_proto: found.map((b) => Buffer.from(b)) } }
      : { ...base, error_response: { error_code: grpc.status.NOT_FOUND, error_message: `${what} not found` } };
  switch (req.message_request) {
    case 'file_by_filename':
      return files(index.fileByName(String(req.file_by_filename)), `File ${String(req.file_by_filename)}`);
    case 'file_containing_symbol':
      return files(index.fileContainingSymbol(String(req.file_containing_symbol)), `Symbol ${String(req.file_containing_symbol)}`);
    case 'file_containing_extension': {
      const ext = req.file_containing_extension as { containing_type?: string; extension_number?: number };
      const what = `Extension ${ext.extension_number} of ${ext.containing_type}`;
      return files(index.fileContainingExtension(ext.containing_type ?? '', Number(ext.extension_number)), what);
    }
    case 'all_extension_numbers_of_type': {
      const type = String(req.all_extension_numbers_of_type);
      const numbers = index.extensionNumbers(type);
      if (!numbers) return { ...base, error_response: { error_code: grpc.status.NOT_FOUND, error_message: `Type ${type} not found` } };
      return { ...base, all_extension_numbers_response: { base_type_name: type, extension_number: numbers } };
    }
    case 'list_services':
      return { ...base, list_services_response: { service: index.services.map((name) => ({ name })) } };
    default:
      return {
        ...base,
        error_response: { error_code: grpc.status.UNIMPLEMENTED, error_message: `Unsupported reflection request ${String(req.message_request)}` },
      };
  }
}

const REFLECTION_PROTO_DIR = join(dirname(createRequire(import.meta.url).resolve('@grpc/reflection/package.json')), 'build', 'proto');

/** Adds both versions of the reflection service, answering from the index `indexOf()` makes at the
 *  first reflection request: most servers are never asked, and decoding every file at start cost
 *  ~25 ms. */
export function addReflection(server: grpc.Server, indexOf: () => DescriptorIndex): void {
  let index: DescriptorIndex | null = null;
  for (const version of ['v1', 'v1alpha']) {
    const definition = protoLoader.loadSync(`grpc/reflection/${version}/reflection.proto`, {
      includeDirs: [REFLECTION_PROTO_DIR],
      keepCase: true,
      longs: Number,
      enums: String,
      defaults: false,
      oneofs: true,
    });
    const service = definition[`grpc.reflection.${version}.ServerReflection`] as grpc.ServiceDefinition;
    server.addService(service, {
      ServerReflectionInfo: (call: grpc.ServerDuplexStream<ReflectionRequest, Record<string, unknown>>) => {
        call.on('data', (req: ReflectionRequest) => call.write(reflectionAnswer((index ??= indexOf()), req)));
        call.on('end', () => call.end());
      },
    });
  }
}
