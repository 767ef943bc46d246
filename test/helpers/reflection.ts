// A gRPC server reflection caller for tests (grpc.reflection.v1 or v1alpha, as grpcurl speaks them).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import descriptor from 'protobufjs/ext/descriptor/index.js';

/** Where @grpc/reflection keeps grpc/reflection/{v1,v1alpha}/reflection.proto. */
export const REFLECTION_PROTO_DIR = join(dirname(createRequire(import.meta.url).resolve('@grpc/reflection/package.json')), 'build', 'proto');

const packages = new Map<string, any>();

/** One request on the bidirectional reflection stream, and its answer. */
export async function reflect(addr: string, request: object, version: 'v1' | 'v1alpha' = 'v1'): Promise<any> {
  let pkg = packages.get(version);
  if (!pkg) {
    const options = { includeDirs: [REFLECTION_PROTO_DIR], keepCase: true, longs: Number, defaults: true };
    pkg = grpc.loadPackageDefinition(protoLoader.loadSync(`grpc/reflection/${version}/reflection.proto`, options)) as any;
    packages.set(version, pkg);
  }
  const client = new pkg.grpc.reflection[version].ServerReflection(addr, grpc.credentials.createInsecure());
  try {
    return await new Promise<any>((resolve, reject) => {
      const call = client.ServerReflectionInfo();
      call.on('data', (msg: unknown) => {
        resolve(msg);
        call.end();
      });
      call.on('error', reject);
      call.write(request);
    });
  } finally {
    client.close();
  }
}

/** The FileDescriptorProtos of a file_descriptor_response, decoded, in the order served. */
export function reflectedFiles(answer: any): any[] {
  return (answer.file_descriptor_response.file_descriptor_proto as Buffer[]).map((b) => (descriptor as any).FileDescriptorProto.decode(b));
}
