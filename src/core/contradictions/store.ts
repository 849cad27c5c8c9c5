// SQL of the contradiction detector: load a memory, find candidate rows (same writer subject,
// shared triples, nearest vectors), keep the triple index current and record findings as
// statuses and supersedes links. Every statement names the tenant; nothing here rewrites content.
import type { Db, Queryable } from '../../store/db.js';

/** A memory as the detector judges it. */
export interface DetectRow {
  id: string;
  content: string;
  subject_entity_id: string | null;
  predicate: string | null;
  object_value: string | null;
  status: string;
  supersedes_id: string | null;
  agent_id: string;
  visibility: string;
  fleet_id: string | null;
  /** created_at as fixed-width UTC text with microseconds: orders exactly, unlike a JS Date. */
  created_key: string;
  /** Cosine similarity to the memory under detection (null without embeddings). */
  similarity: number | null;
}

export interface StoredTriple {
  subject: string;
  slot: string;
  predicate: string;
  object_norm: string;
  negated: boolean;
}

const CREATED_KEY = `to_char(m.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') AS created_key`;
const DETECT_COLUMNS = `m.id, m.content, m.subject_entity_id, m.predicate, m.object_value, m.status, m.supersedes_id, m.agent_id, m.visibility, m.fleet_id, ${CREATED_KEY}`;

/** Whose memories a memory may be compared with: the writer's agent, visibility and fleet. */
export interface Scope {
  agent_id: string;
  visibility: string;
  fleet_id: string | null;
}

/**
 * SQL condition: row `m` and the memory of `scope` may be compared. A finding changes the older row
 * and links the newer one, so each must be a row its counterpart's writer could read and change: a
 * scope_agent memory compares only with memories of its own agent, and only memories of the same
 * fleet compare (no fleet with no fleet) — a fleet-confined writer may read rows of no fleet but
 * never change them, and the detector does not know whether a writer was confined.
 * Appends its three parameters to `params`.
 */
export function comparableSql(params: unknown[], scope: Scope, alias = 'm'): string {
  params.push(scope.agent_id, scope.visibility, scope.fleet_id);
  const [a, v, f] = [params.length - 2, params.length - 1, params.length];
  return `((${alias}.visibility <> 'scope_agent' AND $${v}::text <> 'scope_agent') OR ${alias}.agent_id = $${a}::text)
    AND ${alias}.fleet_id IS NOT DISTINCT FROM $${f}::text`;
}

function toDetectRow(r: Record<string, any>): DetectRow {
  return {
    id: r.id,
    content: r.content,
    subject_entity_id: r.subject_entity_id ?? null,
    predicate: r.predicate ?? null,
    object_value: r.object_value ?? null,
    status: r.status,
    supersedes_id: r.supersedes_id ?? null,
    agent_id: r.agent_id,
    visibility: r.visibility,
    fleet_id: r.fleet_id ?? null,
    created_key: r.created_key,
    similarity: r.similarity == null ? null : Number(r.similarity),
  };
}

/** The memory itself, unless it is gone or deleted. */
export async function loadMemory(db: Queryable, tenantId: string, id: string): Promise<DetectRow | null> {
  const { rows } = await db.query(
    `SELECT ${DETECT_COLUMNS}, NULL AS similarity FROM memories m WHERE m.tenant_id = $1 AND m.id = $2 AND m.deleted_at IS NULL`,
    [tenantId, id]);
  return rows[0] ? toDetectRow(rows[0]) : null;
}

/** Normalised names of the tenant's entities among `ids`: a writer's subject_entity_id resolves to the name texts use. */
export async function entityNames(db: Queryable, tenantId: string, ids: (string | null)[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((x): x is string => !!x).map((x) => x.toLowerCase()))];
  if (wanted.length === 0) return new Map();
  const { rows } = await db.query<{ id: string; normalized_name: string }>(
    `SELECT id, normalized_name FROM entities WHERE tenant_id = $1 AND id = ANY($2::uuid[])`, [tenantId, wanted]);
  return new Map(rows.map((r) => [r.id, r.normalized_name]));
}

/** Replaces a memory's rows in the triple index (idempotent: a rerun writes the same rows). */
export async function replaceTriples(db: Db, tenantId: string, memoryId: string, triples: StoredTriple[], source: 'writer' | 'content') {
  // Most memories have no triple: one statement, no transaction around it.
  if (triples.length === 0) {
    await db.query(`DELETE FROM memory_triples WHERE tenant_id = $1 AND memory_id = $2`, [tenantId, memoryId]);
    return;
  }
  await db.tx(async (q) => {
    await q.query(`DELETE FROM memory_triples WHERE tenant_id = $1 AND memory_id = $2`, [tenantId, memoryId]);
    if (triples.length === 0) return;
    await q.query(
      `INSERT INTO memory_triples (memory_id, ord, tenant_id, subject, slot, predicate, object_norm, negated, source)
       SELECT $1, x.ord, $2, x.s, x.sl, x.p, x.o, x.n, $3
       FROM unnest($4::int[], $5::text[], $6::text[], $7::text[], $8::text[], $9::bool[]) AS x(ord, s, sl, p, o, n)`,
      [memoryId, tenantId, source, triples.map((_, i) => i), triples.map((t) => t.subject), triples.map((t) => t.slot),
        triples.map((t) => t.predicate), triples.map((t) => t.object_norm), triples.map((t) => t.negated)]);
  });
}

/** Other live rows whose writer named the same subject entity (the memories_subject index). */
export async function sameSubjectIds(
  db: Queryable, tenantId: string, memoryId: string, scope: Scope, subjectEntityId: string, limit: number,
): Promise<string[]> {
  const params: unknown[] = [tenantId, subjectEntityId, memoryId, limit];
  const { rows } = await db.query<{ id: string }>(
    `SELECT m.id FROM memories m
     WHERE m.tenant_id = $1 AND m.subject_entity_id = $2 AND m.id <> $3 AND m.deleted_at IS NULL AND m.predicate IS NOT NULL
       AND ${comparableSql(params, scope)}
     ORDER BY m.created_at DESC LIMIT $4`,
    params);
  return rows.map((r) => r.id);
}

/** Other live rows with a triple about one of the (subject, slot) keys. */
export async function sharedTripleIds(
  db: Queryable, tenantId: string, memoryId: string, scope: Scope, keys: Array<{ subject: string; slot: string }>, limit: number,
): Promise<string[]> {
  if (keys.length === 0) return [];
  const params: unknown[] = [tenantId, memoryId, keys.map((k) => k.subject), keys.map((k) => k.slot), limit];
  const { rows } = await db.query<{ id: string }>(
    `SELECT m.id FROM (
       SELECT DISTINCT t.memory_id FROM memory_triples t
       JOIN unnest($3::text[], $4::text[]) AS k(s, sl) ON t.subject = k.s AND t.slot = k.sl
       WHERE t.tenant_id = $1 AND t.memory_id <> $2) x
     JOIN memories m ON m.id = x.memory_id
     WHERE m.tenant_id = $1 AND m.deleted_at IS NULL AND ${comparableSql(params, scope)}
     ORDER BY m.created_at DESC LIMIT $5`,
    params);
  return rows.map((r) => r.id);
}

/**
 * Other live rows linked to an entity this memory names (the write's own extraction): an update
 * often shares a name with the row it replaces ("Ines", "Cloudflare") while its wording, and so
 * its vector, differs. Each entity contributes its perEntity most recent links (an index range of
 * entity_links_entity_recent, whatever the entity's size); rows sharing more entities come first.
 */
export async function sharedEntityIds(
  db: Queryable, tenantId: string, memoryId: string, scope: Scope, perEntity: number, limit: number,
): Promise<string[]> {
  if (limit <= 0) return [];
  const params: unknown[] = [tenantId, memoryId, perEntity, limit];
  const { rows } = await db.query<{ id: string }>(
    `WITH linked AS (
       SELECT x.memory_id, count(*) AS n, max(x.created_at) AS linked_at
       FROM (SELECT DISTINCT entity_id FROM entity_links WHERE tenant_id = $1 AND memory_id = $2) s
       CROSS JOIN LATERAL (
         SELECT l.memory_id, l.created_at FROM entity_links l
         WHERE l.tenant_id = $1 AND l.entity_id = s.entity_id AND l.memory_id <> $2
         ORDER BY l.created_at DESC LIMIT $3
       ) x
       GROUP BY x.memory_id
     )
     SELECT m.id FROM linked JOIN memories m ON m.id = linked.memory_id
     WHERE m.tenant_id = $1 AND m.deleted_at IS NULL AND ${comparableSql(params, scope)}
     ORDER BY linked.n DESC, linked.linked_at DESC, m.id LIMIT $4`,
    params);
  return rows.map((r) => r.id);
}

/**
 * Nearest live rows of the tenant by cosine distance (HNSW), loaded as candidates with their
 * similarity (no second lookup). Iterative scan keeps a tenant filter from starving the result:
 * without it the index returns ef_search rows of every tenant and the filter leaves few.
 */
export async function neighbours(db: Db, tenantId: string, memoryId: string, scope: Scope, k: number): Promise<DetectRow[]> {
  if (k <= 0) return [];
  const params: unknown[] = [tenantId, memoryId, k];
  const { rows } = await db.queryWithSettings(
    { 'hnsw.iterative_scan': 'relaxed_order' },
    // The vector is a scalar subquery (an init plan, a constant to the planner): the index can order by it.
    `SELECT ${DETECT_COLUMNS}, 1 - (m.embedding <=> (SELECT e.embedding FROM memories e WHERE e.tenant_id = $1 AND e.id = $2)) AS similarity
     FROM memories m
     WHERE m.tenant_id = $1 AND m.id <> $2 AND m.deleted_at IS NULL AND m.embedding IS NOT NULL AND ${comparableSql(params, scope)}
     ORDER BY m.embedding <=> (SELECT e.embedding FROM memories e WHERE e.tenant_id = $1 AND e.id = $2)
     LIMIT $3`,
    params);
  return rows.map(toDetectRow);
}

/** Candidate rows with their similarity to the memory under detection. */
export async function loadCandidates(db: Queryable, tenantId: string, memoryId: string, scope: Scope, ids: string[]): Promise<DetectRow[]> {
  if (ids.length === 0) return [];
  const params: unknown[] = [tenantId, memoryId, ids];
  const { rows } = await db.query(
    `SELECT ${DETECT_COLUMNS},
       CASE WHEN m.embedding IS NULL OR s.e IS NULL THEN NULL ELSE 1 - (m.embedding <=> s.e) END AS similarity
     FROM memories m
     LEFT JOIN (SELECT embedding AS e FROM memories WHERE tenant_id = $1 AND id = $2) s ON true
     WHERE m.tenant_id = $1 AND m.id = ANY($3::uuid[]) AND m.id <> $2 AND m.deleted_at IS NULL AND ${comparableSql(params, scope)}`,
    params);
  return rows.map(toDetectRow);
}

/** How many entities (from the write's own extraction) each candidate shares with the memory: one indexed lookup. */
export async function sharedEntityCounts(db: Queryable, tenantId: string, memoryId: string, ids: string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.query<{ memory_id: string; n: number }>(
    `SELECT o.memory_id, count(*)::int AS n
     FROM entity_links s JOIN entity_links o ON o.tenant_id = s.tenant_id AND o.entity_id = s.entity_id
     WHERE s.tenant_id = $1 AND s.memory_id = $2 AND o.memory_id = ANY($3::uuid[])
     GROUP BY o.memory_id`,
    [tenantId, memoryId, ids]);
  return new Map(rows.map((r) => [r.memory_id, Number(r.n)]));
}

export interface StatusChange {
  id: string;
  status: 'outdated' | 'conflicted';
}

export interface SupersedesLink {
  newer_id: string;
  older_id: string;
}

/**
 * Records findings: older rows become outdated or conflicted (outdated is never downgraded), and
 * a newer row without a supersedes link points to its older row. Conditional updates make a
 * rerun change nothing. Returns what actually changed.
 */
export async function applyFindings(db: Db, tenantId: string, statuses: StatusChange[], links: SupersedesLink[]) {
  if (statuses.length === 0 && links.length === 0) return { statuses: [] as StatusChange[], links: [] as SupersedesLink[] };
  return db.tx(async (q) => {
    let changed: StatusChange[] = [];
    if (statuses.length) {
      const { rows } = await q.query<{ id: string; status: 'outdated' | 'conflicted' }>(
        `UPDATE memories AS m SET status = x.st, updated_at = now()
         FROM unnest($2::uuid[], $3::text[]) AS x(id, st)
         WHERE m.tenant_id = $1 AND m.id = x.id AND m.deleted_at IS NULL AND m.status <> 'outdated' AND m.status <> x.st
         RETURNING m.id, m.status`,
        [tenantId, statuses.map((s) => s.id), statuses.map((s) => s.status)]);
      changed = rows;
    }
    let linked: SupersedesLink[] = [];
    if (links.length) {
      const { rows } = await q.query<{ newer_id: string; older_id: string }>(
        `UPDATE memories AS m SET supersedes_id = x.older, updated_at = now()
         FROM unnest($2::uuid[], $3::uuid[]) AS x(newer, older)
         WHERE m.tenant_id = $1 AND m.id = x.newer AND m.supersedes_id IS NULL AND m.deleted_at IS NULL AND x.newer <> x.older
         RETURNING m.id AS newer_id, m.supersedes_id AS older_id`,
        [tenantId, links.map((l) => l.newer_id), links.map((l) => l.older_id)]);
      linked = rows;
    }
    return { statuses: changed, links: linked };
  });
}
