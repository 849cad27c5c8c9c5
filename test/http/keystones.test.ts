// Keystones over HTTP (spec 2.4, 4.6; DEFAULTS "Keystones"): every rule of the shape, the merged
// list and its cap, the dynamic trust gates (stored row read first), X-Agent-ID, the open list,
// tenant isolation and the audit trail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';

const PATH = '/api/v1/loci/keystones';

describe('keystones', () => {
  let t: TestApp;
  let admin2: string; // trust 2, tenant acme, no agent
  let bob1: string; // agent bob, trust 1
  let bob0: string; // agent bob, trust 0
  let eve2: string; // agent eve, trust 2
  let other2: string; // tenant other, trust 2
  const T = 'acme';
  const rule = (over: Record<string, unknown> = {}) => ({
    tenant_id: T, doc_id: 'r1', title: 'Rule', content: 'Always cite sources.', scope: 'tenant', weight: 'med', ...over,
  });
  const put = (key: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    t.api('POST', PATH, { key, body, headers });
  const del = (key: string, docId: string, headers: Record<string, string> = {}, tenant = T) =>
    t.api('DELETE', `${PATH}/${docId}?tenant_id=${tenant}`, { key, headers });
  const list = (query: string, key: string | null = admin2) => t.api('GET', `${PATH}?${query}`, { key });

  beforeAll(async () => {
    t = await startTestApp();
    admin2 = await t.key(T, { trust: 2 });
    bob1 = await t.key(T, { agent: 'bob', trust: 1 });
    bob0 = await t.key(T, { agent: 'bob', trust: 0 });
    eve2 = await t.key(T, { agent: 'eve', trust: 2 });
    other2 = await t.key('other', { trust: 2 });
  });
  afterAll(async () => t?.close());

  it('stores weights as 25/50/100 and returns the rule flat and as Caura\'s document data', async () => {
    const r = await put(admin2, rule({ doc_id: 'w-high', weight: 'high' }));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      tenant_id: T, doc_id: 'w-high', scope: 'tenant', weight: 100, weight_label: 'high', fleet_id: null, agent_id: null,
      created: true, data: { title: 'Rule', content: 'Always cite sources.', weight: 100, scope: 'tenant' },
    });
    expect((await put(admin2, rule({ doc_id: 'w-low', weight: 'low' }))).body.weight).toBe(25);
    expect((await put(admin2, rule({ doc_id: 'w-med', weight: 'med' }))).body.weight).toBe(50);
    // Writing the doc_id again replaces the rule.
    const again = await put(admin2, rule({ doc_id: 'w-low', weight: 'high', content: 'Changed.' }));
    expect(again.body).toMatchObject({ created: false, weight: 100, content: 'Changed.', id: expect.any(String) });
    for (const d of ['w-high', 'w-low', 'w-med']) expect((await del(admin2, d)).status).toBe(200);
  });

  it('refuses bad shapes with 422 naming the field, and stores nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ doc_id: 'Bad_Id' }, 'doc_id'],
      [{ doc_id: '-x' }, 'doc_id'],
      [{ doc_id: 'x'.repeat(101) }, 'doc_id'],
      [{ scope: 'org' }, 'scope'],
      [{ weight: 'medium' }, 'weight'],
      [{ weight: 50 }, 'weight'],
      [{ title: '' }, 'title'],
      [{ content: undefined }, 'content'],
      [{ scope: 'tenant', fleet_id: 'f1' }, 'fleet_id'],
      [{ scope: 'tenant', agent_id: 'bob' }, 'agent_id'],
      [{ scope: 'fleet' }, 'fleet_id'],
      [{ scope: 'fleet', fleet_id: 'f1', agent_id: 'bob' }, 'agent_id'],
      [{ scope: 'agent' }, 'agent_id'],
    ];
    for (const [over, field] of cases) {
      const r = await put(admin2, rule({ doc_id: 'shape', ...over }));
      expect(r.status, JSON.stringify(over)).toBe(422);
      expect(r.body.detail.map((d: { loc: unknown[] }) => d.loc), JSON.stringify(over)).toContainEqual(['body', field]);
    }
    expect((await t.api('DELETE', `${PATH}/Bad_Id?tenant_id=${T}`, { key: admin2 })).status).toBe(422);
    expect((await list(`tenant_id=${T}`)).body).toEqual([]);
  });

  it('merges tenant, fleet and agent rules heaviest first, leaving out other fleets and agents', async () => {
    await put(admin2, rule({ doc_id: 'm-tenant', weight: 'low' }));
    await put(admin2, rule({ doc_id: 'm-fleet', scope: 'fleet', fleet_id: 'blue', weight: 'high' }));
    await put(admin2, rule({ doc_id: 'm-fleet-red', scope: 'fleet', fleet_id: 'red', weight: 'high' }));
    await put(admin2, rule({ doc_id: 'm-bob', scope: 'agent', agent_id: 'bob', weight: 'med' }));
    await put(admin2, rule({ doc_id: 'm-bob-blue', scope: 'agent', agent_id: 'bob', fleet_id: 'blue', weight: 'low' }));
    await put(admin2, rule({ doc_id: 'm-bob-red', scope: 'agent', agent_id: 'bob', fleet_id: 'red', weight: 'high' }));
    await put(admin2, rule({ doc_id: 'm-eve', scope: 'agent', agent_id: 'eve', weight: 'high' }));
    const ids = async (q: string, key?: string | null) => (await list(q, key)).body.map((k: { doc_id: string }) => k.doc_id);

    expect(await ids(`tenant_id=${T}`)).toEqual(['m-tenant']);
    expect(await ids(`tenant_id=${T}&fleet_id=blue`)).toEqual(['m-fleet', 'm-tenant']);
    expect(await ids(`tenant_id=${T}&agent_id=bob`)).toEqual(['m-bob', 'm-tenant']);
    // Heaviest first; within a weight the newest first (m-bob-blue was written after m-tenant).
    expect(await ids(`tenant_id=${T}&fleet_id=blue&agent_id=bob`)).toEqual(['m-fleet', 'm-bob', 'm-bob-blue', 'm-tenant']);
    // An agent-bound key lists its own agent's rules without naming it, and may not name another agent.
    expect(await ids(`tenant_id=${T}`, bob1)).toEqual(['m-bob', 'm-tenant']);
    expect((await list(`tenant_id=${T}&agent_id=eve`, bob1)).status).toBe(403);
    for (const d of ['m-tenant', 'm-fleet', 'm-fleet-red', 'm-bob', 'm-bob-blue', 'm-bob-red', 'm-eve']) await del(admin2, d);
  });

  it('caps the list at 50 with X-Truncated: true', async () => {
    for (let i = 0; i < 51; i++) await put(admin2, rule({ doc_id: `cap-${String(i).padStart(2, '0')}`, weight: i === 50 ? 'high' : 'low' }));
    const r = await list(`tenant_id=${T}`);
    expect(r.body).toHaveLength(50);
    expect(r.headers.get('x-truncated')).toBe('true');
    expect(r.body[0].doc_id).toBe('cap-50');
    await del(admin2, 'cap-50');
    const after = await list(`tenant_id=${T}`);
    expect(after.body).toHaveLength(50);
    expect(after.headers.get('x-truncated')).toBeNull();
    for (let i = 0; i < 50; i++) await del(admin2, `cap-${String(i).padStart(2, '0')}`);
  });

  it('lets an agent change its own agent rules at trust 1; everything else needs trust 2', async () => {
    const own = { scope: 'agent', agent_id: 'bob' };
    expect((await put(bob1, rule({ doc_id: 'bob-own', ...own }))).status).toBe(200);
    expect((await put(bob1, rule({ doc_id: 'bob-own', ...own, fleet_id: 'blue', content: 'Edited.' }))).status).toBe(200);
    for (const over of [{ scope: 'tenant' }, { scope: 'fleet', fleet_id: 'blue' }, { scope: 'agent', agent_id: 'eve' }]) {
      const r = await put(bob1, rule({ doc_id: 'bob-other', ...over }));
      expect(r.status, JSON.stringify(over)).toBe(403);
      expect(r.headers.get('content-type')).toContain('application/problem+json');
    }
    // Trust 0 changes nothing, not even its own rules.
    expect((await put(bob0, rule({ doc_id: 'bob-zero', ...own }))).status).toBe(403);
    // Trust 2 may write any scope, for any agent.
    expect((await put(eve2, rule({ doc_id: 'eve-for-bob', scope: 'agent', agent_id: 'bob' }))).status).toBe(200);
    expect((await list(`tenant_id=${T}&agent_id=bob&fleet_id=blue`)).body.map((k: { doc_id: string }) => k.doc_id).sort()).toEqual(['bob-own', 'eve-for-bob']);
    expect((await del(bob1, 'bob-own')).status).toBe(200);
    expect((await del(admin2, 'eve-for-bob')).status).toBe(200);
  });

  it('gates a replace and a delete by the rule as stored', async () => {
    await put(admin2, rule({ doc_id: 'stored-tenant', content: 'Never delete production data.' }));
    // Rewriting a tenant rule as one's own agent rule needs the stored rule's trust (2).
    const hijack = await put(bob1, rule({ doc_id: 'stored-tenant', scope: 'agent', agent_id: 'bob', content: 'Anything goes.' }));
    expect(hijack.status).toBe(403);
    const del1 = await del(bob1, 'stored-tenant');
    expect(del1.status).toBe(403);
    const kept = (await list(`tenant_id=${T}`)).body;
    expect(kept).toEqual([expect.objectContaining({ doc_id: 'stored-tenant', content: 'Never delete production data.' })]);
    // An agent rule of bob, once stored, is bob's to delete at trust 1 — and eve's at trust 2.
    await put(admin2, rule({ doc_id: 'bobs', scope: 'agent', agent_id: 'bob' }));
    expect((await del(bob1, 'bobs')).status).toBe(200);
    expect((await del(bob1, 'bobs')).status).toBe(404);
    // Below trust 1 the answer is 403 whether or not the rule exists: nothing to probe.
    expect((await del(bob0, 'stored-tenant')).status).toBe(403);
    expect((await del(bob0, 'no-such-rule')).status).toBe(403);
    expect((await del(admin2, 'no-such-rule')).status).toBe(404);
    expect((await del(admin2, 'stored-tenant')).body).toEqual({ deleted: true, doc_id: 'stored-tenant' });
  });

  it('refuses an X-Agent-ID that disagrees with the key, and does not let a header vouch for an agent', async () => {
    const own = rule({ doc_id: 'hdr', scope: 'agent', agent_id: 'bob' });
    expect((await put(bob1, own, { 'x-agent-id': 'eve' })).status).toBe(403);
    expect((await put(bob1, own, { 'x-agent-id': 'bob' })).status).toBe(200);
    expect((await del(bob1, 'hdr', { 'x-agent-id': 'eve' })).status).toBe(403);
    // A tenant key at trust 1 claiming to be bob by header is still not bob: the self tier needs a bound key.
    const tenant1 = await t.key(T, { trust: 1 });
    expect((await put(tenant1, rule({ doc_id: 'hdr2', scope: 'agent', agent_id: 'bob' }), { 'x-agent-id': 'bob' })).status).toBe(403);
    expect((await del(bob1, 'hdr', { 'x-agent-id': 'bob' })).status).toBe(200);
  });

  it('keeps tenants apart', async () => {
    await put(other2, rule({ tenant_id: 'other', doc_id: 'theirs', content: 'Other tenant secret policy.' }));
    expect((await put(admin2, rule({ tenant_id: 'other', doc_id: 'x' }))).status).toBe(403);
    expect((await del(admin2, 'theirs', {}, 'other')).status).toBe(403);
    expect((await list('tenant_id=other')).status).toBe(403);
    // The same doc_id in two tenants is two rules.
    await put(admin2, rule({ doc_id: 'theirs', content: 'Ours.' }));
    expect((await list(`tenant_id=${T}`)).body.map((k: { content: string }) => k.content)).toEqual(['Ours.']);
    expect((await list('tenant_id=other', other2)).body.map((k: { content: string }) => k.content)).toEqual(['Other tenant secret policy.']);
    await del(admin2, 'theirs');
    await del(other2, 'theirs', {}, 'other');
  });

  it('lists openly: without a key only the standalone tenant, with any key at trust 0', async () => {
    await put(t.adminKey, rule({ tenant_id: 'default', doc_id: 'open', content: 'Standalone rule.' }));
    await put(admin2, rule({ doc_id: 'acme-only' }));
    const open = await list('tenant_id=default', null);
    expect(open.status).toBe(200);
    expect(open.body.map((k: { doc_id: string }) => k.doc_id)).toEqual(['open']);
    expect((await list('', null)).body.map((k: { doc_id: string }) => k.doc_id)).toEqual(['open']);
    // The open list never reaches another tenant's rules without a key of it.
    expect((await list(`tenant_id=${T}`, null)).status).toBe(403);
    expect((await list(`tenant_id=${T}`, bob0)).status).toBe(200);
    expect((await list(`tenant_id=${T}`, 'loci_wrong-key')).status).toBe(401);
    expect((await t.api('GET', `${PATH}?tenant_id=${T}`, { key: null, headers: { authorization: `Bearer ${admin2}` } })).body
      .map((k: { doc_id: string }) => k.doc_id)).toEqual(['acme-only']);
    await del(t.adminKey, 'open', {}, 'default');
    await del(admin2, 'acme-only');
  });

  it('records every change in the audit trail', async () => {
    await put(bob1, rule({ doc_id: 'audited', scope: 'agent', agent_id: 'bob' }));
    await del(bob1, 'audited');
    const events = (await t.api('GET', `/api/v1/admin/audit-events?tenant_id=${T}`)).body.items
      .filter((e: { type: string }) => e.type.startsWith('keystone.'));
    expect(events.slice(0, 2)).toEqual([
      expect.objectContaining({ type: 'keystone.delete', actor_agent_id: 'bob', detail: expect.objectContaining({ doc_id: 'audited', scope: 'agent' }) }),
      expect.objectContaining({ type: 'keystone.set', actor_agent_id: 'bob', detail: expect.objectContaining({ doc_id: 'audited', agent_id: 'bob' }) }),
    ]);
  });
});

describe('keystones in multitenant mode', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ LOCI_MODE: 'multitenant' });
  });
  afterAll(async () => t?.close());

  it('answers 401 to an anonymous list: no tenant is readable without a key', async () => {
    expect((await t.api('GET', `${PATH}?tenant_id=default`, { key: null })).status).toBe(401);
    expect((await t.api('GET', `${PATH}?tenant_id=default`)).status).toBe(200);
  });
});
