// Renders the TypeScript types of a Loci OpenAPI document. One function, used by the generator
// and by the test that compares the checked-in types with the live document.
import openapiTS, { astToString } from 'openapi-typescript';

export const SCHEMA_FILE = new URL('../src/schema.ts', import.meta.url);

const HEADER = '// Generated from the Loci OpenAPI document (/api/openapi.json) by `npm run sdk:generate`. Do not edit.\n\n';

export async function renderSchemaTypes(doc: unknown): Promise<string> {
  // A deep copy: the renderer annotates the object it is given.
  const ast = await openapiTS(JSON.parse(JSON.stringify(doc)));
  return HEADER + astToString(ast);
}
