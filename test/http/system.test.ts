// System endpoints, identity resolution, key administration, error shapes and the OpenAPI document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validate } from '@scalar/openapi-parser';
import { startTestApp, type TestApp } from '../helpers/app.js';
import type { NlpEntityExtractor } from '../../src/providers/entities/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

describe('open system endpoints', () => {
  it('version reports the package and interface versions without a key', async () => {
    const r = await t.api('GET', '/api/v1/version', { key: null });
    expect(r.status).toBe(200);
    expect(r.body.api_version).toBe('2.23.0');
    expect(r.body.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('whoami resolves standalone, key and anonymous callers', async () => {
    const anon = await t.api('GET', '/api/v1/whoami', { key: null });
    expect(anon.body).toMatchObject({ tenant_id: 'default', source: 'standalone', authenticated: false });
    const agentKey = await t.key('acme', { agent: 'planner' });
    const keyed = await t.api('GET', '/api/v1/whoami', { key: agentKey });
    expect(keyed.body).toMatchObject({ tenant_id: 'acme', agent_id: 'planner', source: 'api_key', trust_level: 1 });
  });

  it('a wrong key is refused even on open endpoints', async () => {
    const r = await t.api('GET', '/api/v1/whoami', { key: 'loci_not-a-real-key' });
    expect(r.status).toBe(401);
    expect(r.headers.get('content-type')).toContain('application/problem+json');
  });

  it('health reports ok with its dependencies', async () => {
    const r = await t.api('GET', '/api/v1/health', { key: null });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('ok');
    expect(r.body.dependencies.storage.status).toBe('ok');
    expect(r.body.dependencies.event_bus.status).toBe('ok');
  });

  it('status names providers and never leaks secrets', async () => {
    const r = await t.api('GET', '/api/v1/status', { key: null });
    expect(r.status).toBe(200);
    expect(r.body.providers.embedder.dim).toBe(512);
    expect(r.body.platform_init_errors).toEqual([]);
    expect(r.text).not.toContain(t.adminKey);
    expect(r.text).not.toContain(t.config.dataDir);
  });

  it('the entity extractor has loaded its models before the first write', async () => {
    // Loaded on the first write, it kept that write waiting about a second.
    const stats = (t.services.entities as NlpEntityExtractor).stats();
    expect(stats.ready).toBe(stats.size);
    expect(stats.size).toBeGreaterThan(0);
  });

  it('stats are integer counters', async () => {
    const r = await t.api('GET', '/api/v1/stats', { key: null });
    expect(r.status).toBe(200);
    for (const v of Object.values(r.body)) expect(Number.isInteger(v)).toBe(true);
  });

  it('tool descriptions, plain and enriched', async () => {
    const plain = await t.api('GET', '/api/v1/tool-descriptions', { key: null });
    expect(typeof plain.body.loci_doc).toBe('string');
    const rich = await t.api('GET', '/api/v1/tool-descriptions?enriched=true', { key: null });
    expect(rich.body.loci_stats).toMatchObject({ description: expect.any(String), stm_only: expect.any(Boolean) });
    const bad = await t.api('GET', '/api/v1/tool-descriptions?enriched=maybe', { key: null });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['query', 'enriched']);
  });
});

describe('storage down', () => {
  it('health answers 503 when storage is unavailable', async () => {
    const own = await startTestApp();
    await own.services.db.close();
    const r = await own.api('GET', '/api/v1/health', { key: null });
    expect(r.status).toBe(503);
    expect(r.body.dependencies.storage.status).toBe('unavailable');
    await own.close();
  });
});

describe('keys', () => {
  it('admin mints, lists and revokes; the secret is shown once', async () => {
    const created = await t.api('POST', '/api/v1/admin/keys', { body: { tenant_id: 'kt', agent_id: 'a1', trust_level: 2, name: 'ci' } });
    expect(created.status).toBe(201);
    expect(created.body.key).toMatch(/^loci_/);
    const who = await t.api('GET', '/api/v1/whoami', { key: created.body.key });
    expect(who.body).toMatchObject({ tenant_id: 'kt', agent_id: 'a1', trust_level: 2 });

    const list = await t.api('GET', '/api/v1/admin/keys?tenant_id=kt');
    expect(list.status).toBe(200);
    expect(list.body.items.map((k: any) => k.id)).toContain(created.body.id);
    expect(list.text).not.toContain(created.body.key);

    expect((await t.api('DELETE', `/api/v1/admin/keys/${created.body.id}`)).status).toBe(204);
    expect((await t.api('GET', '/api/v1/whoami', { key: created.body.key })).status).toBe(401);
    expect((await t.api('DELETE', `/api/v1/admin/keys/${created.body.id}`)).status).toBe(404);
  });

  it('non-admin keys cannot administer keys', async () => {
    const k = await t.key('acme', { trust: 2 });
    const r = await t.api('POST', '/api/v1/admin/keys', { key: k, body: { tenant_id: 'acme', trust_level: 3 } });
    expect(r.status).toBe(403);
    expect((await t.api('GET', '/api/v1/admin/keys', { key: k })).status).toBe(403);
  });

  it('anonymous callers get 401 on keyed endpoints', async () => {
    const r = await t.api('GET', '/api/v1/admin/keys', { key: null });
    expect(r.status).toBe(401);
    expect(r.body.status).toBe(401);
  });

  it('rejects bad key requests with 422 detail and writes nothing', async () => {
    const before = (await t.api('GET', '/api/v1/admin/keys')).body.items.length;
    for (const body of [{ tenant_id: 'x', trust_level: 4 }, { tenant_id: 'x', trust_level: '1' }, { trust_level: 1 }, { tenant_id: '' }]) {
      const r = await t.api('POST', '/api/v1/admin/keys', { body });
      expect(r.status).toBe(422);
      expect(r.body.detail[0]).toMatchObject({ loc: expect.any(Array), msg: expect.any(String), type: expect.any(String) });
      expect(r.body.detail[0]).toHaveProperty('input');
      expect(r.body.detail[0]).toHaveProperty('ctx');
    }
    const bad = await t.api('DELETE', '/api/v1/admin/keys/not-a-uuid');
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]).toMatchObject({ loc: ['path', 'id'], type: 'uuid_parsing' });
    expect((await t.api('GET', '/api/v1/admin/keys')).body.items.length).toBe(before);
  });
});

describe('error shapes', () => {
  it('malformed JSON answers 422 json_invalid', async () => {
    const r = await t.api('POST', '/api/v1/admin/keys', { raw: '{"tenant_id": ' });
    expect(r.status).toBe(422);
    expect(r.body.detail[0].type).toBe('json_invalid');
  });

  it('unknown routes answer problem+json 404', async () => {
    const r = await t.api('GET', '/api/v1/nope');
    expect(r.status).toBe(404);
    expect(r.headers.get('content-type')).toContain('application/problem+json');
    expect(r.body).toMatchObject({ status: 404, title: 'Not Found' });
  });

  it('wrong content type answers 415 problem', async () => {
    const r = await t.api('POST', '/api/v1/admin/keys', { raw: 'tenant_id=x', headers: { 'content-type': 'text/csv' } });
    expect(r.status).toBe(415);
    expect(r.headers.get('content-type')).toContain('application/problem+json');
  });
});

describe('OpenAPI', () => {
  it('serves a valid OpenAPI 3.1.0 document with info.version 2.23.0', async () => {
    const r = await t.api('GET', '/api/openapi.json', { key: null });
    expect(r.status).toBe(200);
    expect(r.body.openapi).toBe('3.1.0');
    expect(r.body.info.version).toBe('2.23.0');
    const { valid, errors } = await validate(r.body);
    expect(errors).toEqual([]);
    expect(valid).toBe(true);
    for (const p of ['/api/v1/version', '/api/v1/health', '/api/v1/admin/keys', '/api/v1/admin/keys/{id}']) {
      expect(r.body.paths).toHaveProperty([p]);
    }
    // Every operation documents its responses.
    for (const [path, ops] of Object.entries<any>(r.body.paths)) {
      for (const [method, op] of Object.entries<any>(ops)) {
        expect(Object.keys(op.responses ?? {}), `${method} ${path}`).not.toHaveLength(0);
      }
    }
  });

  it('renders the API reference page', async () => {
    const r = await t.api('GET', '/docs/api-reference', { key: null });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('text/html');
  });
});
