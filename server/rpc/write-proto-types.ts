// `npm run proto:types`: rewrites server/rpc/generated/ from proto/ (the types, and the snapshot of
// the parse the server and the CLI start from), and the descriptor set server reflection serves
// (server/rpc/descriptor-set.binpb, with protoc).
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { compileDescriptorSet, DESCRIPTOR_SET_FILE } from './descriptor-set.ts';
import { PROTO_INCLUDE_DIRS, parseProtos } from './proto.ts';
import { PROTO_SNAPSHOT_FILE, snapshotText } from './proto-snapshot.ts';
import { PROTO_TYPES_DIR, writeProtoTypes } from './proto-types.ts';

writeProtoTypes(PROTO_TYPES_DIR);
process.stdout.write(`wrote ${relative(process.cwd(), PROTO_TYPES_DIR)}/\n`);
const { api, loader } = parseProtos();
writeFileSync(PROTO_SNAPSHOT_FILE, snapshotText(api, loader, PROTO_INCLUDE_DIRS));
process.stdout.write(`wrote ${relative(process.cwd(), PROTO_SNAPSHOT_FILE)}\n`);
writeFileSync(DESCRIPTOR_SET_FILE, compileDescriptorSet());
process.stdout.write(`wrote ${relative(process.cwd(), DESCRIPTOR_SET_FILE)}\n`);
