// `npm run openapi`: writes docs/openapi.json from proto/.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { OPENAPI_FILE, openApiFileText } from './file.ts';

mkdirSync(dirname(OPENAPI_FILE), { recursive: true });
writeFileSync(OPENAPI_FILE, openApiFileText());
process.stdout.write(`wrote ${relative(process.cwd(), OPENAPI_FILE)}\n`);
