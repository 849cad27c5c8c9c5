// Knowledge-graph writes of a memory: upsert its entities per tenant, link the memory to
// them, and record the relations it states. Runs inside the memory's own transaction.
// Batches are sorted by their unique key so concurrent writers lock rows in one order
// (no deadlocks between two transactions upserting the same entities).
import type { Queryable } from '../../store/db.js';
import type { Extraction } from '../../providers/entities/types.js';
import type { EntityLink } from '../memories/types.js';

const NAME_MAX = 200;
const VALUE_MAX = 500;
const PREDICATE_MAX = 100;
const ALIASES_MAX = 20;
/** Evidence ids kept per relation (oldest dropped first); mention_count keeps the full tally. */
const EVIDENCE_MAX = 100;

const ROLE_RANK: Record<string, number> = { subject: 0, object: 1, mention: 2 };

interface PlannedEntity {
  key: string;
  name: string;
  normalized: string;
  type: string;
  role: string;
}

const cut = (s: string, n: number) => (s.length > n ? s.slice(0, n) : s);

/** Unique entities of an extraction with the strongest role each plays; relation ends not typed by the extractor become `other`. */
function planEntities(x: Extraction): PlannedEntity[] {
  const byKey = new Map<string, PlannedEntity>();
  const byName = new Map<string, PlannedEntity>();
  for (const e of x.entities) {
    const normalized = cut(e.normalized.trim(), NAME_MAX);
    const name = cut(e.name.trim(), NAME_MAX) || normalized;
    if (!normalized) continue;
    const key = `${e.type}\u0000${normalized}`;
    if (byKey.has(key)) continue;
    const p = { key, name, normalized, type: e.type, role: 'mention' };
    byKey.set(key, p);
    if (!byName.has(normalized)) byName.set(normalized, p);
  }
  const ensure = (rawName: string, role: 'subject' | 'object') => {
    const normalized = cut(rawName.trim(), NAME_MAX);
    if (!normalized) return;
    let p = byName.get(normalized);
    if (!p) {
      p = { key: `other\u0000${normalized}`, name: normalized, normalized, type: 'other', role: 'mention' };
      byKey.set(p.key, p);
      byName.set(normalized, p);
    }
    if (ROLE_RANK[role] < ROLE_RANK[p.role]) p.role = role;
  };
  for (const r of x.relations) {
    ensure(r.subject, 'subject');
    if (r.objectIsEntity) ensure(r.object, 'object');
  }
  return [...byKey.values()].sort((a, b) => (a.type === b.type ? cmp(a.normalized, b.normalized) : cmp(a.type, b.type)));
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Removes what a memory contributed to the graph (its links and its relation evidence), so a
 * content change can record the new extraction in its place. Entities themselves stay: they are
 * tenant-wide history (first/last seen), only their mention counts drop.
 */
export async function withdrawMemory(q: Queryable, tenantId: string, memoryId: string): Promise<void> {
  const { rows } = await q.query<{ entity_id: string }>(
    `DELETE FROM entity_links WHERE tenant_id = $1 AND memory_id = $2 RETURNING entity_id`, [tenantId, memoryId]);
  if (rows.length) {
    await q.query(
      `UPDATE entities SET mention_count = greatest(mention_count - 1, 0)
       WHERE tenant_id = $1 AND id = ANY($2::uuid[])`,
      [tenantId, rows.map((r) => r.entity_id).sort()]);
  }
  const { rows: touched } = await q.query<{ id: string; mention_count: number }>(
    `UPDATE relations SET evidence_memory_ids = array_remove(evidence_memory_ids, $2::uuid),
       mention_count = greatest(mention_count - 1, 0)
     WHERE tenant_id = $1 AND evidence_memory_ids @> ARRAY[$2::uuid]
     RETURNING id, mention_count`, [tenantId, memoryId]);
  // A relation no memory states any more is gone from the graph.
  const emptied = touched.filter((r) => Number(r.mention_count) === 0);
  if (emptied.length) {
    await q.query(`DELETE FROM relations WHERE tenant_id = $1 AND id = ANY($2::uuid[]) AND mention_count = 0`,
      [tenantId, emptied.map((r) => r.id)]);
  }
}

/** The structured statement a write may carry; kept on the memory as given. */
export interface GivenTriple {
  subject_entity_id?: string | null;
  predicate?: string | null;
  object_value?: string | null;
}

/**
 * Records a memory's extraction: entities, links and relations. A given subject entity of the
 * same tenant is linked as the memory's subject, and a given predicate and object value become a
 * relation evidenced by the memory, exactly as written. Returns the memory's entity links.
 */
export async function recordExtraction(
  q: Queryable, tenantId: string, memoryId: string, x: Extraction, given: GivenTriple = {},
): Promise<EntityLink[]> {
  const planned = planEntities(x);
  const subject = given.subject_entity_id ? await givenSubject(q, tenantId, given.subject_entity_id) : null;
  if (planned.length === 0 && !subject) return [];
  const { rows } = planned.length === 0 ? { rows: [] } : await q.query<{ id: string; name: string; normalized_name: string; entity_type: string }>(
    `INSERT INTO entities (tenant_id, name, normalized_name, entity_type, aliases, mention_count)
     SELECT $1, x.n, x.k, x.t, ARRAY[x.n], 1 FROM unnest($2::text[], $3::text[], $4::text[]) AS x(n, k, t)
     ON CONFLICT (tenant_id, normalized_name, entity_type) DO UPDATE SET
       mention_count = entities.mention_count + 1,
       last_seen_at = now(),
       aliases = CASE WHEN EXCLUDED.name = ANY(entities.aliases) OR cardinality(entities.aliases) >= ${ALIASES_MAX}
                      THEN entities.aliases ELSE entities.aliases || EXCLUDED.name END
     RETURNING id, name, normalized_name, entity_type`,
    [tenantId, planned.map((p) => p.name), planned.map((p) => p.normalized), planned.map((p) => p.type)]);
  const idByKey = new Map<string, { id: string; name: string }>();
  for (const r of rows) idByKey.set(`${r.entity_type}\u0000${r.normalized_name}`, { id: r.id, name: r.name });
  const idByName = new Map<string, string>();
  for (const p of planned) {
    const e = idByKey.get(p.key);
    if (e && !idByName.has(p.normalized)) idByName.set(p.normalized, e.id);
  }

  const links: EntityLink[] = [];
  const mentions: string[] = [];
  for (const p of planned) {
    const e = idByKey.get(p.key);
    if (!e) continue;
    links.push({ entity_id: e.id, name: e.name, entity_type: p.type, role: p.role });
    mentions.push(p.name);
  }
  if (subject) {
    const extracted = links.find((l) => l.entity_id === subject.id);
    if (extracted) extracted.role = 'subject';
    else {
      // A link counts as a mention, as for extracted entities (withdrawMemory takes it back).
      await q.query(`UPDATE entities SET mention_count = mention_count + 1, last_seen_at = now() WHERE tenant_id = $1 AND id = $2`,
        [tenantId, subject.id]);
      links.push({ entity_id: subject.id, name: subject.name, entity_type: subject.entity_type, role: 'subject' });
      mentions.push(subject.name);
    }
  }
  await q.query(
    `INSERT INTO entity_links (memory_id, entity_id, tenant_id, role, mention)
     SELECT $1, x.e, $2, x.r, x.m FROM unnest($3::uuid[], $4::text[], $5::text[]) AS x(e, r, m)
     ON CONFLICT (memory_id, entity_id) DO NOTHING`,
    [memoryId, tenantId, links.map((l) => l.entity_id), links.map((l) => l.role), mentions]);

  const rels = new Map<string, { s: string; p: string; oe: string | null; ov: string | null; ok: string }>();
  for (const r of x.relations) {
    const s = idByName.get(cut(r.subject.trim(), NAME_MAX));
    const predicate = cut(r.predicate.trim(), PREDICATE_MAX);
    if (!s || !predicate) continue;
    let oe: string | null = null;
    let ov: string | null = null;
    if (r.objectIsEntity) {
      oe = idByName.get(cut(r.object.trim(), NAME_MAX)) ?? null;
      if (!oe) continue;
    } else {
      ov = cut(r.object.trim(), VALUE_MAX);
      if (!ov) continue;
    }
    const ok = oe ? `e:${oe}` : `v:${ov}`;
    rels.set(`${s}\u0000${predicate}\u0000${ok}`, { s, p: predicate, oe, ov, ok });
  }
  const givenPredicate = cut(given.predicate?.trim() ?? '', PREDICATE_MAX);
  const givenValue = cut(given.object_value?.trim() ?? '', VALUE_MAX);
  if (subject && givenPredicate && givenValue) {
    const ok = `v:${givenValue}`;
    rels.set(`${subject.id}\u0000${givenPredicate}\u0000${ok}`, { s: subject.id, p: givenPredicate, oe: null, ov: givenValue, ok });
  }
  if (rels.size) {
    const sorted = [...rels.entries()].sort((a, b) => cmp(a[0], b[0])).map(([, v]) => v);
    await q.query(
      `INSERT INTO relations (tenant_id, subject_entity_id, predicate, object_entity_id, object_value, object_key,
                              evidence_memory_ids, mention_count)
       SELECT $1, x.s, x.p, x.oe, x.ov, x.ok, ARRAY[$2::uuid], 1
       FROM unnest($3::uuid[], $4::text[], $5::uuid[], $6::text[], $7::text[]) AS x(s, p, oe, ov, ok)
       ON CONFLICT (tenant_id, subject_entity_id, predicate, object_key) DO UPDATE SET
         evidence_memory_ids = (CASE WHEN cardinality(relations.evidence_memory_ids) >= ${EVIDENCE_MAX}
                                     THEN relations.evidence_memory_ids[2:] ELSE relations.evidence_memory_ids END)
                               || $2::uuid,
         mention_count = relations.mention_count + 1,
         last_seen_at = now()`,
      [tenantId, memoryId, sorted.map((r) => r.s), sorted.map((r) => r.p), sorted.map((r) => r.oe),
        sorted.map((r) => r.ov), sorted.map((r) => r.ok)]);
  }
  return sortLinks(links);
}

/** The given subject entity, when it is an entity of this tenant (an id from elsewhere links nothing). */
async function givenSubject(q: Queryable, tenantId: string, id: string) {
  const { rows } = await q.query<{ id: string; name: string; entity_type: string }>(
    `SELECT id, name, entity_type FROM entities WHERE tenant_id = $1 AND id = $2::uuid`, [tenantId, id]);
  return rows[0] ?? null;
}

export function sortLinks(links: EntityLink[]): EntityLink[] {
  return links.sort((a, b) => ROLE_RANK[a.role] - ROLE_RANK[b.role] || cmp(a.name, b.name) || cmp(a.entity_id, b.entity_id));
}

/** Entity links of many memories at once (record shaping), keyed by memory id. */
export async function linksFor(q: Queryable, tenantIds: string[], memoryIds: string[]): Promise<Map<string, EntityLink[]>> {
  const out = new Map<string, EntityLink[]>();
  if (memoryIds.length === 0) return out;
  const { rows } = await q.query<{ memory_id: string; entity_id: string; name: string; entity_type: string; role: string }>(
    `SELECT l.memory_id, e.id AS entity_id, e.name, e.entity_type, l.role
     FROM entity_links l JOIN entities e ON e.id = l.entity_id AND e.tenant_id = l.tenant_id
     WHERE l.tenant_id = ANY($1::text[]) AND l.memory_id = ANY($2::uuid[])`,
    [[...new Set(tenantIds)], memoryIds]);
  for (const r of rows) {
    let list = out.get(r.memory_id);
    if (!list) out.set(r.memory_id, (list = []));
    list.push({ entity_id: r.entity_id, name: r.name, entity_type: r.entity_type, role: r.role });
  }
  for (const list of out.values()) sortLinks(list);
  return out;
}

/**
 * The entity links of memory `alias` as a JSON array column, for reads that fetch records and
 * their links in one statement; pass the value through parseLinksJson.
 */
export const linksJsonColumn = (alias: string) =>
  `coalesce((SELECT json_agg(json_build_object('entity_id', e.id, 'name', e.name, 'entity_type', e.entity_type, 'role', l.role))
     FROM entity_links l JOIN entities e ON e.id = l.entity_id AND e.tenant_id = l.tenant_id
     WHERE l.tenant_id = ${alias}.tenant_id AND l.memory_id = ${alias}.id), '[]'::json)`;

export function parseLinksJson(v: unknown): EntityLink[] {
  const list = (typeof v === 'string' ? JSON.parse(v) : v ?? []) as EntityLink[];
  return sortLinks(list.map((l) => ({ entity_id: l.entity_id, name: l.name, entity_type: l.entity_type, role: l.role })));
}
