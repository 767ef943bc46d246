// A client that knows nothing of gatehouse's protos can discover and call it through the
// standard reflection service (grpc.reflection.v1, as grpcurl does), and the health service answers.

import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import protobuf from 'protobufjs';
import descriptor from 'protobufjs/ext/descriptor/index.js';
import { type InProcessServer, startInProcess } from '../helpers/server.ts';

describe('standard gRPC services', () => {
  const require = createRequire(import.meta.url);
  const reflectionDir = join(dirname(require.resolve('@grpc/reflection/package.json')), 'build', 'proto');
  const reflectionPkg = grpc.loadPackageDefinition(
    protoLoader.loadSync('grpc/reflection/v1/reflection.proto', { includeDirs: [reflectionDir], keepCase: true, longs: Number, defaults: true }),
  ) as any;

  let srv: InProcessServer;
  before(async () => {
    srv = await startInProcess();
  });
  after(() => srv.stop());

  /** One request on the bidirectional reflection stream. */
  function reflect(addr: string, request: object): Promise<any> {
    const client = new reflectionPkg.grpc.reflection.v1.ServerReflection(addr, grpc.credentials.createInsecure());
    return new Promise((resolve, reject) => {
      const call = client.ServerReflectionInfo();
      call.on('data', (msg: any) => {
        resolve(msg);
        call.end();
        client.close();
      });
      call.on('error', reject);
      call.write(request);
    });
  }

  describe('standard gRPC services', () => {
    it('lists every gatehouse service through reflection', async () => {
      const res = await reflect(srv.grpc, { list_services: '' });
      const names = res.list_services_response.service.map((s: { name: string }) => s.name);
      assert.ok(names.includes('gatehouse.v1.AdminService'), names.join(','));
      assert.ok(names.includes('grpc.health.v1.Health'));
    });

    it('lets a client built only from reflected descriptors call an RPC', async () => {
      const res = await reflect(srv.grpc, { file_containing_symbol: 'gatehouse.v1.AdminService' });
      const byName = new Map<string, unknown>();
      for (const buf of res.file_descriptor_response.file_descriptor_proto as Buffer[]) {
        const file = (descriptor as any).FileDescriptorProto.decode(buf);
        byName.set(file.name, file);
      }
      const files = [...byName.values()];
      const root = (protobuf.Root as any).fromDescriptor({ file: files }) as protobuf.Root;
      const svc = root.lookupService('gatehouse.v1.AdminService');
      const method = svc.methods['ListRealms']!;
      const reqType = root.lookupType(method.requestType);
      const resType = root.lookupType(method.responseType);
      const client = new grpc.Client(srv.grpc, grpc.credentials.createInsecure());
      const md = new grpc.Metadata();
      md.set('authorization', `Bearer ${srv.adminKey}`);
      const out = await new Promise<any>((resolve, reject) =>
        client.makeUnaryRequest(
          '/gatehouse.v1.AdminService/ListRealms',
          (v: object) => Buffer.from(reqType.encode(reqType.fromObject(v)).finish()),
          (b: Buffer) => resType.toObject(resType.decode(b), { defaults: true }),
          {},
          md,
          (err, value) => (err ? reject(err) : resolve(value)),
        ),
      );
      client.close();
      assert.deepEqual(out.realms, []);
    });

    it('reports SERVING on the standard health service', async () => {
      const healthDir = join(dirname(require.resolve('grpc-health-check/package.json')), 'proto', 'health', 'v1');
      const pkg = grpc.loadPackageDefinition(protoLoader.loadSync(join(healthDir, 'health.proto'), { keepCase: true, enums: String })) as any;
      const client = new pkg.grpc.health.v1.Health(srv.grpc, grpc.credentials.createInsecure());
      const res = await new Promise<any>((resolve, reject) => client.Check({ service: '' }, (e: Error | null, v: any) => (e ? reject(e) : resolve(v))));
      client.close();
      assert.equal(res.status, 'SERVING');
    });
  });
});
