// Parity: every tool (every op) does what its REST twin does. Reads of the same state answer the
// same body both ways; writes of like input answer bodies that differ only in what names the new
// row (id, times, the text given) — and the rows they leave behind read the same.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { caller, httpClient, ok, refused, type Call } from './helpers.js';

const T = 'mcp-parity';

/** Fields that name a row or an instant: they differ between two like writes. */
const VOLATILE = new Set(['id', 'memory_id', 'created_at', 'updated_at', 'client_request_id', 'content_hash', 'content', 'doc_id', 'title', 'usage', 'bulk_ms']);

function stable(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stable);
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(Object.entries(v).filter(([k]) => !VOLATILE.has(k)).map(([k, x]) => [k, stable(x)]));
}

describe('MCP and REST give the same results', () => {
  let t: TestApp;
  let key: string;
  let client: Client;
  let call: Call;
  // REST names the tenant on every call (in the query, or in a POST body), as Caura's API does.
  const withTenant = (path: string) => `${path}${path.includes('?') ? '&' : '?'}tenant_id=${T}`;
  const rest = async (method: string, path: string, body?: Record<string, unknown>) => {
    const r = method === 'POST' && body
      ? await t.api(method, path, { key, body: { tenant_id: T, ...body } })
      : await t.api(method, withTenant(path), { key, body });
    expect(r.status, `${method} ${path} → ${r.text}`).toBeLessThan(300);
    return r.body;
  };

  beforeAll(async () => {
    t = await startTestApp();
    key = await t.key(T, { agent: 'pat', trust: 2 });
    client = await httpClient(t.url, { 'x-api-key': key });
    call = caller(client);
  });
  afterAll(async () => {
    await client?.close();
    await t?.close();
  });

  it('loci_write (one and a batch), loci_manage read/update/transition/lineage/delete/bulk_delete', async () => {
    const viaRest = await rest('POST', '/api/v1/memories', { agent_id: 'pat', content: 'Marie Curie researched radium in Paris.', memory_type: 'fact', weight: 0.7 });
    const viaMcp = await ok(call, 'loci_write', { content: 'Marie Curie researched polonium in Paris.', memory_type: 'fact', weight: 0.7 });
    expect(stable(viaMcp)).toEqual(stable(viaRest));

    const batchRest = await t.api('POST', '/api/v1/memories/bulk', {
      key, headers: { 'x-bulk-attempt-id': crypto.randomUUID() }, body: { tenant_id: T, agent_id: 'pat', items: [{ content: 'Standup is at nine.' }, { content: 'Lunch is at noon.' }] },
    });
    expect(batchRest.status).toBe(200);
    const batchMcp = await ok(call, 'loci_write', { items: [{ content: 'Retro is on Friday.' }, { content: 'Demo is on Thursday.' }] });
    expect(stable(batchMcp)).toEqual(stable(batchRest.body));

    // Reads of one row, both ways (REST's embedding is left out of the tool's answer).
    const { embedding, ...readRest } = await rest('GET', `/api/v1/memories/${viaRest.id}`);
    expect(embedding).toHaveLength(512);
    expect(await ok(call, 'loci_manage', { op: 'read', memory_id: viaRest.id })).toEqual(readRest);

    const updRest = await rest('PATCH', `/api/v1/memories/${viaRest.id}`, { title: 'Curie', metadata: { k: 1 } });
    const updMcp = await ok(call, 'loci_manage', { op: 'update', memory_id: viaMcp.id, title: 'Curie', metadata: { k: 1 } });
    expect(stable(updMcp)).toEqual(stable(updRest));

    const stRest = await rest('PATCH', `/api/v1/memories/${viaRest.id}/status`, { status: 'confirmed' });
    const stMcp = await ok(call, 'loci_manage', { op: 'transition', memory_id: viaMcp.id, status: 'confirmed' });
    expect(stable(stMcp)).toEqual(stable(stRest));

    expect(await ok(call, 'loci_manage', { op: 'lineage', memory_id: viaRest.id })).toEqual(await rest('GET', `/api/v1/memories/${viaRest.id}/contradictions`));

    expect((await t.api('DELETE', withTenant(`/api/v1/memories/${viaRest.id}`), { key })).status).toBeLessThan(300);
    expect(await ok(call, 'loci_manage', { op: 'delete', memory_id: viaMcp.id })).toEqual({ deleted: true, id: viaMcp.id });
    // Both rows are now alike: soft-deleted, readable only with include_deleted.
    for (const id of [viaRest.id, viaMcp.id]) {
      expect((await t.api('GET', withTenant(`/api/v1/memories/${id}`), { key })).status).toBe(404);
      await refused(call, 404, 'loci_manage', { op: 'read', memory_id: id });
    }
    const goneRest = await rest('GET', `/api/v1/memories/${viaRest.id}?include_deleted=true`);
    const goneMcp = await ok(call, 'loci_manage', { op: 'read', memory_id: viaMcp.id, include_deleted: true });
    expect(goneMcp.status).toBe(goneRest.status);
    expect(goneMcp.deleted_at).toEqual(expect.any(String));
    expect(goneRest.deleted_at).toEqual(expect.any(String));
    expect(Object.keys(goneMcp).sort()).toEqual(Object.keys(goneRest).filter((k) => k !== 'embedding').sort());

    const ids = (b: { results: { id: string }[] }) => b.results.map((r) => r.id);
    expect(await rest('POST', '/api/v1/memories/bulk-delete', { ids: ids(batchRest.body) })).toEqual({ deleted: 2 });
    expect(await ok(call, 'loci_manage', { op: 'bulk_delete', memory_ids: ids(batchMcp) })).toEqual({ deleted: 2 });
  });

  it('loci_recall (search and brief), loci_list, loci_stats, loci_entity_get read the same state the same way', async () => {
    const m = await rest('POST', '/api/v1/memories', { agent_id: 'pat', content: 'Alan Turing worked at Bletchley Park on codebreaking.', memory_type: 'episode' });
    await rest('POST', '/api/v1/memories', { agent_id: 'pat', content: 'The codebreaking team met every morning at eight.', memory_type: 'fact' });

    const q = { query: 'Who worked on codebreaking?', top_k: 3 };
    // A search counts as a recall of what it returns (recall_count, last_recalled_at): compare each
    // answer with the twin called right before or after it, less those counters.
    const uncounted = (b: { items: Record<string, unknown>[] }) =>
      b.items.map(({ recall_count: _c, last_recalled_at: _l, ...rest }) => rest);
    const sRest = await rest('POST', '/api/v1/search', q);
    const sMcp = await ok(call, 'loci_recall', q);
    expect(sMcp.items.length).toBeGreaterThan(0);
    expect(uncounted(sMcp)).toEqual(uncounted(sRest));
    expect(Object.keys(sMcp).sort()).toEqual(Object.keys(sRest).sort());

    const bRest = await rest('POST', '/api/v1/recall', q);
    const bMcp = await ok(call, 'loci_recall', { ...q, include_brief: true });
    expect(bMcp.summary).toBe(bRest.summary);
    expect(uncounted(bMcp)).toEqual(uncounted(bRest));
    expect(Object.keys(bMcp).sort()).toEqual(Object.keys(bRest).sort());

    // loci_list scope=agent is GET /memories of the caller's own writes; scope=all the whole tenant.
    expect(await ok(call, 'loci_list', { limit: 10 })).toEqual(await rest('GET', '/api/v1/memories?agent_id=pat&filter_agent_id=pat&limit=10'));
    expect(await ok(call, 'loci_list', { scope: 'all', memory_type: 'episode' }))
      .toEqual(await rest('GET', '/api/v1/memories?agent_id=pat&memory_type=episode&limit=25'));

    expect(await ok(call, 'loci_stats', { scope: 'all' })).toEqual({ ...(await rest('GET', '/api/v1/memories/stats?agent_id=pat')), scope: 'all' });
    expect(await ok(call, 'loci_stats')).toEqual({ ...(await rest('GET', '/api/v1/memories/stats?agent_id=pat&filter_agent_id=pat')), scope: 'agent' });

    const turing = m.entity_links.find((l: { name: string }) => l.name === 'Alan Turing');
    expect(turing).toBeDefined();
    expect(await ok(call, 'loci_entity_get', { entity_id: turing.entity_id })).toEqual(await rest('GET', `/api/v1/entities/${turing.entity_id}?agent_id=pat`));
  });

  it('loci_doc: every op', async () => {
    const data = { title: 'VPN setup', body: 'Install the client and import the profile.', n: 1 };
    const wRest = await rest('POST', '/api/v1/documents', { collection: 'kb', doc_id: 'vpn-a', data });
    const wMcp = await ok(call, 'loci_doc', { op: 'write', collection: 'kb', doc_id: 'vpn-b', data });
    expect(stable(wMcp)).toEqual(stable(wRest));

    expect(await ok(call, 'loci_doc', { op: 'read', collection: 'kb', doc_id: 'vpn-a' })).toEqual(await rest('GET', '/api/v1/documents/kb/vpn-a'));
    expect(await ok(call, 'loci_doc', { op: 'query', collection: 'kb', where: { n: 1 }, order_by: 'title' }))
      .toEqual(await rest('POST', '/api/v1/documents/query', { collection: 'kb', filter: { n: 1 }, order_by: 'title' }));
    const sRest = await rest('POST', '/api/v1/documents/search', { collection: 'kb', query: 'how to set up the vpn' });
    expect(await ok(call, 'loci_doc', { op: 'search', collection: 'kb', query: 'how to set up the vpn' })).toEqual(sRest);
    expect(sRest.items).toHaveLength(2);
    const cRest = await rest('GET', '/api/v1/documents/collections');
    expect(await ok(call, 'loci_doc', { op: 'list_collections' })).toEqual(cRest);
    expect(cRest.collections).toEqual([expect.objectContaining({ collection: 'kb', count: 2 })]);

    expect((await t.api('DELETE', withTenant('/api/v1/documents/kb/vpn-a'), { key })).status).toBeLessThan(300);
    expect(await ok(call, 'loci_doc', { op: 'delete', collection: 'kb', doc_id: 'vpn-b' })).toEqual({ deleted: true, collection: 'kb', doc_id: 'vpn-b' });
    for (const id of ['vpn-a', 'vpn-b']) {
      expect((await t.api('GET', withTenant(`/api/v1/documents/kb/${id}`), { key })).status).toBe(404);
      await refused(call, 404, 'loci_doc', { op: 'read', collection: 'kb', doc_id: id });
    }
  });

  it('loci_keystones and loci_keystones_set', async () => {
    const rule = { title: 'Be exact', content: 'Quote numbers exactly.', scope: 'tenant', weight: 'med' };
    const sRest = await rest('POST', '/api/v1/loci/keystones', { ...rule, doc_id: 'exact-a' });
    const sMcp = await ok(call, 'loci_keystones_set', { op: 'set', ...rule, doc_id: 'exact-b' });
    expect(stable(sMcp)).toEqual(stable(sRest));

    const listed = await t.api('GET', withTenant('/api/v1/loci/keystones'), { key });
    expect(await ok(call, 'loci_keystones')).toEqual({ count: listed.body.length, truncated: listed.headers.get('x-truncated') === 'true', rules: listed.body });

    expect(await rest('DELETE', '/api/v1/loci/keystones/exact-a')).toEqual({ deleted: true, doc_id: 'exact-a' });
    expect(await ok(call, 'loci_keystones_set', { op: 'delete', doc_id: 'exact-b' })).toEqual({ deleted: true, doc_id: 'exact-b' });
    expect(await ok(call, 'loci_keystones')).toMatchObject({ count: 0, rules: [] });
  });

  it('a failing embedder is the same 503 for memory and document search and writes, on both surfaces', async () => {
    const fail = () => Promise.reject(new Error('model crashed'));
    const spies = [vi.spyOn(t.services.embedder, 'embed').mockImplementation(fail), vi.spyOn(t.services.queryEmbedder, 'embed').mockImplementation(fail)];
    try {
      const q = `embedder outage ${crypto.randomUUID()}`;
      const calls: [string, string, Record<string, unknown>, string, Record<string, unknown>][] = [
        ['POST', '/api/v1/search', { query: q }, 'loci_recall', { query: q }],
        ['POST', '/api/v1/documents/search', { query: q }, 'loci_doc', { op: 'search', query: q }],
        ['POST', '/api/v1/memories', { agent_id: 'pat', content: q }, 'loci_write', { content: q }],
        ['POST', '/api/v1/documents', { collection: 'kb', doc_id: 'down', data: { q } }, 'loci_doc', { op: 'write', collection: 'kb', doc_id: 'down', data: { q } }],
      ];
      for (const [method, path, body, tool, args] of calls) {
        const r = await t.api(method, path, { key, body: { tenant_id: T, ...body } });
        expect(r.status, `${path} ${r.text}`).toBe(503);
        expect(r.headers.get('retry-after')).toBe('1');
        expect(await refused(call, 503, tool, args)).toEqual(r.body);
      }
    } finally {
      for (const s of spies) s.mockRestore();
    }
  });

  it('refuses the same way: the tool error is the REST error body', async () => {
    const id = crypto.randomUUID();
    const r404 = await t.api('GET', withTenant(`/api/v1/memories/${id}`), { key });
    expect(await refused(call, 404, 'loci_manage', { op: 'read', memory_id: id })).toEqual(r404.body);
    const r422 = await t.api('POST', '/api/v1/search', { key, body: { tenant_id: T, query: 'x', top_k: 0 } });
    expect(await refused(call, 422, 'loci_recall', { query: 'x', top_k: 0 })).toEqual(r422.body);
    const other = { content: 'Not mine.', agent_id: 'someone-else' };
    const r403 = await t.api('POST', '/api/v1/memories', { key, body: { tenant_id: T, ...other } });
    expect(await refused(call, 403, 'loci_write', other)).toEqual(r403.body);
  });
});
