// Writes src/schema.ts from a Loci OpenAPI document:
//   tsx scripts/generate.ts                 boots this checkout's server in-process (temporary data dir)
//   tsx scripts/generate.ts --url <base>    reads <base>/api/openapi.json of a running server
import { writeFileSync } from 'node:fs';
import { renderSchemaTypes, SCHEMA_FILE } from './openapi-types.js';
import { openapiDocument } from './openapi-document.js';

const i = process.argv.indexOf('--url');
const url = i > 0 ? process.argv[i + 1] : undefined;

const doc = url
  ? await fetch(new URL('/api/openapi.json', url)).then((r) => {
    if (!r.ok) throw new Error(`GET /api/openapi.json answered ${r.status}`);
    return r.json();
  })
  : await openapiDocument();
writeFileSync(SCHEMA_FILE, await renderSchemaTypes(doc));
process.stdout.write(`wrote ${SCHEMA_FILE.pathname}\n`);
process.exit(0);
