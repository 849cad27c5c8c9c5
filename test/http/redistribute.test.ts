// POST /api/v1/memories/redistribute: trust gating, selection by ids or filter, visibility
// promotion, cross-fleet moves, content clashes in the target fleet, tenant isolation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

const path = (tenant: string, agent = 'ops') => `/api/v1/memories/redistribute?tenant_id=${tenant}&agent_id=${agent}`;

async function seed(tenant: string, rows: { agent: string; content: string; fleet?: string; visibility?: string; memory_type?: string }[]) {
  const r = await t.api('POST', '/api/v1/memories/bulk', {
    body: {
      tenant_id: tenant, agent_id: 'seed',
      items: rows.map((x) => ({
        content: x.content, agent_id: x.agent, fleet_id: x.fleet ?? null, visibility: x.visibility ?? 'scope_agent', memory_type: x.memory_type ?? 'fact',
      })),
    },
    headers: { 'x-bulk-attempt-id': `seed-${tenant}-${Math.random().toString(36).slice(2)}` },
  });
  if (r.status !== 200) throw new Error(`seed failed: ${r.status} ${r.text}`);
  return r.body.results.map((x: any) => x.id as string);
}

async function rowsOf(tenant: string) {
  const { rows } = await t.services.db.query(
    `SELECT id, agent_id, fleet_id, visibility FROM memories WHERE tenant_id = $1 ORDER BY content, agent_id`, [tenant]);
  return rows;
}

describe('redistribute', () => {
  it('needs trust level 3: lower keys get 403 and nothing moves', async () => {
    const [id] = await seed('r1', [{ agent: 'alice', content: 'Alice keeps the runbook.' }]);
    for (const trust of [0, 1, 2]) {
      const k = await t.key('r1', { trust });
      const r = await t.api('POST', path('r1'), { key: k, body: { target_agent_id: 'bob', memory_ids: [id] } });
      expect(r.status, `trust ${trust}`).toBe(403);
      expect(r.headers.get('content-type')).toMatch(/problem\+json/);
    }
    expect((await rowsOf('r1'))[0]).toMatchObject({ agent_id: 'alice', visibility: 'scope_agent' });
    const admin = await t.key('r1', { trust: 3 });
    const ok = await t.api('POST', path('r1'), { key: admin, body: { target_agent_id: 'bob', memory_ids: [id] } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ moved: 1, ids: [id], promoted: 1, skipped: [], has_more: false, target_agent_id: 'bob' });
  });

  it('moves a source agent\'s memories to the target, promoting scope_agent to scope_team; others stay', async () => {
    const ids = await seed('r2', [
      { agent: 'alice', content: 'a1 private note', visibility: 'scope_agent' },
      { agent: 'alice', content: 'a2 team note', visibility: 'scope_team' },
      { agent: 'alice', content: 'a3 org note', visibility: 'scope_org' },
      { agent: 'carol', content: 'c1 private note', visibility: 'scope_agent' },
    ]);
    const r = await t.api('POST', path('r2'), { body: { target_agent_id: 'bob', source_agent_id: 'alice' } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ moved: 3, promoted: 1, has_more: false });
    expect([...r.body.ids].sort()).toEqual(ids.slice(0, 3).sort());
    expect(r.body.target_fleet_id).toBeUndefined();
    expect((await rowsOf('r2')).map((x) => [x.agent_id, x.visibility])).toEqual([
      ['bob', 'scope_team'], ['bob', 'scope_team'], ['bob', 'scope_org'], ['carol', 'scope_agent'],
    ]);
    // The promoted memory is now visible to the rest of the team.
    const list = await t.api('GET', '/api/v1/memories?tenant_id=r2&agent_id=dave');
    expect(list.body.items.map((m: any) => m.content)).toContain('a1 private note');
  });

  it('narrows a filter by fleet and type, and pages with limit / has_more (oldest first)', async () => {
    await seed('r3', [
      { agent: 'alice', content: 'f1 fact one', fleet: 'f1' },
      { agent: 'alice', content: 'f1 fact two', fleet: 'f1' },
      { agent: 'alice', content: 'f1 decision', fleet: 'f1', memory_type: 'decision' },
      { agent: 'alice', content: 'f2 fact', fleet: 'f2' },
    ]);
    const body = { target_agent_id: 'bob', source_agent_id: 'alice', fleet_id: 'f1', memory_type: 'fact', limit: 1 };
    const a = await t.api('POST', path('r3'), { body });
    expect(a.body).toMatchObject({ moved: 1, has_more: true });
    const b = await t.api('POST', path('r3'), { body });
    expect(b.body).toMatchObject({ moved: 1, has_more: false });
    const c = await t.api('POST', path('r3'), { body });
    expect(c.body).toMatchObject({ moved: 0, ids: [], has_more: false });
    const rows = await rowsOf('r3');
    expect(rows.filter((x) => x.agent_id === 'bob').length).toBe(2);
    expect(rows.find((x) => x.fleet_id === 'f2')!.agent_id).toBe('alice');
  });

  it('crosses fleets with target_fleet_id; content the target fleet already holds is skipped, not duplicated', async () => {
    const ids = await seed('r4', [
      { agent: 'alice', content: 'Shared fact', fleet: 'red' },
      { agent: 'alice', content: 'Only in red', fleet: 'red' },
      { agent: 'bob', content: 'Shared fact', fleet: 'blue' },
    ]);
    const r = await t.api('POST', path('r4'), { body: { target_agent_id: 'bob', source_agent_id: 'alice', target_fleet_id: 'blue' } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ moved: 1, ids: [ids[1]], target_fleet_id: 'blue', skipped: [{ id: ids[0], reason: 'duplicate_content', existing_id: ids[2] }] });
    const rows = await rowsOf('r4');
    expect(rows.map((x) => [x.agent_id, x.fleet_id])).toEqual([['bob', 'blue'], ['alice', 'red'], ['bob', 'blue']]);
    // null takes rows out of any fleet.
    const out = await t.api('POST', path('r4'), { body: { target_agent_id: 'bob', memory_ids: [ids[1]], target_fleet_id: null } });
    expect(out.body).toMatchObject({ moved: 1, target_fleet_id: null });
    expect((await rowsOf('r4'))[0].fleet_id).toBeNull();
  });

  it('never touches another tenant: ids of another tenant are not found, and a non-admin key of another tenant is refused', async () => {
    const [theirs] = await seed('r5b', [{ agent: 'alice', content: 'Belongs to r5b' }]);
    await seed('r5a', [{ agent: 'alice', content: 'Belongs to r5a' }]);
    const r = await t.api('POST', path('r5a'), { body: { target_agent_id: 'bob', memory_ids: [theirs] } });
    expect(r.body).toMatchObject({ moved: 0, ids: [] });
    const filter = await t.api('POST', path('r5a'), { body: { target_agent_id: 'bob', source_agent_id: 'alice' } });
    expect(filter.body.moved).toBe(1);
    expect((await rowsOf('r5b'))[0].agent_id).toBe('alice');
    const foreign = await t.key('r5a', { trust: 2 });
    const denied = await t.api('POST', path('r5b'), { key: foreign, body: { target_agent_id: 'bob', source_agent_id: 'alice' } });
    expect(denied.status).toBe(403);
    expect((await rowsOf('r5b'))[0].agent_id).toBe('alice');
  });

  it('validates the request: selection required, query parameters required, bad ids and unknown fields refused', async () => {
    const cases: [string, unknown, (string | number)[]][] = [
      [path('r6'), { target_agent_id: 'bob' }, ['body']],
      [path('r6'), { target_agent_id: 'bob', memory_type: 'fact' }, ['body']],
      [path('r6'), { source_agent_id: 'alice' }, ['body', 'target_agent_id']],
      [path('r6'), { target_agent_id: 'bob', memory_ids: ['nope'] }, ['body', 'memory_ids', 0]],
      [path('r6'), { target_agent_id: 'bob', memory_ids: [] }, ['body', 'memory_ids']],
      [path('r6'), { target_agent_id: 'bob', source_agent_id: 'a', limit: 0 }, ['body', 'limit']],
      ['/api/v1/memories/redistribute?tenant_id=r6', { target_agent_id: 'bob', source_agent_id: 'a' }, ['query', 'agent_id']],
      ['/api/v1/memories/redistribute?agent_id=ops', { target_agent_id: 'bob', source_agent_id: 'a' }, ['query', 'tenant_id']],
    ];
    for (const [p, body, loc] of cases) {
      const r = await t.api('POST', p, { body });
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.body.detail.map((d: any) => d.loc)).toContainEqual(loc);
    }
  });
});
