// The committed copy of the OpenAPI document (docs/openapi.json), for readers of the repository
// and client generators; `npm run openapi` rewrites it and a test fails when it is stale.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadProtos } from '../rpc/proto.ts';
import { buildOpenApi } from './document.ts';

export const OPENAPI_FILE = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'docs', 'openapi.json');

export function openApiFileText(): string {
  return `${JSON.stringify(buildOpenApi(loadProtos().methods), null, 2)}\n`;
}
