// `npm run proto:types`: rewrites server/rpc/generated/ from proto/.
import { relative } from 'node:path';
import { PROTO_TYPES_DIR, writeProtoTypes } from './proto-types.ts';

writeProtoTypes(PROTO_TYPES_DIR);
process.stdout.write(`wrote ${relative(process.cwd(), PROTO_TYPES_DIR)}/\n`);
