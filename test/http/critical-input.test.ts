// The two critical findings of the security review, through the public API: a filter key that
// reached Object.prototype (opening protected collections for every tenant), and deeply nested
// JSON that wedged the embedded database. Both must be refused and change nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';

const T = 'default';

/** `{"a":{"a":…"leaf"…}}` as text: deeper than JSON.stringify itself can go. */
const nestedText = (depth: number) => '{"a":'.repeat(depth) + '"leaf"' + '}'.repeat(depth);
const nested = (depth: number): unknown => JSON.parse(nestedText(depth));

describe('hostile keys and nesting', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  it('a filter key naming __proto__ is an ordinary field: nothing reaches Object.prototype', async () => {
    const reader = await t.key(T, { trust: 0 });
    for (const filter of [{ '__proto__.system': true }, { 'a.__proto__.system': true }, { 'constructor.prototype.system': true }]) {
      const res = await t.api('POST', '/api/v1/documents/query', { key: reader, body: { tenant_id: T, collection: 'notes', filter } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ items: [], count: 0 });
    }
    expect(({} as Record<string, unknown>).system).toBeUndefined();
    // The protected collections stay closed to every regular key, of this tenant and of another.
    const writer = await t.key(T);
    const other = await t.key('other-tenant');
    for (const [key, tenant] of [[writer, T], [other, 'other-tenant']] as const) {
      for (const collection of ['_system', 'ingest-sources']) {
        const res = await t.api('POST', '/api/v1/documents', { key, body: { tenant_id: tenant, collection, doc_id: 'x', data: { a: 1 } } });
        expect(res.status, `${collection} for ${tenant}`).toBe(403);
      }
      // `skills` follows the skill rules (docs/skills.md): a document that is not a skill is refused.
      const res = await t.api('POST', '/api/v1/documents', { key, body: { tenant_id: tenant, collection: 'skills', doc_id: 'x', data: { a: 1 } } });
      expect(res.status, `skills for ${tenant}`).toBe(422);
    }
  });

  it('a JSON body with a __proto__ or constructor.prototype key is refused as invalid JSON', async () => {
    const raw = `{"tenant_id":"${T}","agent_id":"a","content":"proto","metadata":{"__proto__":{"x":1}}}`;
    const res = await t.api('POST', '/api/v1/memories', { raw });
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ loc: ['body'], type: 'json_invalid' });
    const res2 = await t.api('POST', '/api/v1/memories', {
      raw: `{"tenant_id":"${T}","agent_id":"a","content":"proto","metadata":{"constructor":{"prototype":{"x":1}}}}`,
    });
    expect(res2.status).toBe(422);
  });

  it('deep JSON is refused before it reaches the database, which keeps answering', async () => {
    const started = Date.now();
    const before = (await t.api('GET', `/api/v1/memories/count?tenant_id=${T}`)).body.count;
    const attempts: [string, string][] = [
      ['/api/v1/memories', `{"tenant_id":"${T}","agent_id":"a","content":"deep metadata","metadata":${nestedText(2000)}}`],
      // The body's own object is one level: metadata nested 64 deep makes 65.
      ['/api/v1/memories', `{"tenant_id":"${T}","agent_id":"a","content":"deep metadata","metadata":${nestedText(64)}}`],
      ['/api/v1/documents', `{"tenant_id":"${T}","collection":"notes","doc_id":"deep","data":${nestedText(5000)}}`],
      ['/api/v1/documents/query', `{"tenant_id":"${T}","collection":"notes","filter":${nestedText(3000)}}`],
      ['/api/v1/memories/bulk', `{"tenant_id":"${T}","agent_id":"a","items":[{"content":"x","metadata":${nestedText(2000)}}]}`],
      ['/api/v1/search', `{"tenant_id":"${T}","query":"x","filter":${nestedText(100_000)}}`],
      ['/api/v1/ingest/preview', `{"tenant_id":"${T}","content":"x","focus":${'['.repeat(500)}${']'.repeat(500)}}`],
    ];
    for (const [path, raw] of attempts) {
      const res = await t.api('POST', path, { raw, headers: { 'x-bulk-attempt-id': 'deep-1' } });
      expect(res.status, path).toBe(422);
      expect(res.body.detail[0]).toMatchObject({ loc: ['body'], type: 'json_too_deep', ctx: { max_depth: 64 } });
    }
    // Nesting within the cap is stored as given.
    const ok = await t.api('POST', '/api/v1/memories', { body: { tenant_id: T, agent_id: 'a', content: 'nested within the cap', metadata: nested(63) } });
    expect(ok.status).toBe(201);
    expect((await t.api('GET', '/api/v1/health')).status).toBe(200);
    expect((await t.api('GET', `/api/v1/memories/count?tenant_id=${T}`)).body.count).toBe(before + 1);
    expect(Date.now() - started).toBeLessThan(30_000);
  });
});
