// `npm run proto:types`: rewrites server/rpc/generated/ from proto/, and the descriptor set server
// reflection serves (server/rpc/descriptor-set.binpb, with protoc).
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { compileDescriptorSet, DESCRIPTOR_SET_FILE } from './descriptor-set.ts';
import { PROTO_TYPES_DIR, writeProtoTypes } from './proto-types.ts';

writeProtoTypes(PROTO_TYPES_DIR);
process.stdout.write(`wrote ${relative(process.cwd(), PROTO_TYPES_DIR)}/\n`);
writeFileSync(DESCRIPTOR_SET_FILE, compileDescriptorSet());
process.stdout.write(`wrote ${relative(process.cwd(), DESCRIPTOR_SET_FILE)}\n`);
