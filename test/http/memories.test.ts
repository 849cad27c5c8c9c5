// Memory record lifecycle over HTTP: write, read, update, status, delete, identity and validation.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

const RECORD_FIELDS = [
  'id', 'tenant_id', 'fleet_id', 'agent_id', 'memory_type', 'title', 'content', 'weight', 'source_uri', 'run_id', 'metadata',
  'created_at', 'expires_at', 'entity_links', 'subject_entity_id', 'predicate', 'object_value', 'ts_valid_start',
  'ts_valid_end', 'status', 'visibility', 'recall_count', 'last_recalled_at', 'supersedes_id', 'deleted_at',
];

let seq = 0;
/** Distinct content per call: exact duplicates are refused. */
const text = (s = 'Note') => `${s} number ${++seq} about the deployment pipeline.`;

async function write(tenant: string, body: Record<string, unknown> = {}, key?: string) {
  const r = await t.api('POST', '/api/v1/memories', { key, body: { tenant_id: tenant, agent_id: 'a1', content: text(), ...body } });
  if (r.status !== 201) throw new Error(`write failed: ${r.status} ${r.text}`);
  return r.body;
}

/** A memory's metadata without the keys write-time enrichment adds. */
const own = ({ tags: _t, enriched_by: _b, enriched_fields: _f, ...rest }: Record<string, unknown>) => rest;

async function rows(tenant: string): Promise<number> {
  const { rows } = await t.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM memories WHERE tenant_id = $1', [tenant]);
  return rows[0].n;
}

describe('POST /api/v1/memories', () => {
  it('answers 201 with every field of the memory record, defaults filled in', async () => {
    const r = await t.api('POST', '/api/v1/memories', {
      body: { tenant_id: 'w1', agent_id: 'a1', content: '  Ada Lovelace wrote the first program in London.  ' },
    });
    expect(r.status).toBe(201);
    for (const f of RECORD_FIELDS) expect(r.body).toHaveProperty(f);
    expect(r.body).toMatchObject({
      tenant_id: 'w1', agent_id: 'a1', fleet_id: null, weight: 0.5, status: 'active',
      visibility: 'scope_team', recall_count: 0, supersedes_id: null, deleted_at: null, superseded_by: [],
      // Type, title and tags were left out: inferred and marked as such (docs/enrichment.md).
      title: 'Ada Lovelace wrote the first program in London',
      metadata: { enriched_by: 'rules', enriched_fields: ['memory_type', 'title', 'tags'] },
      content: 'Ada Lovelace wrote the first program in London.',
      usage: { memories_stored: 1, memories_limit: 100_000, writes_remaining: 99_999 },
    });
    expect(new Date(r.body.created_at).toISOString()).toBe(r.body.created_at);
    expect(r.body.entity_links.map((l: any) => l.name)).toEqual(expect.arrayContaining(['Ada Lovelace']));
    for (const l of r.body.entity_links) expect(Object.keys(l).sort()).toEqual(['entity_id', 'entity_type', 'name', 'role']);
    expect(r.headers.get('location')).toBe(`/api/v1/memories/${r.body.id}`);
  });

  it('stores every optional field, and folds `semantic` into fact', async () => {
    const body = {
      tenant_id: 'w1', agent_id: 'a1', content: text(), fleet_id: 'f1', memory_type: 'semantic', title: 'T', weight: 0.9,
      source_uri: 'https://example.com/x', run_id: 'run-1', metadata: { k: 'v', n: 1 }, expires_at: '2030-01-01T00:00:00Z',
      subject_entity_id: '11111111-1111-4111-8111-111111111111', predicate: 'likes', object_value: 'tea',
      ts_valid_start: '2024-01-01T00:00:00Z', ts_valid_end: '2025-01-01T00:00:00.000Z', status: 'pending', visibility: 'scope_org',
    };
    const r = await t.api('POST', '/api/v1/memories', { body });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      ...body, memory_type: 'fact', expires_at: '2030-01-01T00:00:00.000Z', ts_valid_start: '2024-01-01T00:00:00.000Z',
    });
    expect(r.body.usage.memories_stored).toBe(2);
  });

  it('refuses an exact duplicate of the same writer with 409 and the existing id; another agent, another fleet or a deleted original is fine', async () => {
    const first = await write('w2', { content: 'The build server is called Orion.' });
    const dup = await t.api('POST', '/api/v1/memories', { body: { tenant_id: 'w2', agent_id: 'a1', content: '\n The build server is called Orion. ' } });
    expect(dup.status).toBe(409);
    expect(dup.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(dup.body).toMatchObject({ status: 409, existing_id: first.id });
    expect(await rows('w2')).toBe(1);
    // Two agents observing one fact is evidence: stored twice.
    expect((await t.api('POST', '/api/v1/memories', { body: { tenant_id: 'w2', agent_id: 'a2', content: 'The build server is called Orion.' } })).status).toBe(201);
    expect((await t.api('POST', '/api/v1/memories', { body: { tenant_id: 'w2', agent_id: 'a1', fleet_id: 'other', content: 'The build server is called Orion.' } })).status).toBe(201);
    expect((await t.api('DELETE', `/api/v1/memories/${first.id}?tenant_id=w2`)).status).toBe(204);
    expect((await t.api('POST', '/api/v1/memories', { body: { tenant_id: 'w2', agent_id: 'a1', content: 'The build server is called Orion.' } })).status).toBe(201);
  });

  it('publishes memory.written after the commit', async () => {
    const spy = vi.spyOn(t.services.bus, 'publish');
    try {
      const m = await write('w3');
      const ev = spy.mock.calls.map((c) => c[0]).find((e) => e.type === 'memory.written' && (e.data as any).memory_id === m.id);
      expect(ev).toMatchObject({ version: 1, tenant_id: 'w3', data: { memory_id: m.id, agent_id: 'a1', op: 'create' } });
      expect(typeof ev!.id).toBe('string');
    } finally {
      spy.mockRestore();
    }
  });

  it('accepts an Idempotency-Key and refuses one longer than 255 characters', async () => {
    const body = { tenant_id: 'w3', agent_id: 'a1', content: text() };
    const a = await t.api('POST', '/api/v1/memories', { body, headers: { 'idempotency-key': 'k-1' } });
    expect(a.status).toBe(201);
    const long = await t.api('POST', '/api/v1/memories', { body: { ...body, content: text() }, headers: { 'idempotency-key': 'x'.repeat(256) } });
    expect(long.status).toBe(422);
    expect(long.body.detail[0].loc).toEqual(['header', 'idempotency-key']);
  });

  it('answers 4xx to bad input of every kind and writes nothing', async () => {
    const base = { tenant_id: 'bad', agent_id: 'a1', content: 'valid content' };
    const cases: [Record<string, unknown> | string, (string | number)[]][] = [
      ['{"tenant_id": "bad", "agent_id": ', ['body']],
      [{ ...base, weight: '0.5' }, ['body', 'weight']],
      [{ ...base, weight: 1.5 }, ['body', 'weight']],
      [{ ...base, weight: -0.1 }, ['body', 'weight']],
      [{ ...base, memory_type: 'outcome' }, ['body', 'memory_type']],
      [{ ...base, memory_type: 'rule' }, ['body', 'memory_type']],
      [{ ...base, memory_type: 'insight' }, ['body', 'memory_type']],
      [{ ...base, memory_type: 'gossip' }, ['body', 'memory_type']],
      [{ ...base, visibility: 'public' }, ['body', 'visibility']],
      [{ ...base, status: 'outdated' }, ['body', 'status']],
      [{ ...base, content: '   \n ' }, ['body', 'content']],
      [{ ...base, content: '' }, ['body', 'content']],
      [{ ...base, content: 'x'.repeat(10_001) }, ['body', 'content']],
      [{ ...base, content: 42 }, ['body', 'content']],
      [{ ...base, title: 't'.repeat(501) }, ['body', 'title']],
      [{ ...base, fleet_id: '' }, ['body', 'fleet_id']],
      [{ ...base, tenant_id: 't'.repeat(201) }, ['body', 'tenant_id']],
      [{ ...base, subject_entity_id: 'not-a-uuid' }, ['body', 'subject_entity_id']],
      [{ ...base, expires_at: 'tomorrow' }, ['body', 'expires_at']],
      [{ ...base, metadata: ['a'] }, ['body', 'metadata']],
      [{ ...base, metadata: { big: 'x'.repeat(70_000) } }, ['body', 'metadata']],
      [{ ...base, ts_valid_start: '2025-01-01T00:00:00Z', ts_valid_end: '2024-01-01T00:00:00Z' }, ['body', 'ts_valid_end']],
      [{ tenant_id: 'bad', agent_id: 'a1' }, ['body', 'content']],
    ];
    for (const [body, loc] of cases) {
      const r = typeof body === 'string'
        ? await t.api('POST', '/api/v1/memories', { raw: body })
        : await t.api('POST', '/api/v1/memories', { body });
      expect(r.status, JSON.stringify(loc)).toBe(422);
      expect(r.body.detail.map((d: any) => d.loc), JSON.stringify(body).slice(0, 80)).toContainEqual(loc);
    }
    // 10,000 characters plus surrounding whitespace is within bounds.
    const edge = await t.api('POST', '/api/v1/memories', { body: { ...base, tenant_id: 'edge', content: `  ${'y'.repeat(10_000)}\n` } });
    expect(edge.status).toBe(201);
    expect(edge.body.content.length).toBe(10_000);
    expect(await rows('bad')).toBe(0);
  });

  it('401 without a key, 403 for another tenant, an agent mismatch or a read-only key', async () => {
    const body = { tenant_id: 'w4', agent_id: 'a1', content: text() };
    expect((await t.api('POST', '/api/v1/memories', { key: null, body })).status).toBe(401);
    const other = await t.key('someone-else');
    const r = await t.api('POST', '/api/v1/memories', { key: other, body });
    expect(r.status).toBe(403);
    expect(r.body.detail).toContain('w4');
    const agentKey = await t.key('w4', { agent: 'a1' });
    expect((await t.api('POST', '/api/v1/memories', { key: agentKey, body: { ...body, agent_id: 'a2' } })).status).toBe(403);
    expect((await t.api('POST', '/api/v1/memories', { key: agentKey, body })).status).toBe(201);
    const readOnly = await t.key('w4', { trust: 0 });
    expect((await t.api('POST', '/api/v1/memories', { key: readOnly, body: { ...body, content: text() } })).status).toBe(403);
    expect(await rows('w4')).toBe(1);
  });
});

describe('GET /api/v1/memories/{id}', () => {
  it('returns full detail: embedding, model, entity links', async () => {
    const m = await write('r1', { content: 'Grace Hopper worked at the Navy in Arlington.', title: 'Hopper' });
    const r = await t.api('GET', `/api/v1/memories/${m.id}?tenant_id=r1`);
    expect(r.status).toBe(200);
    for (const f of RECORD_FIELDS) expect(r.body).toHaveProperty(f);
    expect(r.body.embedding).toHaveLength(t.services.embedder.dim);
    expect(typeof r.body.embedding[0]).toBe('number');
    expect(r.body.embedding_model).toBe(t.services.embedder.modelId);
    expect(r.body.entity_links).toEqual(m.entity_links);
    expect(r.body.entity_links.length).toBeGreaterThan(0);
  });

  it('422 for a non-uuid id; the literal segments are their own routes', async () => {
    const r = await t.api('GET', '/api/v1/memories/not-a-uuid?tenant_id=r1');
    expect(r.status).toBe(422);
    expect(r.body.detail[0]).toMatchObject({ loc: ['path', 'memory_id'], type: 'uuid_parsing' });
    expect((await t.api('GET', '/api/v1/memories/count?tenant_id=r1')).body).toHaveProperty('count');
    expect((await t.api('GET', '/api/v1/memories/stats?tenant_id=r1')).body).toHaveProperty('by_type');
    expect((await t.api('GET', `/api/v1/memories/${crypto.randomUUID()}?tenant_id=r1`)).status).toBe(404);
    expect((await t.api('GET', `/api/v1/memories/${crypto.randomUUID()}`)).status).toBe(404); // tenant_id defaults to the key's
  });

  it('hides soft-deleted rows unless include_deleted=true', async () => {
    const m = await write('r1');
    expect((await t.api('DELETE', `/api/v1/memories/${m.id}?tenant_id=r1`)).status).toBe(204);
    expect((await t.api('GET', `/api/v1/memories/${m.id}?tenant_id=r1`)).status).toBe(404);
    const r = await t.api('GET', `/api/v1/memories/${m.id}?tenant_id=r1&include_deleted=true`);
    expect(r.status).toBe(200);
    expect(r.body.deleted_at).not.toBeNull();
    expect((await t.api('DELETE', `/api/v1/memories/${m.id}?tenant_id=r1`)).status).toBe(404);
  });
});

describe('visibility', () => {
  let priv: any;
  let team: any;
  beforeAll(async () => {
    priv = await write('v1', { agent_id: 'a1', visibility: 'scope_agent', content: 'Private note of agent one.' });
    team = await write('v1', { agent_id: 'a2', content: 'Team note of agent two.' });
    await write('v1', { agent_id: 'a2', visibility: 'scope_org', content: 'Org note of agent two.' });
  });
  const ids = (r: any) => r.body.items.map((m: any) => m.id);

  it('a list without agent_id hides scope_agent rows; with agent_id the viewer sees its own', async () => {
    expect(ids(await t.api('GET', '/api/v1/memories?tenant_id=v1'))).not.toContain(priv.id);
    expect(ids(await t.api('GET', '/api/v1/memories?tenant_id=v1&agent_id=a1'))).toContain(priv.id);
    const a2 = ids(await t.api('GET', '/api/v1/memories?tenant_id=v1&agent_id=a2'));
    expect(a2).not.toContain(priv.id);
    expect(a2).toHaveLength(2);
    expect((await t.api('GET', '/api/v1/memories?tenant_id=v1&agent_id=a1&visibility=scope_agent')).body.items.map((m: any) => m.id)).toEqual([priv.id]);
  });

  it('an agent-scoped key is always its own viewer and may not view as another agent', async () => {
    const k1 = await t.key('v1', { agent: 'a1' });
    const k2 = await t.key('v1', { agent: 'a2' });
    expect(ids(await t.api('GET', '/api/v1/memories?tenant_id=v1', { key: k1 }))).toContain(priv.id);
    expect(ids(await t.api('GET', '/api/v1/memories?tenant_id=v1', { key: k2 }))).not.toContain(priv.id);
    expect((await t.api('GET', '/api/v1/memories?tenant_id=v1&agent_id=a1', { key: k2 })).status).toBe(403);
    expect((await t.api('GET', `/api/v1/memories/${priv.id}?tenant_id=v1`, { key: k1 })).status).toBe(200);
    expect((await t.api('GET', `/api/v1/memories/${priv.id}?tenant_id=v1`, { key: k2 })).status).toBe(404);
    expect((await t.api('GET', `/api/v1/memories/${team.id}?tenant_id=v1`, { key: k1 })).status).toBe(200);
    // Nor change it.
    expect((await t.api('PATCH', `/api/v1/memories/${priv.id}?tenant_id=v1`, { key: k2, body: { title: 'x' } })).status).toBe(404);
    expect((await t.api('PATCH', `/api/v1/memories/${priv.id}/status?tenant_id=v1`, { key: k2, body: { status: 'archived' } })).status).toBe(404);
    expect((await t.api('DELETE', `/api/v1/memories/${priv.id}?tenant_id=v1`, { key: k2 })).status).toBe(404);
    expect((await t.api('POST', '/api/v1/memories/bulk-delete', { key: k2, body: { tenant_id: 'v1', ids: [priv.id] } })).body).toEqual({ deleted: 0 });
    expect((await t.api('GET', `/api/v1/memories/${priv.id}?tenant_id=v1`)).body.title).toBe(priv.title);
  });

  it('a tenant key needs agent_id to read a scope_agent row by id; an admin sees it', async () => {
    const tk = await t.key('v1');
    expect((await t.api('GET', `/api/v1/memories/${priv.id}?tenant_id=v1`, { key: tk })).status).toBe(404);
    expect((await t.api('GET', `/api/v1/memories/${priv.id}?tenant_id=v1&agent_id=a1`, { key: tk })).status).toBe(200);
    expect((await t.api('GET', `/api/v1/memories/${priv.id}?tenant_id=v1`)).status).toBe(200);
  });

  it('stats, count and fleets follow the same rule', async () => {
    const tk = await t.key('v1');
    expect((await t.api('GET', '/api/v1/memories/count?tenant_id=v1', { key: tk })).body).toEqual({ count: 2 });
    expect((await t.api('GET', '/api/v1/memories/count?tenant_id=v1&agent_id=a1', { key: tk })).body).toEqual({ count: 3 });
    expect((await t.api('GET', '/api/v1/memories/stats?tenant_id=v1', { key: tk })).body.total).toBe(2);
    expect((await t.api('GET', '/api/v1/memories/stats?tenant_id=v1&agent_id=a1', { key: tk })).body.by_agent).toEqual({ a1: 1, a2: 2 });
  });
});

describe('tenant isolation', () => {
  let m: any;
  let keyB: string;
  beforeAll(async () => {
    m = await write('iso-a', { fleet_id: 'fa', metadata: { k: 1 } });
    keyB = await t.key('iso-b');
    await write('iso-b', {}, keyB);
  });

  it('a second tenant sees nothing of the first and gets 403 naming it', async () => {
    const reads = [
      `/api/v1/memories?tenant_id=iso-a`,
      `/api/v1/memories/${m.id}?tenant_id=iso-a`,
      `/api/v1/memories/stats?tenant_id=iso-a`,
      `/api/v1/memories/count?tenant_id=iso-a`,
      `/api/v1/fleets?tenant_id=iso-a`,
    ];
    for (const path of reads) {
      const r = await t.api('GET', path, { key: keyB });
      expect(r.status, path).toBe(403);
      expect(r.body.detail, path).toContain('iso-a');
    }
    expect((await t.api('GET', `/api/v1/memories/${m.id}?tenant_id=iso-b`, { key: keyB })).status).toBe(404);
    const own = await t.api('GET', '/api/v1/memories', { key: keyB });
    expect(own.body.items.every((x: any) => x.tenant_id === 'iso-b')).toBe(true);
    expect((await t.api('GET', '/api/v1/tenants', { key: keyB })).body).toEqual({ tenants: ['iso-b'] });
    expect((await t.api('GET', '/api/v1/fleets', { key: keyB })).body).toEqual({ fleets: [] });
  });

  it('changes nothing in the first tenant', async () => {
    const changes: [string, string, unknown][] = [
      ['PATCH', `/api/v1/memories/${m.id}?tenant_id=iso-a`, { title: 'pwned', metadata: { x: 1 } }],
      ['PATCH', `/api/v1/memories/${m.id}/status?tenant_id=iso-a`, { status: 'archived' }],
      ['DELETE', `/api/v1/memories/${m.id}?tenant_id=iso-a`, undefined],
      ['DELETE', `/api/v1/memories?tenant_id=iso-a`, undefined],
      ['POST', `/api/v1/memories/bulk-delete`, { tenant_id: 'iso-a', ids: [m.id] }],
      ['POST', `/api/v1/memories`, { tenant_id: 'iso-a', agent_id: 'a1', content: text() }],
    ];
    for (const [method, path, body] of changes) {
      const r = await t.api(method, path, { key: keyB, body });
      expect(r.status, `${method} ${path}`).toBe(403);
      expect(r.body.detail).toContain('iso-a');
    }
    // The same id named under the caller's own tenant is simply not there.
    expect((await t.api('PATCH', `/api/v1/memories/${m.id}?tenant_id=iso-b`, { key: keyB, body: { title: 'x' } })).status).toBe(404);
    expect((await t.api('DELETE', `/api/v1/memories/${m.id}?tenant_id=iso-b`, { key: keyB })).status).toBe(404);
    expect((await t.api('POST', `/api/v1/memories/bulk-delete`, { key: keyB, body: { tenant_id: 'iso-b', ids: [m.id] } })).body).toEqual({ deleted: 0 });
    const after = await t.api('GET', `/api/v1/memories/${m.id}?tenant_id=iso-a`);
    expect(after.body).toMatchObject({ title: m.title, status: 'active', deleted_at: null, metadata: { k: 1 } });
    expect(await rows('iso-a')).toBe(1);
  });

  it('a key granted read access to another tenant may read but not write it', async () => {
    const reader = await t.key('iso-b', { readable: ['iso-a'] });
    expect((await t.api('GET', `/api/v1/memories/${m.id}?tenant_id=iso-a`, { key: reader })).status).toBe(200);
    expect((await t.api('GET', '/api/v1/tenants', { key: reader })).body).toEqual({ tenants: ['iso-a', 'iso-b'] });
    expect((await t.api('PATCH', `/api/v1/memories/${m.id}?tenant_id=iso-a`, { key: reader, body: { title: 'x' } })).status).toBe(403);
  });

  it('answers 401 to anonymous callers on every endpoint', async () => {
    const id = m.id;
    const calls: [string, string, unknown?][] = [
      ['POST', '/api/v1/memories', { tenant_id: 'iso-a', agent_id: 'a', content: 'x' }],
      ['GET', '/api/v1/memories?tenant_id=iso-a'],
      ['DELETE', '/api/v1/memories?tenant_id=iso-a'],
      ['GET', `/api/v1/memories/${id}?tenant_id=iso-a`],
      ['PATCH', `/api/v1/memories/${id}?tenant_id=iso-a`, { title: 'x' }],
      ['DELETE', `/api/v1/memories/${id}?tenant_id=iso-a`],
      ['PATCH', `/api/v1/memories/${id}/status?tenant_id=iso-a`, { status: 'confirmed' }],
      ['GET', '/api/v1/memories/stats?tenant_id=iso-a'],
      ['GET', '/api/v1/memories/count?tenant_id=iso-a'],
      ['POST', '/api/v1/memories/bulk-delete', { tenant_id: 'iso-a', ids: [id] }],
      ['GET', '/api/v1/tenants'],
      ['GET', '/api/v1/fleets?tenant_id=iso-a'],
      ['GET', '/api/v1/admin/tenants'],
      ['GET', '/api/v1/admin/fleets'],
      ['GET', '/api/v1/admin/memories'],
      ['GET', '/api/v1/admin/memories/stats'],
    ];
    for (const [method, path, body] of calls) {
      expect((await t.api(method, path, { key: null, body })).status, `${method} ${path}`).toBe(401);
    }
    expect(await rows('iso-a')).toBe(1);
  });
});

describe('PATCH /api/v1/memories/{id}', () => {
  it('changes only the fields given; null clears a nullable field', async () => {
    const m = await write('p1', { title: 'Old', source_uri: 'https://a', weight: 0.2, metadata: { a: 1 } });
    const r = await t.api('PATCH', `/api/v1/memories/${m.id}?tenant_id=p1`, {
      body: { title: null, weight: 0.7, status: 'confirmed', visibility: 'scope_org', memory_type: 'decision', predicate: 'uses', expires_at: '2031-05-05T00:00:00Z' },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      id: m.id, title: null, weight: 0.7, status: 'confirmed', visibility: 'scope_org', memory_type: 'decision', predicate: 'uses',
      expires_at: '2031-05-05T00:00:00.000Z', source_uri: 'https://a', content: m.content, metadata: { a: 1 }, superseded_by: [],
    });
    expect(r.body.updated_at >= m.updated_at).toBe(true);
  });

  it('merges metadata at the top level by default; replace overwrites; the body mode wins over the query', async () => {
    const m = await write('p1', { metadata: { a: 1, b: { x: 1 } } });
    const path = `/api/v1/memories/${m.id}?tenant_id=p1`;
    expect(own((await t.api('PATCH', path, { body: { metadata: { b: { y: 2 }, c: 3 } } })).body.metadata)).toEqual({ a: 1, b: { y: 2 }, c: 3 });
    expect((await t.api('PATCH', `${path}&metadata_mode=replace`, { body: { metadata: { only: true } } })).body.metadata).toEqual({ only: true });
    expect((await t.api('PATCH', `${path}&metadata_mode=replace`, { body: { metadata: { more: 1 }, metadata_mode: 'merge' } })).body.metadata)
      .toEqual({ only: true, more: 1 });
    expect((await t.api('PATCH', `${path}&metadata_mode=merge`, { body: { metadata: {}, metadata_mode: 'replace' } })).body.metadata).toEqual({});
  });

  it('keeps both keys of two concurrent merges', async () => {
    const m = await write('p1', { metadata: { base: 0 } });
    const path = `/api/v1/memories/${m.id}?tenant_id=p1`;
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => t.api('PATCH', path, { body: { metadata: { [`k${i}`]: i } } })),
    );
    for (const r of results) expect(r.status).toBe(200);
    const after = await t.api('GET', path);
    expect(own(after.body.metadata)).toEqual({ base: 0, ...Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`k${i}`, i])) });
  });

  it('re-embeds and re-extracts entities when the content changes, and only then', async () => {
    const m = await write('p2', { content: 'Grace Hopper lives in Arlington with her cat.' });
    const path = `/api/v1/memories/${m.id}?tenant_id=p2`;
    const before = (await t.api('GET', path)).body;
    const spy = vi.spyOn(t.services.bus, 'publish');
    const r = await t.api('PATCH', path, { body: { content: 'Alan Turing worked at Bletchley Park during the war.' } });
    expect(r.status).toBe(200);
    expect(r.body.content).toBe('Alan Turing worked at Bletchley Park during the war.');
    const names = r.body.entity_links.map((l: any) => l.name).join(' | ');
    expect(names).toMatch(/Turing/);
    expect(names).not.toMatch(/Hopper/);
    const after = (await t.api('GET', path)).body;
    expect(after.embedding).not.toEqual(before.embedding);
    expect(after.entity_links).toEqual(r.body.entity_links);
    expect(spy.mock.calls.some((c) => c[0].type === 'memory.written' && (c[0].data as any).op === 'update')).toBe(true);
    spy.mockRestore();
    // The old link is gone from the store too.
    const { rows: links } = await t.services.db.query(
      `SELECT e.name FROM entity_links l JOIN entities e ON e.id = l.entity_id WHERE l.tenant_id = 'p2' AND l.memory_id = $1`, [m.id]);
    expect(links.map((x) => x.name).join(' ')).not.toMatch(/Hopper/);
    // Same content again: no re-embedding.
    await t.api('PATCH', path, { body: { content: '  Alan Turing worked at Bletchley Park during the war. ', weight: 0.8 } });
    expect((await t.api('GET', path)).body.embedding).toEqual(after.embedding);
  });

  it('409 with existing_id when the new content duplicates another memory', async () => {
    const a = await write('p3', { content: 'Alpha content.' });
    const b = await write('p3', { content: 'Beta content.' });
    const r = await t.api('PATCH', `/api/v1/memories/${b.id}?tenant_id=p3`, { body: { content: 'Alpha content.', title: 'x' } });
    expect(r.status).toBe(409);
    expect(r.body.existing_id).toBe(a.id);
    const after = (await t.api('GET', `/api/v1/memories/${b.id}?tenant_id=p3`)).body;
    expect(after).toMatchObject({ content: 'Beta content.', title: 'Beta content' });
  });

  it('answers 422 to an empty body, metadata_mode without metadata, and bad values; 404 when missing or deleted', async () => {
    const m = await write('p4', { title: 'keep' });
    const path = `/api/v1/memories/${m.id}?tenant_id=p4`;
    const bad: [unknown, string, (string | number)[]][] = [
      [{}, path, ['body']],
      [{ unknown_field: 1 }, path, ['body', 'unknown_field']],
      [{ metadata_mode: 'replace' }, path, ['body', 'metadata_mode']],
      [{ title: 'x' }, `${path}&metadata_mode=merge`, ['query', 'metadata_mode']],
      [{ metadata: { a: 1 } }, `${path}&metadata_mode=overwrite`, ['query', 'metadata_mode']],
      [{ weight: '0.5' }, path, ['body', 'weight']],
      [{ memory_type: 'insight' }, path, ['body', 'memory_type']],
      [{ status: 'conflicted' }, path, ['body', 'status']],
      [{ content: '   ' }, path, ['body', 'content']],
      [{ metadata: null }, path, ['body', 'metadata']],
      [{ ts_valid_start: '2030-01-01T00:00:00Z', ts_valid_end: '2020-01-01T00:00:00Z' }, path, ['body', 'ts_valid_end']],
    ];
    for (const [body, p, loc] of bad) {
      const r = await t.api('PATCH', p, { body });
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.body.detail.map((d: any) => d.loc), JSON.stringify(body)).toContainEqual(loc);
    }
    expect((await t.api('PATCH', path, { raw: '{"title": ' })).status).toBe(422);
    // Without tenant_id the key's own tenant is meant, which does not hold this memory.
    expect((await t.api('PATCH', `/api/v1/memories/${m.id}`, { body: { title: 'x' } })).status).toBe(404);
    expect((await t.api('PATCH', `/api/v1/memories/${crypto.randomUUID()}?tenant_id=p4`, { body: { title: 'x' } })).status).toBe(404);
    expect((await t.api('GET', path)).body.title).toBe('keep');
    await t.api('DELETE', path);
    expect((await t.api('PATCH', path, { body: { title: 'x' } })).status).toBe(404);
  });
});

describe('PATCH /api/v1/memories/{id}/status', () => {
  it('returns id, status and previous_status (and Caura\'s memory_id, old_status, new_status)', async () => {
    const m = await write('s1');
    const path = `/api/v1/memories/${m.id}/status?tenant_id=s1`;
    expect((await t.api('PATCH', path, { body: { status: 'confirmed' } })).body).toEqual({
      id: m.id, status: 'confirmed', previous_status: 'active', memory_id: m.id, old_status: 'active', new_status: 'confirmed',
    });
    expect((await t.api('PATCH', path, { body: { status: 'archived' } })).body).toMatchObject({ id: m.id, status: 'archived', previous_status: 'confirmed' });
    for (const status of ['superseded', 'ACTIVE', '', 1]) {
      expect((await t.api('PATCH', path, { body: { status } })).status).toBe(422);
    }
    expect((await t.api('PATCH', path, { body: {} })).status).toBe(422);
    expect((await t.api('PATCH', `/api/v1/memories/${crypto.randomUUID()}/status?tenant_id=s1`, { body: { status: 'active' } })).status).toBe(404);
    expect((await t.api('GET', `/api/v1/memories/${m.id}?tenant_id=s1`)).body.status).toBe('archived');
  });
});

describe('deleting', () => {
  it('DELETE /memories soft-deletes the matching rows of the tenant, honouring exclude_ids and metadata_filter', async () => {
    const a = await write('d1', { memory_type: 'task', metadata: { project: 'x', env: 'prod' } });
    const b = await write('d1', { memory_type: 'task', metadata: { project: 'x', env: 'dev' } });
    const c = await write('d1', { memory_type: 'task', metadata: { project: 'x', env: 'prod' } });
    const d = await write('d1', { memory_type: 'fact', metadata: { project: 'x', env: 'prod' } });
    const r = await t.api('DELETE', '/api/v1/memories?tenant_id=d1&memory_type=task', {
      body: { exclude_ids: [c.id], metadata_filter: { project: 'x', env: 'prod' } },
    });
    expect(r.status).toBe(204);
    expect(r.text).toBe('');
    const live = (await t.api('GET', '/api/v1/memories?tenant_id=d1')).body.items.map((m: any) => m.id).sort();
    expect(live).toEqual([b.id, c.id, d.id].sort());
    const all = (await t.api('GET', '/api/v1/memories?tenant_id=d1&include_deleted=true')).body.items;
    expect(all.find((m: any) => m.id === a.id).deleted_at).not.toBeNull();
    await write('d2');
    expect((await t.api('DELETE', '/api/v1/memories?tenant_id=d1')).status).toBe(204);
    expect((await t.api('GET', '/api/v1/memories/count?tenant_id=d1')).body.count).toBe(0);
    expect((await t.api('GET', '/api/v1/memories/count?tenant_id=d2')).body.count).toBe(1);
  });

  it('requires tenant_id and validates the body', async () => {
    expect((await t.api('DELETE', '/api/v1/memories')).status).toBe(422);
    expect((await t.api('DELETE', '/api/v1/memories?tenant_id=d2', { body: { exclude_ids: ['nope'] } })).status).toBe(422);
    expect((await t.api('DELETE', '/api/v1/memories?tenant_id=d2', { body: { metadata_filter: 'x' } })).status).toBe(422);
    expect((await t.api('DELETE', '/api/v1/memories?tenant_id=d2', { raw: '{oops' })).status).toBe(422);
    expect((await t.api('GET', '/api/v1/memories/count?tenant_id=d2')).body.count).toBe(1);
  });

  it('an agent-scoped key deletes only its own memories; a tenant key leaves private ones alone', async () => {
    await write('d3', { agent_id: 'a1' });
    await write('d3', { agent_id: 'a2' });
    const priv = await write('d3', { agent_id: 'a2', visibility: 'scope_agent' });
    const k1 = await t.key('d3', { agent: 'a1' });
    expect((await t.api('DELETE', '/api/v1/memories?tenant_id=d3', { key: k1 })).status).toBe(204);
    const left = async () => (await t.api('GET', '/api/v1/memories?tenant_id=d3&agent_id=a2')).body.items.map((m: any) => m.agent_id).sort();
    expect(await left()).toEqual(['a2', 'a2']);
    const tk = await t.key('d3');
    await t.api('DELETE', '/api/v1/memories?tenant_id=d3', { key: tk });
    expect((await t.api('GET', '/api/v1/memories?tenant_id=d3&agent_id=a2')).body.items.map((m: any) => m.id)).toEqual([priv.id]);
  });

  it('bulk-delete soft-deletes by id and reports how many', async () => {
    const ms = [await write('d4'), await write('d4'), await write('d4')];
    const r = await t.api('POST', '/api/v1/memories/bulk-delete', {
      body: { tenant_id: 'd4', ids: [ms[0].id, ms[1].id, ms[1].id, crypto.randomUUID()] },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ deleted: 2 });
    expect((await t.api('POST', '/api/v1/memories/bulk-delete', { body: { tenant_id: 'd4', ids: [ms[0].id] } })).body).toEqual({ deleted: 0 });
    for (const body of [
      { tenant_id: 'd4', ids: [] },
      { tenant_id: 'd4', ids: ['x'] },
      { tenant_id: 'd4', ids: Array.from({ length: 1001 }, () => crypto.randomUUID()) },
    ]) {
      expect((await t.api('POST', '/api/v1/memories/bulk-delete', { body })).status).toBe(422);
    }
    // Without tenant_id the key's tenant is meant, which does not hold this memory.
    expect((await t.api('POST', '/api/v1/memories/bulk-delete', { body: { ids: [ms[2].id] } })).body).toEqual({ deleted: 0 });
    expect((await t.api('GET', '/api/v1/memories/count?tenant_id=d4')).body.count).toBe(1);
  });
});

describe('knowledge graph writes', () => {
  it('upserts entities per tenant, records relations with evidence, and withdraws them when the content changes', async () => {
    const content = 'Ada Lovelace works at Analytical Engines Ltd in London.';
    const extraction = await t.services.entities.extract(content);
    expect(extraction.relations.length).toBeGreaterThan(0);
    const a = await write('g1', { content });
    await write('g1', { content: 'London is rainy in November.' });
    await write('g2', { content: 'London has many bridges.' });
    const { rows: ents } = await t.services.db.query(
      `SELECT tenant_id, mention_count, aliases FROM entities WHERE tenant_id IN ('g1', 'g2') AND normalized_name = 'london' AND entity_type = 'place' ORDER BY tenant_id`);
    expect(ents.map((e) => [e.tenant_id, e.mention_count])).toEqual([['g1', 2], ['g2', 1]]);
    const evidence = async () => (await t.services.db.query(
      `SELECT count(*)::int AS n FROM relations WHERE tenant_id = 'g1' AND evidence_memory_ids @> ARRAY[$1::uuid]`, [a.id])).rows[0].n;
    expect(await evidence()).toBeGreaterThan(0);
    const r = await t.api('PATCH', `/api/v1/memories/${a.id}?tenant_id=g1`, { body: { content: 'nothing notable here at all.' } });
    expect(r.status).toBe(200);
    expect(r.body.entity_links).toEqual([]);
    expect(await evidence()).toBe(0);
    const { rows: after } = await t.services.db.query(
      `SELECT mention_count FROM entities WHERE tenant_id = 'g1' AND normalized_name = 'london' AND entity_type = 'place'`);
    expect(after[0].mention_count).toBe(1);
  });
});
