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
  if (rows.length === 0) return; // no entities, so evidence of no relation: its subject is always one of them
  const linked = rows.map((r) => r.entity_id).sort();
  await q.query(
    `UPDATE entities SET mention_count = greatest(mention_count - 1, 0)
     WHERE tenant_id = $1 AND id = ANY($2::uuid[])`,
    [tenantId, linked]);
  const { rows: touched } = await q.query<{ id: string; mention_count: number }>(
    `UPDATE relations SET evidence_memory_ids = array_remove(evidence_memory_ids, $2::uuid),
       mention_count = greatest(mention_count - 1, 0)
     WHERE tenant_id = $1 AND subject_entity_id = ANY($3::uuid[]) AND evidence_memory_ids @> ARRAY[$2::uuid]
     RETURNING id, mention_count`, [tenantId, memoryId, linked]);
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

export interface ExtractionItem {
  memoryId: string;
  extraction: Extraction;
  given?: GivenTriple;
}

/** Records one memory's extraction (and given triple); returns its entity links. */
export async function recordExtraction(
  q: Queryable, tenantId: string, memoryId: string, x: Extraction, given: GivenTriple = {},
): Promise<EntityLink[]> {
  return (await recordExtractions(q, tenantId, [{ memoryId, extraction: x, given }]))[0];
}

/**
 * Records the extractions of many memories with a handful of statements in all (a bulk write
 * would otherwise cost three per memory). Counts and evidence add up as if the memories were
 * recorded one after another. A given subject entity of the same tenant is linked as the memory's
 * subject, and a given predicate and object value become a relation evidenced by the memory,
 * exactly as written. Returns the entity links of each memory, in input order.
 */
export async function recordExtractions(q: Queryable, tenantId: string, items: ExtractionItem[]): Promise<EntityLink[][]> {
  const plans = items.map((i) => planEntities(i.extraction));
  const subjects = await givenSubjects(q, tenantId, items);
  const byEntity = new Map<string, { p: PlannedEntity; names: string[]; mentions: number }>();
  for (const plan of plans) {
    for (const p of plan) {
      const e = byEntity.get(p.key);
      if (!e) byEntity.set(p.key, { p, names: [p.name], mentions: 1 });
      else {
        e.mentions++;
        if (!e.names.includes(p.name)) e.names.push(p.name);
      }
    }
  }
  if (byEntity.size === 0 && subjects.size === 0) return items.map(() => []);
  const ents = [...byEntity.values()].sort((a, b) => (a.p.type === b.p.type ? cmp(a.p.normalized, b.p.normalized) : cmp(a.p.type, b.p.type)));
  // New spellings join the aliases (first seen first) while fewer than ALIASES_MAX are kept.
  // Ragged values (aliases here, evidence below) travel as one JSON or comma-joined text per row:
  // unnest takes no ragged arrays.
  const { rows } = ents.length === 0 ? { rows: [] } : await q.query<{ id: string; name: string; normalized_name: string; entity_type: string }>(
    `INSERT INTO entities (tenant_id, name, normalized_name, entity_type, aliases, mention_count)
     SELECT $1, x.n, x.k, x.t, (ARRAY(SELECT jsonb_array_elements_text(x.a)))[1:${ALIASES_MAX}], x.c
     FROM unnest($2::text[], $3::text[], $4::text[], $5::jsonb[], $6::int[]) AS x(n, k, t, a, c)
     ON CONFLICT (tenant_id, normalized_name, entity_type) DO UPDATE SET
       mention_count = entities.mention_count + EXCLUDED.mention_count,
       last_seen_at = now(),
       aliases = CASE WHEN cardinality(entities.aliases) >= ${ALIASES_MAX} THEN entities.aliases
                      ELSE (entities.aliases || ARRAY(SELECT u.a FROM unnest(EXCLUDED.aliases) WITH ORDINALITY AS u(a, o)
                                                      WHERE u.a <> ALL(entities.aliases) ORDER BY u.o))[1:${ALIASES_MAX}] END
     RETURNING id, name, normalized_name, entity_type`,
    [tenantId, ents.map((e) => e.p.name), ents.map((e) => e.p.normalized), ents.map((e) => e.p.type),
      ents.map((e) => JSON.stringify(e.names)), ents.map((e) => e.mentions)]);
  const idByKey = new Map<string, { id: string; name: string }>();
  for (const r of rows) idByKey.set(`${r.entity_type}\u0000${r.normalized_name}`, { id: r.id, name: r.name });

  const out: EntityLink[][] = [];
  const link = { m: [] as string[], e: [] as string[], r: [] as string[], n: [] as string[] };
  // Given subjects not among a memory's extracted entities: their links count as mentions too.
  const subjectMentions = new Map<string, number>();
  const rels = new Map<string, { s: string; p: string; oe: string | null; ov: string | null; ok: string; evidence: string[] }>();
  const addRelation = (mine: Set<string>, memoryId: string, r: { s: string; p: string; oe: string | null; ov: string | null }) => {
    const ok = r.oe ? `e:${r.oe}` : `v:${r.ov}`;
    const key = `${r.s}\u0000${r.p}\u0000${ok}`;
    if (mine.has(key)) return; // a memory is evidence of a relation once
    mine.add(key);
    const rel = rels.get(key);
    if (rel) rel.evidence.push(memoryId);
    else rels.set(key, { ...r, ok, evidence: [memoryId] });
  };
  items.forEach(({ memoryId, extraction: x, given }, i) => {
    const planned = plans[i];
    const idByName = new Map<string, string>();
    const links: EntityLink[] = [];
    const mentions: string[] = [];
    for (const p of planned) {
      const e = idByKey.get(p.key);
      if (!e) continue;
      if (!idByName.has(p.normalized)) idByName.set(p.normalized, e.id);
      links.push({ entity_id: e.id, name: e.name, entity_type: p.type, role: p.role });
      mentions.push(p.name);
    }
    const subject = given?.subject_entity_id ? subjects.get(given.subject_entity_id.toLowerCase()) : undefined;
    if (subject) {
      const extracted = links.find((l) => l.entity_id === subject.id);
      if (extracted) extracted.role = 'subject';
      else {
        links.push({ entity_id: subject.id, name: subject.name, entity_type: subject.entity_type, role: 'subject' });
        mentions.push(subject.name);
        subjectMentions.set(subject.id, (subjectMentions.get(subject.id) ?? 0) + 1);
      }
    }
    links.forEach((l, j) => {
      link.m.push(memoryId);
      link.e.push(l.entity_id);
      link.r.push(l.role);
      link.n.push(mentions[j]);
    });
    out.push(sortLinks(links));

    const mine = new Set<string>();
    for (const r of x.relations) {
      const s = idByName.get(cut(r.subject.trim(), NAME_MAX));
      const p = cut(r.predicate.trim(), PREDICATE_MAX);
      if (!s || !p) continue;
      if (r.objectIsEntity) {
        const oe = idByName.get(cut(r.object.trim(), NAME_MAX));
        if (oe) addRelation(mine, memoryId, { s, p, oe, ov: null });
      } else {
        const ov = cut(r.object.trim(), VALUE_MAX);
        if (ov) addRelation(mine, memoryId, { s, p, oe: null, ov });
      }
    }
    const gp = cut(given?.predicate?.trim() ?? '', PREDICATE_MAX);
    const gv = cut(given?.object_value?.trim() ?? '', VALUE_MAX);
    if (subject && gp && gv) addRelation(mine, memoryId, { s: subject.id, p: gp, oe: null, ov: gv });
  });
  if (subjectMentions.size) {
    const ids = [...subjectMentions.keys()].sort();
    await q.query(
      `UPDATE entities e SET mention_count = e.mention_count + x.c, last_seen_at = now()
       FROM unnest($2::uuid[], $3::int[]) AS x(id, c) WHERE e.tenant_id = $1 AND e.id = x.id`,
      [tenantId, ids, ids.map((id) => subjectMentions.get(id))]);
  }
  if (link.m.length) {
    await q.query(
      `INSERT INTO entity_links (memory_id, entity_id, tenant_id, role, mention)
       SELECT x.m, x.e, $1, x.r, x.n FROM unnest($2::uuid[], $3::uuid[], $4::text[], $5::text[]) AS x(m, e, r, n)
       ON CONFLICT (memory_id, entity_id) DO NOTHING`,
      [tenantId, link.m, link.e, link.r, link.n]);
  }
  if (rels.size) {
    const sorted = [...rels.entries()].sort((a, b) => cmp(a[0], b[0])).map(([, v]) => v);
    // Evidence keeps the EVIDENCE_MAX most recent memories; mention_count keeps the full tally.
    await q.query(
      `INSERT INTO relations (tenant_id, subject_entity_id, predicate, object_entity_id, object_value, object_key,
                              evidence_memory_ids, mention_count)
       SELECT $1, x.s, x.p, x.oe, x.ov, x.ok, x.ev[greatest(1, cardinality(x.ev) - ${EVIDENCE_MAX - 1}):], cardinality(x.ev)
       FROM (SELECT y.s, y.p, y.oe, y.ov, y.ok, string_to_array(y.ev, ',')::uuid[] AS ev
             FROM unnest($2::uuid[], $3::text[], $4::uuid[], $5::text[], $6::text[], $7::text[]) AS y(s, p, oe, ov, ok, ev)) AS x
       ON CONFLICT (tenant_id, subject_entity_id, predicate, object_key) DO UPDATE SET
         evidence_memory_ids = (relations.evidence_memory_ids || EXCLUDED.evidence_memory_ids)[
           greatest(1, cardinality(relations.evidence_memory_ids) + cardinality(EXCLUDED.evidence_memory_ids) - ${EVIDENCE_MAX - 1}):],
         mention_count = relations.mention_count + EXCLUDED.mention_count,
         last_seen_at = now()`,
      [tenantId, sorted.map((r) => r.s), sorted.map((r) => r.p), sorted.map((r) => r.oe), sorted.map((r) => r.ov),
        sorted.map((r) => r.ok), sorted.map((r) => r.evidence.join(','))]);
  }
  return out;
}

/** The given subject entities that belong to this tenant, by lower-cased id (an id from elsewhere links nothing). */
async function givenSubjects(q: Queryable, tenantId: string, items: ExtractionItem[]) {
  const out = new Map<string, { id: string; name: string; entity_type: string }>();
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
  const ids = [...new Set(items.map((i) => i.given?.subject_entity_id?.toLowerCase()).filter((id): id is string => !!id && UUID.test(id)))];
  if (ids.length === 0) return out;
  const { rows } = await q.query<{ id: string; name: string; entity_type: string }>(
    `SELECT id, name, entity_type FROM entities WHERE tenant_id = $1 AND id = ANY($2::uuid[])`, [tenantId, ids]);
  for (const r of rows) out.set(r.id.toLowerCase(), r);
  return out;
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
