// What every transport must do: each tool once (its ops too), with the REST shapes, and the
// refusals that do not depend on the transport. Run over Streamable HTTP and over stdio
// (embedded and proxy) by the test files.
import { expect } from 'vitest';
import { nested, ok, refused, type Call } from './helpers.js';

export interface Who {
  tenant: string;
  /** The agent the session acts as (the key's, or LOCI_AGENT_ID). */
  agent: string;
  /** A run-unique word, so repeated runs on one data dir do not collide. */
  tag: string;
}

export async function everyTool(call: Call, who: Who): Promise<void> {
  const { tag } = who;
  // Keystones: the agent's own rule needs trust 1 only.
  const rule = await ok(call, 'loci_keystones_set', {
    op: 'set', doc_id: `rule-${tag}`, title: 'Cite', content: 'Cite memory ids.', scope: 'agent', agent_id: who.agent, weight: 'high',
  });
  expect(rule).toMatchObject({ doc_id: `rule-${tag}`, weight: 100, weight_label: 'high', scope: 'agent', agent_id: who.agent, created: true });
  const rules = await ok(call, 'loci_keystones');
  expect(rules.truncated).toBe(false);
  expect(rules.count).toBe(rules.rules.length);
  expect(rules.rules.map((r: { doc_id: string }) => r.doc_id)).toContain(`rule-${tag}`);

  // Writes: one, then a batch.
  const one = await ok(call, 'loci_write', { content: `Ada Lovelace works at Analytical Engines in London (${tag}).`, memory_type: 'fact' });
  expect(one).toMatchObject({ tenant_id: who.tenant, agent_id: who.agent, memory_type: 'fact', visibility: 'scope_team', usage: expect.any(Object) });
  const batch = await ok(call, 'loci_write', {
    items: [{ content: `The deploy window is Tuesday at 10:00 (${tag}).` }, { content: `Grace prefers green tea (${tag}).`, memory_type: 'preference' }],
    visibility: 'scope_agent',
  });
  expect(batch).toMatchObject({ created: 2, errors: 0 });
  expect(batch.results.map((r: { status: string }) => r.status)).toEqual(['created', 'created']);

  // Recall, plain and with the brief.
  const found = await ok(call, 'loci_recall', { query: `When is the deploy window? ${tag}` });
  expect(found.items[0]).toMatchObject({ id: batch.results[0].id, visibility: 'scope_agent', similarity: expect.any(Number) });
  const brief = await ok(call, 'loci_recall', { query: `Where does Ada Lovelace work? ${tag}`, include_brief: true, top_k: 3 });
  expect(brief).toMatchObject({ summary: expect.stringContaining(one.id), summary_source: 'extractive', memory_count: expect.any(Number) });
  expect(brief.items).toEqual(brief.memories);

  // Browse and count.
  const listed = await ok(call, 'loci_list', { limit: 50 });
  expect(listed.items.every((m: { agent_id: string }) => m.agent_id === who.agent)).toBe(true);
  expect(listed.items.map((m: { id: string }) => m.id)).toEqual(expect.arrayContaining([one.id, ...batch.results.map((r: { id: string }) => r.id)]));
  const prefs = await ok(call, 'loci_list', { scope: 'all', memory_type: 'preference', limit: 50 });
  expect(prefs.items.map((m: { id: string }) => m.id)).toContain(batch.results[1].id);
  const stats = await ok(call, 'loci_stats');
  expect(stats).toMatchObject({ scope: 'agent', by_agent: { [who.agent]: stats.total } });
  expect(stats.by_type.preference).toBeGreaterThanOrEqual(1);

  // One memory: read, update, transition, lineage, delete, bulk delete.
  const read = await ok(call, 'loci_manage', { op: 'read', memory_id: one.id });
  expect(read).toMatchObject({ id: one.id, content: one.content, embedding_model: expect.any(String) });
  expect(read).not.toHaveProperty('embedding');
  const updated = await ok(call, 'loci_manage', { op: 'update', memory_id: one.id, title: 'Where Ada works', metadata: { checked: true } });
  expect(updated).toMatchObject({ id: one.id, title: 'Where Ada works', metadata: { checked: true } });
  const moved = await ok(call, 'loci_manage', { op: 'transition', memory_id: one.id, status: 'confirmed' });
  expect(moved).toEqual({ id: one.id, status: 'confirmed', previous_status: 'active', memory_id: one.id, old_status: 'active', new_status: 'confirmed' });
  expect(await ok(call, 'loci_manage', { op: 'lineage', memory_id: one.id })).toMatchObject({ detection_status: expect.any(String), contradictions: expect.any(Array) });

  // The entity the first memory mentions.
  const ada = one.entity_links.find((l: { name: string }) => l.name === 'Ada Lovelace');
  expect(ada).toBeDefined();
  const entity = await ok(call, 'loci_entity_get', { entity_id: ada.entity_id });
  expect(entity).toMatchObject({ id: ada.entity_id, name: 'Ada Lovelace', entity_type: 'person' });
  expect(entity.linked_memory_ids).toContain(one.id);

  expect(await ok(call, 'loci_manage', { op: 'delete', memory_id: one.id })).toEqual({ deleted: true, id: one.id });
  await refused(call, 404, 'loci_manage', { op: 'read', memory_id: one.id });
  expect(await ok(call, 'loci_manage', { op: 'bulk_delete', memory_ids: batch.results.map((r: { id: string }) => r.id) })).toEqual({ deleted: 2 });

  // Documents: every op.
  const coll = `notes-${tag}`;
  const doc = await ok(call, 'loci_doc', { op: 'write', collection: coll, doc_id: 'router', data: { title: 'Router reset', steps: 'Unplug the router for thirty seconds.', priority: 2 } });
  expect(doc).toMatchObject({ collection: coll, doc_id: 'router', created: true, data: { priority: 2 } });
  await ok(call, 'loci_doc', { op: 'write', collection: coll, doc_id: 'printer', data: { title: 'Printer jam', steps: 'Open tray two.', priority: 1 } });
  expect(await ok(call, 'loci_doc', { op: 'read', collection: coll, doc_id: 'router' })).toMatchObject({ doc_id: 'router', data: { title: 'Router reset' } });
  const q = await ok(call, 'loci_doc', { op: 'query', collection: coll, where: { priority: 1 } });
  expect(q).toMatchObject({ count: 1, items: [{ doc_id: 'printer' }] });
  const sorted = await ok(call, 'loci_doc', { op: 'query', collection: coll, order_by: 'priority', order: 'desc' });
  expect(sorted.items.map((d: { doc_id: string }) => d.doc_id)).toEqual(['router', 'printer']);
  const hits = await ok(call, 'loci_doc', { op: 'search', collection: coll, query: 'how do I reset the router' });
  expect(hits.items[0]).toMatchObject({ collection: coll, doc_id: 'router' });
  const cols = await ok(call, 'loci_doc', { op: 'list_collections' });
  expect(cols.collections).toContainEqual(expect.objectContaining({ collection: coll, count: 2 }));
  expect(await ok(call, 'loci_doc', { op: 'delete', collection: coll, doc_id: 'router' })).toEqual({ deleted: true, collection: coll, doc_id: 'router' });
  await refused(call, 404, 'loci_doc', { op: 'read', collection: coll, doc_id: 'router' });

  expect(await ok(call, 'loci_keystones_set', { op: 'delete', doc_id: `rule-${tag}` })).toEqual({ deleted: true, doc_id: `rule-${tag}` });
}

/** Refusals every transport answers the same: bad and deep arguments, identity mismatches, unknown tools. */
export async function refusals(call: Call, who: Who): Promise<void> {
  const bad = await refused(call, 422, 'loci_write', { content: 5 });
  expect(bad.detail[0]).toMatchObject({ loc: ['body', 'content'], type: 'string_type' });
  expect((await refused(call, 422, 'loci_write', { content: 'x', surprise: true })).detail[0]).toMatchObject({ loc: ['body', 'surprise'], type: 'extra_forbidden' });
  expect((await refused(call, 422, 'loci_recall', {})).detail[0]).toMatchObject({ loc: ['body', 'query'], type: 'missing' });
  expect((await refused(call, 422, 'loci_write', {})).detail.map((d: { loc: unknown[] }) => d.loc)).toEqual([['body', 'content'], ['body', 'items']]);
  await refused(call, 422, 'loci_manage', { op: 'read' });
  await refused(call, 422, 'loci_manage', { op: 'explode', memory_id: crypto.randomUUID() });
  await refused(call, 422, 'loci_doc', { op: 'write', collection: 'x', doc_id: 'Bad Id', data: {} });
  await refused(call, 422, 'loci_write', { items: [{ content: 'a' }], memory_type: 'fact' });
  await refused(call, 422, 'loci_list', { scope: 'agent', written_by: `${who.agent}-other` });

  // Nesting past the limit anywhere in the arguments, and keys that reach Object.prototype.
  const deep = await refused(call, 422, 'loci_write', { content: 'deep', metadata: nested(70) as Record<string, unknown> });
  expect(deep.detail[0]).toMatchObject({ type: 'json_too_deep', ctx: { max_depth: 64 } });
  // Over HTTP the body parser refuses such keys before MCP sees them (a 422, as for any REST body:
  // an error for a direct client, that 422 body as a tool error through the stdio proxy); the
  // embedded stdio server refuses them in the tool.
  const poisoned = { op: 'write', collection: 'x', doc_id: 'y', data: JSON.parse('{"a": {"__proto__": {"polluted": true}}}') };
  const answer = await call('loci_doc', poisoned).catch((err: Error) => err);
  if (answer instanceof Error) expect(answer.message).toMatch(/422|json_invalid/);
  else {
    expect(answer.isError).toBe(true);
    expect(answer.body.detail).toEqual([expect.objectContaining(
      answer.body.detail[0].type === 'json_invalid' ? { loc: ['body'] } : { loc: ['body', 'data', 'a', '__proto__'] })]);
  }
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();

  // Strings that cannot be stored: a tool error naming the place, never a crash; in a batch, that item's error.
  const nul = await refused(call, 422, 'loci_write', { content: `Nul\u0000here (${who.tag}).` });
  expect(nul.detail[0]).toMatchObject({ loc: ['body', 'content'], type: 'string_unstorable', ctx: { fault: 'nul' } });
  const lone = await refused(call, 422, 'loci_doc', { op: 'write', collection: 'x', doc_id: 'y', data: { ['k\ud800']: 'v' } });
  expect(lone.detail[0]).toMatchObject({ loc: ['body', 'data', 'k\ud800'], type: 'string_unstorable', ctx: { fault: 'surrogate' } });
  await refused(call, 422, 'loci_recall', { query: 'lone \udc00 surrogate' });
  const mixed = await ok(call, 'loci_write', { items: [{ content: `Storable (${who.tag}).` }, { content: 'Not\u0000storable.' }] });
  expect(mixed).toMatchObject({ created: 1, errors: 1 });
  expect(mixed.results[1]).toMatchObject({ status: 'error', error: expect.anything() });
  await ok(call, 'loci_manage', { op: 'delete', memory_id: mixed.results[0].id });

  // Identity comes from the key: another tenant or agent named in the arguments is refused.
  await refused(call, 403, 'loci_write', { content: `Not mine (${who.tag}).`, tenant_id: `${who.tenant}-other` });
  await refused(call, 403, 'loci_write', { content: `Not mine (${who.tag}).`, agent_id: `${who.agent}-other` });
  await refused(call, 403, 'loci_recall', { query: 'anything', agent_id: `${who.agent}-other` });
  await refused(call, 403, 'loci_keystones', { agent_id: `${who.agent}-other` });

  expect((await call('loci_nonexistent', {})).body).toMatchObject({ status: 404 });
}
