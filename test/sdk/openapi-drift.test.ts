// The client's checked-in types are those of the live OpenAPI document, and it has a method for every endpoint.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { renderSchemaTypes, SCHEMA_FILE } from '../../packages/client/scripts/openapi-types.js';

let t: TestApp;
let doc: { paths: Record<string, Record<string, unknown>> };
beforeAll(async () => {
  t = await startTestApp();
  doc = (await t.api('GET', '/api/openapi.json')).body;
});
afterAll(() => t?.close());

/** Transports and aliases reached through request() rather than a method of their own. */
const NOT_WRAPPED = new Set(['post /mcp', 'post /admin/lifecycle/fanout/forge-distill']);

describe('@loci/client types', () => {
  it('match the live document (regenerate with `npm run sdk:generate` when this fails)', async () => {
    const live = await renderSchemaTypes(doc);
    expect(readFileSync(SCHEMA_FILE, 'utf8') === live, 'packages/client/src/schema.ts is stale: run `npm run sdk:generate`').toBe(true);
  });

  it('wraps every endpoint in a named method', () => {
    const source = readFileSync(new URL('../../packages/client/src/client.ts', import.meta.url), 'utf8');
    const missing: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const method of Object.keys(ops)) {
        if (NOT_WRAPPED.has(`${method} ${path}`)) continue;
        if (!source.includes(`this.request('${method}', '${path}'`)) missing.push(`${method.toUpperCase()} ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
