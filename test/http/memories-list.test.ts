// Listing memories: pagination (cursor and offset), every sort, filters, bounds, aggregates and admin reads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { buildListQuery } from '../../src/core/memories/query.js';
import { SORTS } from '../../src/core/memories/types.js';

let t: TestApp;
const SEEDED = 300;

// Rows are inserted in SQL for speed. Timestamps come in groups of three equal values, so the
// id tie-breaker is exercised by every sort; some rows are private, some deleted.
async function seed() {
  await t.services.db.query(`
    INSERT INTO memories (id, tenant_id, fleet_id, agent_id, memory_type, content, content_hash, weight, status, visibility,
                          recall_count, created_at, expires_at, deleted_at, run_id)
    SELECT gen_random_uuid(), 'pager',
      (ARRAY['fleeta', 'fleetb', NULL])[1 + i % 3],
      (ARRAY['agenta', 'agentb', 'agentc', 'agentd'])[1 + i % 4],
      (ARRAY['fact', 'episode', 'decision', 'task', 'insight'])[1 + i % 5],
      'seeded memory ' || i, md5('seeded memory ' || i),
      (ARRAY[0.1, 0.5, 0.9])[1 + (i / 2) % 3],
      (ARRAY['active', 'confirmed', 'pending', 'active'])[1 + i % 4],
      CASE WHEN i % 10 = 0 THEN 'scope_agent' WHEN i % 7 = 0 THEN 'scope_org' ELSE 'scope_team' END,
      i % 6,
      timestamptz '2024-01-01T00:00:00Z' + (i / 3) * interval '1 second',
      CASE WHEN i % 4 = 0 THEN timestamptz '2030-01-01T00:00:00Z' + (i % 5) * interval '1 day' END,
      CASE WHEN i % 25 = 0 THEN timestamptz '2024-06-01T00:00:00Z' + (i % 2) * interval '1 hour' END,
      CASE WHEN i % 9 = 0 THEN 'run-9' END
    FROM generate_series(1, ${SEEDED}) AS i`);
  // Timestamps that differ only in microseconds, and exact ties: a millisecond cursor would repeat or skip them.
  await t.services.db.query(`
    INSERT INTO memories (id, tenant_id, agent_id, content, content_hash, created_at)
    SELECT gen_random_uuid(), 'micro', 'agenta', 'micro ' || i, md5('micro ' || i),
      timestamptz '2024-02-01T00:00:00.123Z' + (i % 20) * interval '1 microsecond'
    FROM generate_series(1, 60) AS i`);
}

beforeAll(async () => {
  t = await startTestApp();
  await seed();
});
afterAll(async () => t?.close());

async function expectedIds(tenant: string, where = `deleted_at IS NULL AND visibility <> 'scope_agent'`): Promise<string[]> {
  const { rows } = await t.services.db.query<{ id: string }>(
    `SELECT id FROM memories WHERE tenant_id = $1 AND ${where} ORDER BY created_at DESC, id DESC`, [tenant]);
  return rows.map((r) => r.id);
}

async function walkCursor(query: string, limit: number): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 1000; page++) {
    const r = await t.api('GET', `/api/v1/memories?${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(r.status, r.text).toBe(200);
    ids.push(...r.body.items.map((m: any) => m.id));
    cursor = r.body.next_cursor;
    if (!cursor) {
      expect(r.body.items.length).toBeLessThanOrEqual(limit);
      return ids;
    }
    expect(r.body.items).toHaveLength(limit);
  }
  throw new Error('cursor never ended');
}

/** The documented order: the sort column, then created_at and id (simple sorts: id), NULLs as the largest value; desc is the reverse of asc. */
function compareBy(sort: string, order: 'asc' | 'desc') {
  const cmp = (a: unknown, b: unknown) => {
    if (a === b) return 0;
    if (a === null) return 1;
    if (b === null) return -1;
    return (a as any) < (b as any) ? -1 : 1;
  };
  const simple = ['created_at', 'weight', 'recall_count', 'expires_at', 'deleted_at'].includes(sort);
  return (x: any, y: any) => {
    const s = order === 'asc' ? 1 : -1;
    const primary = cmp(x[sort], y[sort]) * s;
    if (primary) return primary;
    if (simple) return cmp(x.id, y.id) * s;
    return -s * (cmp(x.created_at, y.created_at) || cmp(x.id, y.id));
  };
}

describe('cursor pagination', () => {
  it('walks every visible row once, in created_at desc, id desc order', async () => {
    const expected = await expectedIds('pager');
    expect(expected.length).toBeGreaterThan(200);
    for (const limit of [37, 500]) {
      const ids = await walkCursor('tenant_id=pager', limit);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toEqual(expected);
    }
  });

  it('keeps microsecond order across pages', async () => {
    const expected = await expectedIds('micro');
    expect(await walkCursor('tenant_id=micro', 7)).toEqual(expected);
    expect(await walkCursor('tenant_id=micro', 1)).toEqual(expected);
  });

  it('with a viewer and include_deleted too', async () => {
    expect(await walkCursor('tenant_id=pager&agent_id=agenta&include_deleted=true', 50))
      .toEqual(await expectedIds('pager', `(visibility <> 'scope_agent' OR agent_id = 'agenta')`));
  });

  it('the cursor is opaque base64url; a malformed one is a 422, one with another sort a 400', async () => {
    const first = await t.api('GET', '/api/v1/memories?tenant_id=pager&limit=5');
    const cursor = first.body.next_cursor;
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    const [iso, id] = Buffer.from(cursor, 'base64url').toString().split('|');
    expect(iso).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(id).toBe(first.body.items[4].id);
    for (const bad of ['%%%', 'bm90LWEtY3Vyc29y', Buffer.from('2024-01-01T00:00:00Z|nope').toString('base64url'), Buffer.from('yesterday|' + id).toString('base64url')]) {
      const r = await t.api('GET', `/api/v1/memories?tenant_id=pager&cursor=${bad}`);
      expect(r.status, bad).toBe(422);
      expect(r.body.detail[0].loc).toEqual(['query', 'cursor']);
    }
    for (const q of ['sort=weight', 'order=asc', 'sort=created_at&order=asc', 'sort=status&order=desc']) {
      const r = await t.api('GET', `/api/v1/memories?tenant_id=pager&${q}&cursor=${cursor}`);
      expect(r.status, q).toBe(400);
      expect(r.headers.get('content-type')).toMatch(/problem\+json/);
    }
  });
});

describe('offset pagination and sorts', () => {
  it('every sort and order is total and deterministic: pages have no duplicates or gaps', async () => {
    for (const sort of SORTS) {
      for (const order of ['asc', 'desc'] as const) {
        const extra = sort === 'deleted_at' ? '&include_deleted=true' : '';
        const expected = await expectedIds('pager', `${extra ? 'true' : 'deleted_at IS NULL'} AND visibility <> 'scope_agent'`);
        const all: any[] = [];
        for (let offset = 0; ; offset += 45) {
          const r = await t.api('GET', `/api/v1/memories?tenant_id=pager&sort=${sort}&order=${order}&limit=45&offset=${offset}${extra}`);
          expect(r.status, r.text).toBe(200);
          all.push(...r.body.items);
          const more = offset + 45 < expected.length;
          // Only the cursor-capable sort hands out a cursor, and only while rows remain.
          expect(r.body.next_cursor !== null).toBe(sort === 'created_at' && order === 'desc' && more);
          if (!more) break;
        }
        const ids = all.map((m) => m.id);
        expect(new Set(ids).size, `${sort} ${order}`).toBe(ids.length);
        expect([...ids].sort(), `${sort} ${order}`).toEqual([...expected].sort());
        const sorted = [...all].sort(compareBy(sort, order));
        expect(ids, `${sort} ${order}`).toEqual(sorted.map((m) => m.id));
      }
    }
  });

  it('offset pagination with the default sort also hands out next_cursor; null on the last page', async () => {
    const p1 = await t.api('GET', '/api/v1/memories?tenant_id=pager&limit=10&offset=20');
    expect(p1.body.next_cursor).toEqual(expect.any(String));
    const expected = await expectedIds('pager');
    const p2 = await t.api('GET', `/api/v1/memories?tenant_id=pager&limit=10&cursor=${p1.body.next_cursor}`);
    expect(p2.body.items.map((m: any) => m.id)).toEqual(expected.slice(30, 40));
    const last = await t.api('GET', `/api/v1/memories?tenant_id=pager&limit=10&offset=${expected.length - 10}`);
    expect(last.body.items).toHaveLength(10);
    expect(last.body.next_cursor).toBeNull();
    expect((await t.api('GET', `/api/v1/memories?tenant_id=pager&offset=${expected.length}`)).body).toEqual({ items: [], next_cursor: null });
  });

  it('every sort is served by an index (no full sort of the tenant), recall_count excepted', async () => {
    await t.services.db.query('ANALYZE memories');
    // recall_count is written by every search: it is left unindexed so that update stays heap-only (migration 010).
    for (const sort of SORTS.filter((s) => s !== 'recall_count')) {
      for (const order of ['asc', 'desc'] as const) {
        const { sql, params } = buildListQuery({
          tenantId: 'pager', viewer: null, allVisibilities: false, includeDeleted: sort === 'deleted_at', sort, order, offset: 0, limit: 50,
        });
        const plan = await t.services.db.tx(async (q) => {
          // The table is small: make the planner show which index it would use at scale.
          await q.query('SET LOCAL enable_seqscan = off');
          await q.query('SET LOCAL enable_bitmapscan = off');
          const { rows } = await q.query(`EXPLAIN ${sql}`, params);
          return rows.map((r) => r['QUERY PLAN']).join('\n');
        });
        expect(plan, `${sort} ${order}\n${plan}`).toMatch(/Index Scan/);
        expect(plan, `${sort} ${order}\n${plan}`).not.toMatch(/^\s*(->\s*)?Sort\s+\(/m);
      }
    }
  });
});

describe('list parameters', () => {
  const list = async (q: string) => {
    const r = await t.api('GET', `/api/v1/memories?tenant_id=pager&limit=500&${q}`);
    expect(r.status, `${q}: ${r.text}`).toBe(200);
    return r.body.items as any[];
  };

  it('filters by type (semantic = fact), excluded types (repeated and comma lists), status, visibility, run, fleet, author and time', async () => {
    expect((await list('memory_type=episode')).every((m) => m.memory_type === 'episode')).toBe(true);
    expect((await list('memory_type=semantic')).map((m) => m.id)).toEqual((await list('memory_type=fact')).map((m) => m.id));
    const ex = await list('exclude_memory_types=fact&exclude_memory_types=episode,decision');
    expect(new Set(ex.map((m) => m.memory_type))).toEqual(new Set(['task', 'insight']));
    expect((await list('exclude_memory_types=semantic')).some((m) => m.memory_type === 'fact')).toBe(false);
    expect((await list('status=pending')).every((m) => m.status === 'pending')).toBe(true);
    expect((await list('visibility=scope_org')).every((m) => m.visibility === 'scope_org')).toBe(true);
    expect(await list('visibility=scope_agent')).toEqual([]);
    expect((await list('visibility=scope_agent&agent_id=agentc')).every((m) => m.agent_id === 'agentc' && m.visibility === 'scope_agent')).toBe(true);
    const run = await list('run_id=run-9');
    expect(run.length).toBeGreaterThan(0);
    expect(run.every((m) => m.run_id === 'run-9')).toBe(true);
    expect((await list('fleet_id=fleetb')).every((m) => m.fleet_id === 'fleetb')).toBe(true);
    const authored = await list('filter_agent_id=agentb');
    expect(authored.length).toBeGreaterThan(0);
    expect(authored.every((m) => m.agent_id === 'agentb')).toBe(true);
    const window = await list('created_after=2024-01-01T00:00:10Z&created_before=2024-01-01T00:00:20Z');
    expect(window.length).toBeGreaterThan(0);
    expect(window.every((m) => m.created_at > '2024-01-01T00:00:10.000Z' && m.created_at < '2024-01-01T00:00:20.000Z')).toBe(true);
    const heavy = await list('weight_min=0.5&weight_max=0.5');
    expect(heavy.length).toBeGreaterThan(0);
    expect(heavy.every((m) => m.weight === 0.5)).toBe(true);
    expect((await list('weight_min=0.6')).every((m) => m.weight >= 0.6)).toBe(true);
    expect((await list('weight_max=0.2')).every((m) => m.weight <= 0.2)).toBe(true);
    const withDeleted = await list('include_deleted=true');
    expect(withDeleted.some((m) => m.deleted_at !== null)).toBe(true);
    expect((await list('')).some((m) => m.deleted_at !== null)).toBe(false);
  });

  it('enforces bounds and value lists with 422', async () => {
    const bad: [string, string][] = [
      ['limit=0', 'limit'], ['limit=501', 'limit'], ['limit=ten', 'limit'], ['offset=-1', 'offset'], ['offset=1.5', 'offset'],
      ['sort=content', 'sort'], ['order=up', 'order'], ['memory_type=gossip', 'memory_type'], ['status=deleted', 'status'],
      ['visibility=public', 'visibility'], ['created_after=yesterday', 'created_after'], ['created_before=2024-13-01', 'created_before'],
      ['include_deleted=maybe', 'include_deleted'], ['exclude_memory_types=fact,gossip', 'exclude_memory_types'],
      ['fleet_id=', 'fleet_id'], ['weight_min=2', 'weight_min'], ['weight_max=-1', 'weight_max'],
    ];
    for (const [q, field] of bad) {
      const r = await t.api('GET', `/api/v1/memories?tenant_id=pager&${q}`);
      expect(r.status, q).toBe(422);
      expect(r.body.detail[0].loc.slice(0, 2), q).toEqual(['query', field]);
    }
    expect((await t.api('GET', '/api/v1/memories?tenant_id=pager&limit=1')).body.items).toHaveLength(1);
    expect((await t.api('GET', '/api/v1/memories?tenant_id=pager&limit=500')).body.items.length).toBeGreaterThan(200);
  });

  it('defaults to the caller\'s tenant and returns entity links on list items', async () => {
    const w = await t.api('POST', '/api/v1/memories', { body: { tenant_id: 'default', agent_id: 'a', content: 'Marie Curie worked in Paris.' } });
    expect(w.status).toBe(201);
    const r = await t.api('GET', '/api/v1/memories');
    expect(r.body.items.map((m: any) => m.id)).toEqual([w.body.id]);
    expect(r.body.items[0].entity_links).toEqual(w.body.entity_links);
    expect(r.body.items[0]).not.toHaveProperty('embedding');
  });
});

describe('aggregates', () => {
  it('stats count by type, agent and status; include_deleted adds the deleted counts', async () => {
    const { rows } = await t.services.db.query(
      `SELECT count(*) FILTER (WHERE deleted_at IS NULL AND visibility <> 'scope_agent')::int AS live,
              count(*) FILTER (WHERE deleted_at IS NOT NULL AND visibility <> 'scope_agent')::int AS deleted
       FROM memories WHERE tenant_id = 'pager'`);
    const s = (await t.api('GET', '/api/v1/memories/stats?tenant_id=pager')).body;
    expect(s.total).toBe(rows[0].live);
    expect(s).not.toHaveProperty('deleted');
    const sum = (o: Record<string, number>) => Object.values(o).reduce((a, b) => a + b, 0);
    expect(sum(s.by_type)).toBe(s.total);
    expect(sum(s.by_agent)).toBe(s.total);
    expect(sum(s.by_status)).toBe(s.total);
    expect(Object.keys(s.by_agent).sort()).toEqual(['agenta', 'agentb', 'agentc', 'agentd']);
    const d = (await t.api('GET', '/api/v1/memories/stats?tenant_id=pager&include_deleted=true')).body;
    expect(d).toMatchObject({ total: s.total, deleted: rows[0].deleted, total_including_deleted: rows[0].live + rows[0].deleted });
    const f = (await t.api('GET', '/api/v1/memories/stats?tenant_id=pager&memory_type=task&fleet_id=fleeta')).body;
    expect(Object.keys(f.by_type)).toEqual(['task']);
    expect((await t.api('GET', '/api/v1/memories/stats?tenant_id=pager&filter_agent_id=agentb')).body.by_agent).toEqual({ agentb: expect.any(Number) });
  });

  it('count is active and non-deleted only', async () => {
    const { rows } = await t.services.db.query(
      `SELECT count(*)::int AS n FROM memories WHERE tenant_id = 'pager' AND deleted_at IS NULL AND visibility <> 'scope_agent' AND status = 'active'`);
    expect((await t.api('GET', '/api/v1/memories/count?tenant_id=pager')).body).toEqual({ count: rows[0].n });
    const fleet = (await t.api('GET', '/api/v1/memories/count?tenant_id=pager&fleet_id=fleeta')).body.count;
    expect(fleet).toBeGreaterThan(0);
    expect(fleet).toBeLessThan(rows[0].n);
  });

  it('tenants and fleets', async () => {
    const admin = await t.api('GET', '/api/v1/tenants');
    expect(admin.body.tenants).toEqual(expect.arrayContaining(['default', 'micro', 'pager']));
    const k = await t.key('pager');
    expect((await t.api('GET', '/api/v1/tenants', { key: k })).body).toEqual({ tenants: ['pager'] });
    expect((await t.api('GET', '/api/v1/tenants', { key: await t.key('nobody') })).body).toEqual({ tenants: [] });
    const fleets = (await t.api('GET', '/api/v1/fleets?tenant_id=pager', { key: k })).body.fleets;
    expect(fleets.map((f: any) => f.fleet_id)).toEqual(['fleeta', 'fleetb']);
    const { rows } = await t.services.db.query(
      `SELECT count(*)::int AS n FROM memories WHERE tenant_id = 'pager' AND fleet_id = 'fleeta' AND deleted_at IS NULL AND visibility <> 'scope_agent'`);
    expect(fleets[0].count).toBe(rows[0].n);
    expect((await t.api('GET', '/api/v1/fleets', { key: k })).body.fleets).toEqual(fleets);
  });
});

describe('admin reads', () => {
  it('need trust 3', async () => {
    const k = await t.key('pager', { trust: 2 });
    for (const path of ['/api/v1/admin/tenants', '/api/v1/admin/fleets', '/api/v1/admin/memories', '/api/v1/admin/memories/stats', '/api/v1/admin/memories?tenant_id=pager']) {
      const r = await t.api('GET', path, { key: k });
      expect(r.status, path).toBe(403);
    }
  });

  it('list memories across tenants with every visibility; agent_id filters by author', async () => {
    const all: any[] = [];
    let cursor: string | null = null;
    do {
      const r: any = await t.api('GET', `/api/v1/admin/memories?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
      expect(r.status).toBe(200);
      all.push(...r.body.items);
      cursor = r.body.next_cursor;
    } while (cursor);
    const { rows } = await t.services.db.query(`SELECT id FROM memories WHERE deleted_at IS NULL ORDER BY created_at DESC, id DESC`);
    expect(all.map((m) => m.id)).toEqual(rows.map((r) => r.id));
    expect(new Set(all.map((m) => m.tenant_id))).toEqual(new Set(['pager', 'micro', 'default']));
    expect(all.some((m) => m.visibility === 'scope_agent')).toBe(true);
    const one = (await t.api('GET', '/api/v1/admin/memories?tenant_id=pager&agent_id=agentc&visibility=scope_agent&limit=500')).body.items;
    expect(one.length).toBeGreaterThan(0);
    expect(one.every((m: any) => m.agent_id === 'agentc' && m.tenant_id === 'pager')).toBe(true);
    const sorted = (await t.api('GET', '/api/v1/admin/memories?sort=tenant_id&order=asc&limit=500')).body.items;
    expect(sorted[0].tenant_id).toBe('default');
    expect((await t.api('GET', '/api/v1/admin/memories?limit=501')).status).toBe(422);
    expect((await t.api('GET', '/api/v1/admin/memories?sort=weight&cursor=abc')).status).toBe(400);
  });

  it('stats, tenants and fleets across tenants', async () => {
    const s = (await t.api('GET', '/api/v1/admin/memories/stats')).body;
    const { rows } = await t.services.db.query(`SELECT tenant_id, count(*)::int AS n FROM memories WHERE deleted_at IS NULL GROUP BY tenant_id`);
    expect(s.by_tenant).toEqual(Object.fromEntries(rows.map((r) => [r.tenant_id, r.n])));
    expect(s.total).toBe(rows.reduce((a, r) => a + r.n, 0));
    expect((await t.api('GET', '/api/v1/admin/memories/stats?tenant_id=micro')).body).toMatchObject({ total: 60, by_tenant: { micro: 60 } });
    expect((await t.api('GET', '/api/v1/admin/tenants')).body).toEqual({ tenants: ['default', 'micro', 'pager'] });
    const fleets = (await t.api('GET', '/api/v1/admin/fleets')).body.fleets;
    expect(fleets.map((f: any) => `${f.tenant_id}/${f.fleet_id}`)).toEqual(['pager/fleeta', 'pager/fleetb']);
    expect((await t.api('GET', '/api/v1/admin/fleets?tenant_id=micro')).body).toEqual({ fleets: [] });
  });
});

describe('OpenAPI', () => {
  it('documents the memory routes with the Memory component', async () => {
    const doc = (await t.api('GET', '/api/openapi.json')).body;
    expect(doc.components.schemas.Memory.properties).toHaveProperty('entity_links');
    const paths = ['/api/v1/memories', '/api/v1/memories/{memory_id}', '/api/v1/memories/{memory_id}/status', '/api/v1/memories/stats',
      '/api/v1/memories/count', '/api/v1/memories/bulk-delete', '/api/v1/tenants', '/api/v1/fleets', '/api/v1/admin/memories',
      '/api/v1/admin/memories/stats', '/api/v1/admin/tenants', '/api/v1/admin/fleets'];
    for (const p of paths) {
      expect(doc.paths, p).toHaveProperty([p]);
      for (const op of Object.values(doc.paths[p]) as any[]) {
        expect(op.summary, p).toBeTruthy();
        expect(op.tags?.length, p).toBeGreaterThan(0);
        expect(op.responses, p).toHaveProperty('422');
        expect(op.responses, p).toHaveProperty('401');
      }
    }
    expect(doc.paths['/api/v1/memories'].post.responses).toHaveProperty('201');
    expect(doc.paths['/api/v1/memories'].post.responses).toHaveProperty('409');
    expect(doc.paths['/api/v1/memories/{memory_id}'].delete.responses).toHaveProperty('204');
    expect(JSON.stringify(doc.paths['/api/v1/memories'].get.parameters)).toContain('filter_agent_id');
  });
});
