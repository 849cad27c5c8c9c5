// Caura's TypeScript client (clients/typescript) against Loci: its write, search, recall and
// health requests as it builds them, with X-API-Key or the same key as a Bearer token (REST and
// /mcp), and identities taken from agent- and tenant-bound keys when bodies leave them out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { httpClient } from '../mcp/helpers.js';
import { cauraWire, searchItems } from './caura-shapes.js';

const T = 'caura-client';

describe("Caura's TypeScript client", () => {
  let t: TestApp;
  let tenantKey: string;
  let agentKey: string;
  beforeAll(async () => {
    t = await startTestApp();
    tenantKey = await t.key(T, { trust: 1 });
    agentKey = await t.key(T, { agent: 'writer-1', trust: 1 });
  });
  afterAll(async () => t?.close());

  it('write, search, recall and health as the client sends them', async () => {
    const c = cauraWire(t.url, tenantKey);
    // write(content, {agentId, memoryType, fleetId, metadata, ...extra})
    const w = await c.client('POST', '/api/v1/memories', {
      tenant_id: T, content: 'The quarterly pricing review meets on 10 May.', agent_id: 'sales-bot', memory_type: 'decision',
      fleet_id: 'na-sales', metadata: { source: 'crm' }, weight: 0.8,
    });
    expect(w.status).toBe(201);
    expect(w.body).toMatchObject({ tenant_id: T, agent_id: 'sales-bot', memory_type: 'decision', fleet_id: 'na-sales', weight: 0.8 });
    expect(w.body.metadata.source).toBe('crm');
    // search(query, {topK, fleetIds, filterAgentId}): the answer must be {items: [...]}
    const s = await c.client('POST', '/api/v1/search', { tenant_id: T, query: 'when is the pricing review', top_k: 5, fleet_ids: ['na-sales'], filter_agent_id: 'sales-bot' });
    expect(s.status).toBe(200);
    expect(Array.isArray(s.body.items)).toBe(true);
    expect(s.body.items[0]).toMatchObject({ id: w.body.id, content: w.body.content, memory_type: 'decision', tenant_id: T, agent_id: 'sales-bot' });
    expect(typeof s.body.items[0].similarity).toBe('number');
    // recall(query, {topK}): summary plus `memories` (or `items`)
    const r = await c.client('POST', '/api/v1/recall', { tenant_id: T, query: 'pricing review date', top_k: 5 });
    expect(r.status).toBe(200);
    expect(typeof r.body.summary).toBe('string');
    expect(r.body.memories.map((m: any) => m.id)).toContain(w.body.id);
    expect(r.body.items).toEqual(r.body.memories);
    expect((await c.client('GET', '/api/v1/health')).status).toBe(200);
  });

  it('an error carries a message where the client looks for one (detail)', async () => {
    const bad = await cauraWire(t.url, 'loci_wrong').client('POST', '/api/v1/search', { tenant_id: T, query: 'x' });
    expect(bad.status).toBe(401);
    expect(typeof bad.body.detail).toBe('string');
    const invalid = await cauraWire(t.url, tenantKey).client('POST', '/api/v1/search', { tenant_id: T, query: 'x', top_k: 500 });
    expect(invalid.status).toBe(422);
    expect(invalid.body.detail[0].loc).toEqual(['body', 'top_k']);
  });

  it('extra options the client passes through are honoured or refused by name, never dropped', async () => {
    const c = cauraWire(t.url, tenantKey);
    const ok = await c.client('POST', '/api/v1/memories', {
      tenant_id: T, content: 'Invoices go out on the first working day.', agent_id: 'billing', visibility: 'scope_agent', status: 'confirmed',
      source_uri: 'https://wiki.example/billing', run_id: 'run-7', write_mode: 'fast', tags: ['billing', 'process'],
    });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ visibility: 'scope_agent', status: 'confirmed', source_uri: 'https://wiki.example/billing', run_id: 'run-7' });
    expect(ok.body.metadata.tags).toEqual(expect.arrayContaining(['billing', 'process']));
    for (const extra of [{ reference_datetime: '2026-01-01T00:00:00Z' }, { entity_links: [] }, { persist: false }, { surprise: 1 }]) {
      const r = await c.client('POST', '/api/v1/memories', { tenant_id: T, content: `refused ${Object.keys(extra)[0]}`, agent_id: 'billing', ...extra });
      expect(r.status, Object.keys(extra)[0]).toBe(422);
      expect(r.body.detail).toContainEqual(expect.objectContaining({ loc: ['body', Object.keys(extra)[0]], type: 'extra_forbidden' }));
    }
    const search = await c.client('POST', '/api/v1/search', { tenant_id: T, query: 'invoices', rerank: true });
    expect(search.status).toBe(422);
    expect(search.body.detail[0].loc).toEqual(['body', 'rerank']);
  });

  it('Authorization: Bearer works wherever X-API-Key does, /mcp included', async () => {
    const c = cauraWire(t.url, agentKey, 'bearer');
    const w = await c.client('POST', '/api/v1/memories', { content: 'Bearer-authenticated writes land under the key\'s agent.' });
    expect(w.status).toBe(201);
    expect(w.body).toMatchObject({ tenant_id: T, agent_id: 'writer-1' });
    expect((await c.client('GET', `/api/v1/memories/${w.body.id}?tenant_id=${T}`)).status).toBe(200);
    expect((await c.client('GET', '/api/v1/whoami')).body).toMatchObject({ tenant_id: T, agent_id: 'writer-1', source: 'api_key' });
    expect((await cauraWire(t.url, 'loci_wrong', 'bearer').client('GET', '/api/v1/memories')).status).toBe(401);
    const mcp = await httpClient(t.url, { Authorization: `Bearer ${agentKey}` });
    try {
      const tools = await mcp.listTools();
      expect(tools.tools.length).toBeGreaterThan(0);
      const res = await mcp.callTool({ name: 'loci_recall', arguments: { query: 'bearer-authenticated writes' } }) as { content: { text: string }[] };
      expect(JSON.parse(res.content[0].text).items.map((m: any) => m.id)).toContain(w.body.id);
    } finally {
      await mcp.close();
    }
    await expect(httpClient(t.url, { Authorization: 'Bearer loci_wrong' })).rejects.toThrow(/401/);
  });

  it('keys bound to a tenant or agent fill in what bodies and queries leave out', async () => {
    const byAgent = cauraWire(t.url, agentKey);
    const w = await byAgent.client('POST', '/api/v1/memories', { content: 'The on-call rota changes on Mondays.' });
    expect(w.body).toMatchObject({ tenant_id: T, agent_id: 'writer-1' });
    const byTenant = cauraWire(t.url, tenantKey);
    const d = await byTenant.client('POST', '/api/v1/memories', { content: 'The office closes at six.' });
    expect(d.body).toMatchObject({ tenant_id: T, agent_id: 'default' });
    expect(searchItems((await byTenant.client('POST', '/api/v1/search', { query: 'office closing time' })).body).map((m) => m.id)).toContain(d.body.id);
    const list = await byTenant.plugin('GET', '/memories', { query: { limit: 100 } });
    expect(list.body.items.map((m: any) => m.id)).toEqual(expect.arrayContaining([w.body.id, d.body.id]));
    // Naming another agent than the key's is still refused.
    expect((await byAgent.client('POST', '/api/v1/memories', { content: 'x', agent_id: 'someone-else' })).status).toBe(403);
  });
});
