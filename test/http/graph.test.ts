// Knowledge graph over HTTP: entities and relations extracted on write, GET /entities and
// GET /graph with their filters and bounds, visibility, tenant isolation, and audited
// cross-tenant reads (GET /admin/audit-events, the bus).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import type { BusEvent } from '../../src/infra/bus/types.js';

let t: TestApp;
const T = 'kg-a';
const ids: Record<string, string> = {};
let tenantKey: string; // tenant-scoped, no agent
let a2Key: string; // agent a2 of T
const busEvents: BusEvent[] = [];

async function write(key: string | undefined, body: Record<string, unknown>) {
  const r = await t.api('POST', '/api/v1/memories', { key, body: { tenant_id: T, agent_id: 'a1', ...body } });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body;
}

const entities = async (query: string, key?: string | null) => t.api('GET', `/api/v1/entities?${query}`, { key });
const graph = async (query: string, key?: string | null) => t.api('GET', `/api/v1/graph?${query}`, { key });
const byName = (list: any[], name: string) => list.find((e) => e.name === name);

beforeAll(async () => {
  t = await startTestApp();
  t.services.bus.subscribe('audit.cross_tenant_read', async (e) => {
    busEvents.push(e);
  });
  tenantKey = await t.key(T);
  a2Key = await t.key(T, { agent: 'a2' });
  ids.works = (await write(undefined, { content: 'Ada Lovelace works at Analytical Engines Ltd in London.', fleet_id: 'f1' })).id;
  ids.visit = (await write(undefined, { content: 'Dr. Ada Lovelace visited Microsoft in Seattle.', fleet_id: 'f2' })).id;
  ids.tools = (await write(undefined, { content: 'Sarah uses Slack and Jira at Acme Corp.', fleet_id: 'f1' })).id;
  ids.meet = (await write(undefined, { content: 'Alice met Bob in Paris on 5 June 2024.', fleet_id: 'f2' })).id;
  ids.babbage = (await write(undefined, { content: 'Charles Babbage lives in London.' })).id;
  // Private to agent a2: its entities and its evidence must not show to anyone else.
  ids.secret = (await write(a2Key, { agent_id: 'a2', content: 'Project Nightingale is run by Victor Krum.', visibility: 'scope_agent' })).id;
  ids.secretWorks = (await write(a2Key, { agent_id: 'a2', content: 'Ada Lovelace works at Analytical Engines Ltd.', visibility: 'scope_agent' })).id;
  // Another tenant with a namesake entity.
  await t.api('POST', '/api/v1/memories', { body: { tenant_id: 'kg-b', agent_id: 'b1', content: 'Ada Lovelace lives in Paris.' } });
});

afterAll(() => t?.close());

describe('GET /api/v1/entities', () => {
  it('lists typed entities with aliases, counts and first/last seen, most mentioned first', async () => {
    const r = await entities(`tenant_id=${T}`, tenantKey);
    expect(r.status).toBe(200);
    const list = r.body.entities;
    const ada = byName(list, 'Ada Lovelace');
    // Counts are tenant-wide: a2's private memory mentioning Ada counts, though it is not shown.
    expect(ada).toMatchObject({ tenant_id: T, entity_type: 'person', aliases: ['Dr. Ada Lovelace'], mention_count: 3 });
    expect(Object.keys(ada).sort()).toEqual(
      ['aliases', 'entity_type', 'first_seen_at', 'id', 'last_seen_at', 'mention_count', 'name', 'tenant_id']);
    expect(Date.parse(ada.last_seen_at)).toBeGreaterThanOrEqual(Date.parse(ada.first_seen_at));
    expect(byName(list, 'London')).toMatchObject({ entity_type: 'place', mention_count: 2 });
    expect(byName(list, 'Analytical Engines Ltd').entity_type).toBe('organization');
    expect(byName(list, 'Slack').entity_type).toBe('product');
    expect(list.find((e: any) => e.entity_type === 'date')).toMatchObject({ name: '5 June 2024' });
    expect(list[0]).toBe(ada);
    ids.ada = ada.id;
    ids.london = byName(list, 'London').id;
    ids.babbageEntity = byName(list, 'Charles Babbage').id;
  });

  it('filters by type, fleet and name or alias search, and honours the limit', async () => {
    const places = (await entities(`tenant_id=${T}&entity_type=place`, tenantKey)).body.entities;
    expect(places.map((e: any) => e.name).sort()).toEqual(['London', 'Paris', 'Seattle']);

    const f2 = (await entities(`tenant_id=${T}&fleet_id=f2`, tenantKey)).body.entities;
    expect(f2.map((e: any) => e.name)).toEqual(expect.arrayContaining(['Ada Lovelace', 'Microsoft', 'Seattle', 'Alice', 'Bob']));
    expect(f2.map((e: any) => e.name)).not.toContain('London');
    expect(f2.map((e: any) => e.name)).not.toContain('Slack');

    const search = (q: string) => entities(`tenant_id=${T}&search=${encodeURIComponent(q)}`, tenantKey).then((r) => r.body.entities.map((e: any) => e.name));
    expect(await search('lovelace')).toEqual(['Ada Lovelace']);
    expect(await search('DR. ADA')).toEqual(['Ada Lovelace']);
    expect(await search('lon')).toEqual(['London']);
    expect(await search('%')).toEqual([]);
    expect(await search('nightingale')).toEqual([]);

    const two = (await entities(`tenant_id=${T}&limit=2`, tenantKey)).body.entities;
    expect(two).toHaveLength(2);
  });

  it('hides entities only mentioned by another agent\'s scope_agent memories; their agent sees them', async () => {
    const names = (r: any) => r.body.entities.map((e: any) => e.name);
    expect(names(await entities(`tenant_id=${T}`, tenantKey))).not.toContain('Victor Krum');
    expect(names(await entities(`tenant_id=${T}`, await t.key(T, { agent: 'a1' })))).not.toContain('Victor Krum');
    const own = await entities(`tenant_id=${T}`, a2Key);
    expect(names(own)).toEqual(expect.arrayContaining(['Victor Krum', 'Project Nightingale']));
  });

  it('drops what only deleted memories mention, and counts no deleted memory', async () => {
    const london = async () => byName((await entities(`tenant_id=${T}&search=london`, tenantKey)).body.entities, 'London').mention_count;
    const before = await london();
    const m = await write(undefined, { content: 'Zanzibar Widgets opened an office in London.' });
    const names = async () => (await entities(`tenant_id=${T}&search=zanzibar`, tenantKey)).body.entities.map((e: any) => e.name);
    expect(await names()).toEqual(['Zanzibar Widgets']);
    expect(await london()).toBe(before + 1);
    const coOccurs = async () => (await graph(`tenant_id=${T}&entity_id=${ids.london}`, tenantKey)).body.relations
      .find((x: any) => x.predicate === 'co_occurs' && x.evidence_memory_ids.includes(m.id));
    expect(await coOccurs()).toMatchObject({ mention_count: 1 });
    expect((await t.api('DELETE', `/api/v1/memories/${m.id}?tenant_id=${T}`)).status).toBe(204);
    expect(await names()).toEqual([]);
    expect(await london()).toBe(before);
    expect(await coOccurs()).toBeUndefined();
    // A memory removed for good (a purge) stops counting too.
    const gone = await write(undefined, { content: 'Quillfeather Labs is based in London.' });
    expect(await london()).toBe(before + 1);
    await t.services.db.query(`DELETE FROM memories WHERE tenant_id = $1 AND id = $2`, [T, gone.id]);
    expect(await london()).toBe(before);
  });

  it('counts a relation once per live memory stating it: a delete, a purge and a rewrite each take theirs back', async () => {
    const texts = ['Ivel Robotics opened a lab in Lisbon.', 'Ivel Robotics hired engineers in Lisbon.', 'Ivel Robotics moved its archive to Lisbon.'];
    const written: any[] = [];
    for (const content of texts) written.push(await write(undefined, { content }));
    const ivel = byName((await entities(`tenant_id=${T}&search=ivel`, tenantKey)).body.entities, 'Ivel Robotics');
    const lisbon = byName((await entities(`tenant_id=${T}&search=lisbon`, tenantKey)).body.entities, 'Lisbon');
    const relation = async () => (await graph(`tenant_id=${T}&entity_id=${ivel.id}`, tenantKey)).body.relations
      .find((x: any) => [x.subject_entity_id, x.object_entity_id].includes(lisbon.id) && x.predicate === 'co_occurs');
    expect((await relation()).mention_count).toBe(3);
    expect((await t.api('DELETE', `/api/v1/memories/${written[0].id}?tenant_id=${T}`)).status).toBe(204);
    expect((await relation()).mention_count).toBe(2);
    await t.services.db.query(`DELETE FROM memories WHERE tenant_id = $1 AND id = $2`, [T, written[1].id]);
    expect((await relation()).mention_count).toBe(1);
    const patched = await t.api('PATCH', `/api/v1/memories/${written[2].id}?tenant_id=${T}`, { body: { content: 'Ivel Robotics moved its archive to Porto.' } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(await relation()).toBeUndefined();
  });

  it('keeps tenants apart', async () => {
    const otherKey = await t.key('kg-b');
    expect((await entities(`tenant_id=${T}`, otherKey)).status).toBe(403);
    const b = (await entities('tenant_id=kg-b', otherKey)).body.entities;
    expect(byName(b, 'Ada Lovelace').id).not.toBe(ids.ada);
    expect(byName(b, 'Ada Lovelace').mention_count).toBe(1);
    expect(b.map((e: any) => e.name)).not.toContain('London');
  });

  it('refuses bad input with 422', async () => {
    for (const q of [
      `tenant_id=${T}&limit=0`, `tenant_id=${T}&limit=501`, `tenant_id=${T}&limit=abc`, `tenant_id=${T}&entity_type=planet`,
      `tenant_id=${T}&search=`, `tenant_id=${T}&search=%20%20`, `tenant_id=${T}&search=${'x'.repeat(201)}`,
    ]) {
      const r = await entities(q, tenantKey);
      expect(r.status, q).toBe(422);
      expect(r.body.detail[0].loc[0]).toBe('query');
    }
    expect((await entities(`tenant_id=${T}`, null)).status).toBe(401);
  });
});

describe('relations', () => {
  it('records subject–verb–object and co-occurrence relations with their visible evidence', async () => {
    const r = await graph(`tenant_id=${T}&limit=500`, tenantKey);
    expect(r.status).toBe(200);
    const { entities: es, relations } = r.body;
    const idOf = (name: string) => byName(es, name).id;
    const worksAt = relations.find((x: any) => x.subject_entity_id === ids.ada && x.predicate === 'works_at');
    // Stated by a1's memory and by a2's private one: counted twice, only the visible one named.
    expect(worksAt).toMatchObject({ object_entity_id: idOf('Analytical Engines Ltd'), object_value: null, evidence_memory_ids: [ids.works], mention_count: 2 });
    expect(Object.keys(worksAt).sort()).toEqual(['evidence_memory_ids', 'first_seen_at', 'id', 'last_seen_at', 'mention_count',
      'object_entity_id', 'object_value', 'predicate', 'subject_entity_id']);
    expect(relations.find((x: any) => x.subject_entity_id === idOf('Charles Babbage') && x.predicate === 'lives_in').object_entity_id).toBe(ids.london);
    expect(relations.find((x: any) => x.predicate === 'co_occurs' && x.subject_entity_id === ids.ada && x.object_entity_id === ids.london)
      .evidence_memory_ids).toEqual([ids.works]);
    // Every relation connects entities of the answer; nothing private shows.
    const entityIds = new Set(es.map((e: any) => e.id));
    for (const rel of relations) {
      expect(entityIds.has(rel.subject_entity_id)).toBe(true);
      if (rel.object_entity_id) expect(entityIds.has(rel.object_entity_id)).toBe(true);
      expect(rel.evidence_memory_ids).not.toContain(ids.secret);
      expect(rel.evidence_memory_ids).not.toContain(ids.secretWorks);
    }
    expect(relations.find((x: any) => x.predicate === 'is_run_by')).toBeUndefined();

    // The agent that wrote the private memories sees their evidence.
    const own = (await graph(`tenant_id=${T}&limit=500`, a2Key)).body.relations;
    const ownWorksAt = own.find((x: any) => x.subject_entity_id === ids.ada && x.predicate === 'works_at');
    expect(ownWorksAt.evidence_memory_ids.sort()).toEqual([ids.works, ids.secretWorks].sort());
    expect(ownWorksAt.mention_count).toBe(2);
    expect(own.find((x: any) => x.predicate === 'is_run_by')).toBeDefined();
  });

  it('keeps a write\'s subject_entity_id / predicate / object_value as given and adds them to the graph', async () => {
    const adaCount = async () => byName((await entities(`tenant_id=${T}&search=ada`, tenantKey)).body.entities, 'Ada Lovelace').mention_count;
    const adaBefore = await adaCount();
    const m = await write(undefined, {
      content: 'Notes from the meeting.', subject_entity_id: ids.ada, predicate: 'favourite_language', object_value: 'Python',
    });
    expect(m).toMatchObject({ subject_entity_id: ids.ada, predicate: 'favourite_language', object_value: 'Python' });
    expect(m.entity_links).toEqual([{ entity_id: ids.ada, name: 'Ada Lovelace', entity_type: 'person', role: 'subject' }]);
    const given = async () => (await graph(`tenant_id=${T}&entity_id=${ids.ada}`, tenantKey)).body.relations
      .filter((x: any) => x.evidence_memory_ids.includes(m.id));
    expect(await given()).toMatchObject([{ subject_entity_id: ids.ada, predicate: 'favourite_language', object_entity_id: null, object_value: 'Python' }]);
    expect(await adaCount()).toBe(adaBefore + 1);

    // Changing the statement (not the text) moves the relation.
    const p = await t.api('PATCH', `/api/v1/memories/${m.id}?tenant_id=${T}`, { body: { object_value: 'Haskell' } });
    expect(p.status).toBe(200);
    expect(p.body).toMatchObject({ predicate: 'favourite_language', object_value: 'Haskell', content: 'Notes from the meeting.' });
    expect((await given()).map((x: any) => x.object_value)).toEqual(['Haskell']);
    expect(await adaCount()).toBe(adaBefore + 1);

    // An entity id of another tenant is stored as given but links nothing here.
    const foreign = (await entities('tenant_id=kg-b')).body.entities[0].id;
    const f = await write(undefined, { content: 'Another note.', subject_entity_id: foreign, predicate: 'likes', object_value: 'tea' });
    expect(f).toMatchObject({ subject_entity_id: foreign, predicate: 'likes', object_value: 'tea', entity_links: [] });
    const all = (await graph(`tenant_id=${T}&limit=500`)).body;
    expect(all.relations.some((x: any) => x.evidence_memory_ids.includes(f.id))).toBe(false);
    expect(all.entities.some((e: any) => e.id === foreign)).toBe(false);
  });
});

describe('GET /api/v1/graph', () => {
  it('returns the most mentioned entities and the relations among them, truncated to the limit', async () => {
    const r = await graph(`tenant_id=${T}&limit=3`, tenantKey);
    expect(r.status).toBe(200);
    expect(r.body.tenant_id).toBe(T);
    expect(r.body.entities).toHaveLength(3);
    expect(r.body.truncated).toBe(true);
    const inSet = new Set(r.body.entities.map((e: any) => e.id));
    for (const rel of r.body.relations) {
      expect(inSet.has(rel.subject_entity_id)).toBe(true);
      if (rel.object_entity_id) expect(inSet.has(rel.object_entity_id)).toBe(true);
    }
    const all = await graph(`tenant_id=${T}&limit=500`, tenantKey);
    expect(all.body.truncated).toBe(false);
  });

  it('returns the neighbourhood of an entity, depth hops out', async () => {
    const names = (r: any) => r.body.entities.map((e: any) => e.name);
    const d1 = await graph(`tenant_id=${T}&entity_id=${ids.ada}`, tenantKey);
    expect(d1.status).toBe(200);
    expect(names(d1)[0]).toBe('Ada Lovelace');
    expect(names(d1)).toEqual(expect.arrayContaining(['Analytical Engines Ltd', 'London', 'Microsoft', 'Seattle']));
    expect(names(d1)).not.toContain('Charles Babbage');
    expect(names(d1)).not.toContain('Slack');

    const d2 = await graph(`tenant_id=${T}&entity_id=${ids.ada}&depth=2`, tenantKey);
    expect(names(d2)).toContain('Charles Babbage');
    expect(names(d2)).not.toContain('Slack');
    expect(d2.body.relations.some((x: any) => x.subject_entity_id === ids.babbageEntity && x.predicate === 'lives_in')).toBe(true);

    const capped = await graph(`tenant_id=${T}&entity_id=${ids.ada}&depth=3&limit=2`, tenantKey);
    expect(capped.body.entities).toHaveLength(2);
    expect(capped.body.entities[0].id).toBe(ids.ada);
    expect(capped.body.truncated).toBe(true);

    // Uppercase uuids name the same entity.
    expect((await graph(`tenant_id=${T}&entity_id=${ids.ada.toUpperCase()}`, tenantKey)).body.entities[0].id).toBe(ids.ada);
  });

  it('answers 404 for an entity that is unknown, of another tenant or only privately mentioned', async () => {
    const secret = byName((await entities(`tenant_id=${T}&search=krum`, a2Key)).body.entities, 'Victor Krum');
    expect((await graph(`tenant_id=${T}&entity_id=${secret.id}`, a2Key)).status).toBe(200);
    expect((await graph(`tenant_id=${T}&entity_id=${secret.id}`, tenantKey)).status).toBe(404);
    expect((await graph(`tenant_id=${T}&entity_id=${crypto.randomUUID()}`, tenantKey)).status).toBe(404);
    const foreign = (await entities('tenant_id=kg-b')).body.entities[0].id;
    const r = await graph(`tenant_id=${T}&entity_id=${foreign}`, tenantKey);
    expect(r.status).toBe(404);
    expect(r.headers.get('content-type')).toMatch(/application\/problem\+json/);
  });

  it('keeps tenants apart', async () => {
    const otherKey = await t.key('kg-b');
    expect((await graph(`tenant_id=${T}`, otherKey)).status).toBe(403);
    const b = (await graph('tenant_id=kg-b', otherKey)).body;
    expect(b.entities.map((e: any) => e.name).sort()).toEqual(['Ada Lovelace', 'Paris']);
    expect(b.entities.some((e: any) => e.id === ids.ada)).toBe(false);
  });

  it('refuses bad input with 422', async () => {
    for (const q of [
      `tenant_id=${T}&limit=0`, `tenant_id=${T}&limit=501`, `tenant_id=${T}&entity_id=not-a-uuid`,
      `tenant_id=${T}&entity_id=${ids.ada}&depth=0`, `tenant_id=${T}&entity_id=${ids.ada}&depth=4`,
      `tenant_id=${T}&depth=2`,
    ]) {
      const r = await graph(q, tenantKey);
      expect(r.status, q).toBe(422);
      expect(r.body.detail[0].loc[0]).toBe('query');
    }
  });
});

describe('GET /api/v1/entities/{id}', () => {
  const entity = (id: string, query = `tenant_id=${T}`, key?: string | null) => t.api('GET', `/api/v1/entities/${id}?${query}`, { key });

  it('returns the entity with its relations and the memories mentioning it that the caller can see', async () => {
    const r = await entity(ids.ada, `tenant_id=${T}`, tenantKey);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: ids.ada, tenant_id: T, name: 'Ada Lovelace', entity_type: 'person' });
    expect(r.body.relations.length).toBeGreaterThan(0);
    for (const rel of r.body.relations) expect([rel.subject_entity_id, rel.object_entity_id]).toContain(ids.ada);
    expect(r.body.linked_memory_ids).toEqual(expect.arrayContaining([ids.works, ids.visit]));
    expect(r.body.linked_memory_ids).not.toContain(ids.secretWorks);
    // Agent a2 also sees its private memory mentioning her.
    const mine = (await entity(ids.ada, `tenant_id=${T}`, a2Key)).body.linked_memory_ids;
    expect(mine).toEqual(expect.arrayContaining([ids.works, ids.visit, ids.secretWorks]));
    expect(mine).toHaveLength(r.body.linked_memory_ids.length + 1);
    // The tenant default applies without tenant_id; uppercase uuids name the same entity.
    expect((await entity(ids.ada.toUpperCase(), '', tenantKey)).body.id).toBe(ids.ada);
  });

  it('answers 404 for an unknown, foreign or only privately mentioned entity, and 422 for a bad id', async () => {
    const secret = byName((await entities(`tenant_id=${T}&search=krum`, a2Key)).body.entities, 'Victor Krum');
    expect((await entity(secret.id, `tenant_id=${T}`, a2Key)).status).toBe(200);
    expect((await entity(secret.id, `tenant_id=${T}`, tenantKey)).status).toBe(404);
    expect((await entity(crypto.randomUUID(), `tenant_id=${T}`, tenantKey)).status).toBe(404);
    const foreign = (await entities('tenant_id=kg-b')).body.entities[0].id;
    expect((await entity(foreign, `tenant_id=${T}`, tenantKey)).status).toBe(404);
    expect((await entity(foreign, 'tenant_id=kg-b', tenantKey)).status).toBe(403);
    expect((await entity('not-a-uuid', `tenant_id=${T}`, tenantKey)).status).toBe(422);
  });
});

describe('cross-tenant reads', () => {
  const auditEvents = async (query = '') =>
    (await t.api('GET', `/api/v1/admin/audit-events?tenant_id=${T}&type=cross_tenant_read${query}`)).body;

  it('lets a key granted the tenant read its graph, audited to the source tenant', async () => {
    const reader = await t.key('kg-reader', { agent: 'a2', readable: [T] });
    const before = (await auditEvents()).items.length;
    const r = await entities(`tenant_id=${T}&entity_type=person`, reader);
    expect(r.status).toBe(200);
    expect(r.body.entities.map((e: any) => e.name)).toContain('Ada Lovelace');
    // Agent ids belong to their tenant: the reader's "a2" is not kg-a's a2.
    expect(r.body.entities.map((e: any) => e.name)).not.toContain('Victor Krum');
    expect((await graph(`tenant_id=${T}&entity_id=${ids.ada}`, reader)).status).toBe(200);

    const events = (await auditEvents()).items;
    expect(events.length).toBe(before + 2);
    expect(events[0]).toMatchObject({
      tenant_id: T, type: 'cross_tenant_read', actor_tenant_id: 'kg-reader', actor_agent_id: 'a2',
      detail: { resource: 'graph', query: { tenant_id: T, entity_id: ids.ada } },
    });
    expect(events[1].detail).toMatchObject({ resource: 'entities', query: { entity_type: 'person' } });
    expect(events[0].actor_key_id).toMatch(/^[0-9a-f-]{36}$/);
    await t.services.bus.drain();
    expect(busEvents.filter((e) => e.tenant_id === T).map((e) => (e.data as any).id)).toEqual(
      expect.arrayContaining([events[0].id, events[1].id]));
    expect(busEvents.find((e) => e.id === events[0].id)).toMatchObject({ type: 'audit.cross_tenant_read', tenant_id: T });

    // Its own tenant: no audit event.
    expect((await entities('tenant_id=kg-reader', reader)).status).toBe(200);
    expect((await t.api('GET', '/api/v1/admin/audit-events?tenant_id=kg-reader')).body.items).toEqual([]);
  });

  it('refuses keys without the grant (403) and audits nothing for them or for admins', async () => {
    const before = (await auditEvents()).items.length;
    const stranger = await t.key('kg-stranger', { readable: ['kg-b'] });
    expect((await entities(`tenant_id=${T}`, stranger)).status).toBe(403);
    expect((await graph(`tenant_id=${T}`, stranger)).status).toBe(403);
    expect((await entities(`tenant_id=${T}`)).status).toBe(200); // admin key
    expect((await auditEvents()).items.length).toBe(before);
  });

  it('lists audit events for admins only, newest first, with a cursor', async () => {
    const page1 = await auditEvents('&limit=1');
    expect(page1.items).toHaveLength(1);
    expect(page1.next_cursor).toEqual(expect.any(String));
    const page2 = await auditEvents(`&limit=1&cursor=${page1.next_cursor}`);
    expect(page2.items).toHaveLength(1);
    expect(page2.items[0].id).not.toBe(page1.items[0].id);
    expect(Date.parse(page2.items[0].created_at)).toBeLessThanOrEqual(Date.parse(page1.items[0].created_at));
    expect((await t.api('GET', '/api/v1/admin/audit-events?type=cross_tenant_read')).body.items.length).toBeGreaterThanOrEqual(2);

    expect((await t.api('GET', `/api/v1/admin/audit-events?tenant_id=${T}`, { key: tenantKey })).status).toBe(403);
    for (const q of ['limit=0', 'limit=501', 'cursor=nope', 'type=Bad Type']) {
      expect((await t.api('GET', `/api/v1/admin/audit-events?${q}`)).status, q).toBe(422);
    }
  });
});

describe('OpenAPI', () => {
  it('documents the graph and audit endpoints', async () => {
    const doc = (await t.api('GET', '/api/openapi.json')).body;
    for (const path of ['/api/v1/entities', '/api/v1/graph', '/api/v1/admin/audit-events']) {
      const op = doc.paths[path].get;
      expect(op.responses['200']).toBeDefined();
      expect(op.responses['422']).toBeDefined();
    }
    expect(doc.components.schemas.Entity).toBeDefined();
    expect(doc.components.schemas.Relation).toBeDefined();
  });
});
