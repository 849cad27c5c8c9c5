// The OpenClaw plugin's REST requests (plugin/src: transport, tool dispatch, context engine) against
// Loci, each as the plugin shapes it: search filters under Caura's names, list scope and author,
// documents by id with the collection in the query, status transitions, writes of identical
// content by several agents, and the start-up smoke test.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { cauraWire, searchItems, type CauraWire } from './caura-shapes.js';

const T = 'caura-plugin';

describe("Caura's OpenClaw plugin", () => {
  let t: TestApp;
  let tenant: CauraWire;
  let agentA: CauraWire;
  let agentB: CauraWire;
  const write = async (w: CauraWire, body: Record<string, unknown>) => {
    const r = await w.plugin('POST', '/memories', { body: { tenant_id: T, ...body } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body;
  };
  beforeAll(async () => {
    t = await startTestApp();
    tenant = cauraWire(t.url, await t.key(T, { trust: 2 }));
    agentA = cauraWire(t.url, await t.key(T, { agent: 'agent-a', trust: 1 }));
    agentB = cauraWire(t.url, await t.key(T, { agent: 'agent-b', trust: 1 }));
  });
  afterAll(async () => t?.close());

  it('start-up smoke test: write with tags, find it, delete it with tenant_id in the query', async () => {
    const content = `memclaw-smoke-${Date.now()}`;
    const w = await write(tenant, { agent_id: '__health_check__', content, memory_type: 'fact', tags: ['__smoke_test__'] });
    expect(w.metadata.tags).toContain('__smoke_test__');
    const s = await tenant.plugin('POST', '/search', { body: { tenant_id: T, query: content, top_k: 1 } });
    const top = searchItems(s.body)[0];
    expect(top.id).toBe(w.id);
    expect(top.similarity).toBeGreaterThanOrEqual(0.7);
    expect((await tenant.plugin('DELETE', `/memories/${w.id}`, { query: { tenant_id: T } })).status).toBe(204);
  });

  it('identical content from two agents is stored twice; the same agent again is a 409 naming only what it can read', async () => {
    const body = { fleet_id: 'ops', content: 'The VPN certificate expires on 1 March.', memory_type: 'episode', tags: ['auto-turn-summary'] };
    const a = await write(agentA, { ...body, agent_id: 'agent-a', visibility: 'scope_agent' });
    const b = await write(agentB, { ...body, agent_id: 'agent-b' });
    expect(b.id).not.toBe(a.id);
    const again = await agentA.plugin('POST', '/memories', { body: { tenant_id: T, ...body, agent_id: 'agent-a' } });
    expect(again.status).toBe(409);
    expect(again.body.existing_id).toBe(a.id);
    // Another fleet is another place: stored.
    await write(agentA, { ...body, agent_id: 'agent-a', fleet_id: 'dev' });
    // B cannot read A's private memory, so writing as A (refused) or as itself names nothing of A's.
    const asA = await agentB.plugin('POST', '/memories', { body: { tenant_id: T, ...body, agent_id: 'agent-a' } });
    expect(asA.status).toBe(403);
    expect(JSON.stringify(asA.body)).not.toContain(a.id);
    const bAgain = await agentB.plugin('POST', '/memories', { body: { tenant_id: T, ...body, agent_id: 'agent-b' } });
    expect(bAgain.status).toBe(409);
    expect(bAgain.body.existing_id).toBe(b.id);
    expect(JSON.stringify(bAgain.body)).not.toContain(a.id);
  });

  it('caura_recall: memory_type_filter and status_filter narrow search and recall', async () => {
    const decision = await write(tenant, { agent_id: 'planner', content: 'We chose Postgres for the billing ledger.', memory_type: 'decision' });
    const fact = await write(tenant, { agent_id: 'planner', content: 'The billing ledger holds four million rows.', memory_type: 'fact' });
    const body = { tenant_id: T, query: 'billing ledger', agent_id: 'planner', top_k: 10 };
    const all = searchItems((await tenant.plugin('POST', '/search', { body })).body).map((m) => m.id);
    expect(all).toEqual(expect.arrayContaining([decision.id, fact.id]));
    for (const path of ['/search', '/recall']) {
      const typed = await tenant.plugin('POST', path, { body: { ...body, memory_type_filter: 'decision' } });
      expect(typed.status).toBe(200);
      const ids = searchItems(typed.body).map((m) => m.id);
      expect(ids).toContain(decision.id);
      expect(ids).not.toContain(fact.id);
    }
    await tenant.plugin('PATCH', `/memories/${fact.id}/status`, { body: { status: 'confirmed' }, query: { tenant_id: T } });
    const confirmed = searchItems((await tenant.plugin('POST', '/search', { body: { ...body, status_filter: 'confirmed' } })).body).map((m) => m.id);
    expect(confirmed).toEqual([fact.id]);
    // A value the filter cannot take, or two names disagreeing, is a 422 naming the field.
    const deleted = await tenant.plugin('POST', '/search', { body: { ...body, status_filter: 'deleted' } });
    expect(deleted.status).toBe(422);
    expect(deleted.body.detail[0].loc).toEqual(['body', 'status_filter']);
    const clash = await tenant.plugin('POST', '/search', { body: { ...body, memory_type: 'fact', memory_type_filter: 'decision' } });
    expect(clash.status).toBe(422);
    expect(clash.body.detail[0].loc).toEqual(['body', 'memory_type_filter']);
  });

  it('caura_write batch: /memories/bulk with X-Bulk-Attempt-Id and the plugin\'s item fields', async () => {
    const attempt = randomUUID();
    const body = {
      tenant_id: T, agent_id: 'agent-a', fleet_id: 'ops',
      items: [
        { content: 'Backups run at 03:00 UTC.', memory_type: 'fact', weight: 0.7, metadata: { k: 1 }, status: 'active' },
        { content: 'Restore drills happen quarterly.', source_uri: 'https://wiki.example/dr', run_id: 'r-1' },
      ],
    };
    const r = await agentA.plugin('POST', '/memories/bulk', { body, headers: { 'X-Bulk-Attempt-Id': attempt } });
    expect(r.status).toBe(200);
    expect(r.body.created).toBe(2);
    const retry = await agentA.plugin('POST', '/memories/bulk', { body, headers: { 'X-Bulk-Attempt-Id': attempt } });
    expect(retry.body.results.map((x: any) => x.status)).toEqual(['duplicate_attempt', 'duplicate_attempt']);
  });

  it('caura_manage: read, update, transitions to outdated, conflicted and deleted, delete', async () => {
    const m = await write(agentA, { agent_id: 'agent-a', content: 'The staging cluster runs Kubernetes 1.29.' });
    const read = await agentA.plugin('GET', `/memories/${m.id}`, { query: { tenant_id: T } });
    expect(read.body.id).toBe(m.id);
    const upd = await agentA.plugin('PATCH', `/memories/${m.id}`, {
      body: { content: 'The staging cluster runs Kubernetes 1.30.', weight: 0.9, title: 'Staging version', metadata: { checked: true } },
      query: { tenant_id: T, agent_id: 'agent-a' },
    });
    expect(upd.status).toBe(200);
    expect(upd.body).toMatchObject({ content: 'The staging cluster runs Kubernetes 1.30.', weight: 0.9, title: 'Staging version' });
    let previous = 'active';
    for (const status of ['outdated', 'conflicted', 'active']) {
      const r = await agentA.plugin('PATCH', `/memories/${m.id}/status`, { body: { status }, query: { tenant_id: T } });
      expect(r.body).toMatchObject({ id: m.id, status, previous_status: previous, memory_id: m.id, old_status: previous, new_status: status });
      previous = status;
    }
    const del = await agentA.plugin('PATCH', `/memories/${m.id}/status`, { body: { status: 'deleted' }, query: { tenant_id: T } });
    expect(del.body).toMatchObject({ memory_id: m.id, old_status: 'active', new_status: 'deleted' });
    expect((await agentA.plugin('GET', `/memories/${m.id}`, { query: { tenant_id: T } })).status).toBe(404);
    const other = await write(agentA, { agent_id: 'agent-a', content: 'Old dashboards are archived after a year.' });
    expect((await agentA.plugin('DELETE', `/memories/${other.id}`, { query: { tenant_id: T } })).status).toBe(204);
  });

  it('caura_doc: write, read and delete with the collection in the query, query with where, search, collections', async () => {
    const w = await agentA.plugin('POST', '/documents', {
      body: { tenant_id: T, collection: 'customers', doc_id: 'acme', data: { name: 'Acme Corp', tier: 'gold', region: 'emea' }, fleet_id: undefined, agent_id: 'agent-a' },
    });
    expect(w.status).toBe(201);
    await agentA.plugin('POST', '/documents', { body: { tenant_id: T, collection: 'customers', doc_id: 'globex', data: { name: 'Globex', tier: 'silver', region: 'emea' } } });
    const read = await agentA.plugin('GET', '/documents/acme', { query: { tenant_id: T, collection: 'customers' } });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ collection: 'customers', doc_id: 'acme', data: { name: 'Acme Corp' } });
    const q = await agentA.plugin('POST', '/documents/query', {
      body: { tenant_id: T, collection: 'customers', where: { tier: 'gold' }, order_by: undefined, order: 'asc', limit: 10, offset: 0 },
    });
    expect(q.status).toBe(200);
    expect(q.body.items.map((d: any) => d.doc_id)).toEqual(['acme']);
    const all = await agentA.plugin('POST', '/documents/query', { body: { tenant_id: T, collection: 'customers', where: {} } });
    expect(all.body.items.map((d: any) => d.doc_id).sort()).toEqual(['acme', 'globex']);
    const clash = await agentA.plugin('POST', '/documents/query', { body: { tenant_id: T, collection: 'customers', where: { tier: 'gold' }, filter: { tier: 'silver' } } });
    expect(clash.status).toBe(422);
    expect(clash.body.detail[0].loc).toEqual(['body', 'where']);
    const s = await agentA.plugin('POST', '/documents/search', { body: { tenant_id: T, collection: 'customers', query: 'Globex', top_k: 5 } });
    expect(s.body.items[0].doc_id).toBe('globex');
    const cols = await agentA.plugin('GET', '/documents/collections', { query: { tenant_id: T } });
    expect(cols.body.collections).toContainEqual(expect.objectContaining({ collection: 'customers', count: 2 }));
    expect((await agentA.plugin('DELETE', '/documents/acme', { query: { tenant_id: T, collection: 'customers' } })).status).toBe(204);
    expect((await agentA.plugin('GET', '/documents/acme', { query: { tenant_id: T, collection: 'customers' } })).status).toBe(404);
    const noCollection = await agentA.plugin('GET', '/documents/globex', { query: { tenant_id: T } });
    expect(noCollection.status).toBe(422);
    expect(noCollection.body.detail[0].loc).toEqual(['query', 'collection']);
  });

  it('caura_list and caura_stats: scope, written_by and weight bounds are honoured; an unknown parameter is refused', async () => {
    const L = 'caura-list';
    const key = cauraWire(t.url, await t.key(L, { trust: 2 }));
    const put = async (agent: string, content: string, weight: number, fleet = 'f1') =>
      (await key.plugin('POST', '/memories', { body: { tenant_id: L, agent_id: agent, content, weight, fleet_id: fleet } })).body;
    const a1 = await put('lister-a', 'Lister A notes the cache hit rate.', 0.2);
    const a2 = await put('lister-a', 'Lister A notes the queue depth.', 0.9, 'f2');
    const b1 = await put('lister-b', 'Lister B notes the error budget.', 0.6);
    const ids = async (query: Record<string, unknown>) => {
      const r = await key.plugin('GET', '/memories', { query: { tenant_id: L, ...query } });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body.items.map((m: any) => m.id).sort();
    };
    expect(await ids({ scope: 'agent', agent_id: 'lister-a' })).toEqual([a1.id, a2.id].sort());
    expect(await ids({ scope: 'all', written_by: 'lister-b' })).toEqual([b1.id]);
    expect(await ids({ written_by: 'lister-a', weight_min: 0.5 })).toEqual([a2.id]);
    expect(await ids({ weight_max: 0.6, sort: 'weight', order: 'asc' })).toEqual([a1.id, b1.id].sort());
    expect(await ids({ scope: 'fleet', fleet_id: 'f1' })).toEqual([a1.id, b1.id].sort());
    const refused = async (query: Record<string, unknown>, loc: string[]) => {
      const r = await key.plugin('GET', '/memories', { query: { tenant_id: L, ...query } });
      expect(r.status, JSON.stringify(query)).toBe(422);
      expect(r.body.detail[0].loc).toEqual(loc);
    };
    await refused({ scope: 'fleet' }, ['query', 'fleet_id']);
    await refused({ scope: 'agent' }, ['query', 'agent_id']);
    await refused({ scope: 'agent', agent_id: 'lister-a', written_by: 'lister-b' }, ['query', 'filter_agent_id']);
    await refused({ written_by: 'lister-a', filter_agent_id: 'lister-b' }, ['query', 'written_by']);
    await refused({ scope: 'everyone' }, ['query', 'scope']);
    await refused({ include_brief: 'true' }, ['query', 'include_brief']);
    const stats = await key.plugin('GET', '/memories/stats', { query: { tenant_id: L, scope: 'agent', agent_id: 'lister-b' } });
    expect(stats.body).toMatchObject({ total: 1, by_agent: { 'lister-b': 1 } });
    const statsBad = await key.plugin('GET', '/memories/stats', { query: { tenant_id: L, bogus: 1 } });
    expect(statsBad.status).toBe(422);
  });

  it('caura_entity_get: GET /entities/{id} with tenant_id in the query', async () => {
    await write(tenant, { agent_id: 'planner', content: 'Maria Lopez leads the Lisbon office of Acme Corp.' });
    const list = await tenant.plugin('GET', '/entities', { query: { tenant_id: T } });
    const entity = list.body.entities.find((e: any) => /Maria Lopez|Acme/.test(e.name));
    expect(entity).toBeDefined();
    const one = await tenant.plugin('GET', `/entities/${entity.id}`, { query: { tenant_id: T } });
    expect(one.status).toBe(200);
    expect(one.body.id).toBe(entity.id);
    expect((await tenant.plugin('GET', `/entities/${randomUUID()}`, { query: { tenant_id: T } })).status).toBe(404);
  });
});
