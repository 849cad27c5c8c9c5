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
  return comparableTo(alias, { agent_id: `$${a}::text`, visibility: `$${v}::text`, fleet_id: `$${f}::text` });
}

/** The same rule with the writer's scope given as SQL (parameters, or columns of an unnested batch). */
function comparableTo(alias: string, scope: { agent_id: string; visibility: string; fleet_id: string }): string {
  return `((${alias}.visibility <> 'scope_agent' AND ${scope.visibility} <> 'scope_agent') OR ${alias}.agent_id = ${scope.agent_id})
    AND ${alias}.fleet_id IS NOT DISTINCT FROM ${scope.fleet_id}`;
}

/** The rule against the scope columns of a batch row (`s` or `p` of an unnest). */
const comparableToRow = (row: string) => comparableTo('m', { agent_id: `${row}.agent_id`, visibility: `${row}.visibility`, fleet_id: `${row}.fleet_id` });

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

/** Several memories at once (a batch of detections), unless gone or deleted. */
export async function loadMemories(db: Queryable, tenantId: string, ids: string[]): Promise<DetectRow[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query(
    `SELECT ${DETECT_COLUMNS}, NULL AS similarity FROM memories m WHERE m.tenant_id = $1 AND m.id = ANY($2::uuid[]) AND m.deleted_at IS NULL`,
    [tenantId, ids]);
  return rows.map(toDetectRow);
}

/** Normalised names of the tenant's entities among `ids`: a writer's subject_entity_id resolves to the name texts use. */
export async function entityNames(db: Queryable, tenantId: string, ids: (string | null)[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((x): x is string => !!x).map((x) => x.toLowerCase()))];
  if (wanted.length === 0) return new Map();
  const { rows } = await db.query<{ id: string; normalized_name: string }>(
    `SELECT id, normalized_name FROM entities WHERE tenant_id = $1 AND id = ANY($2::uuid[])`, [tenantId, wanted]);
  return new Map(rows.map((r) => [r.id, r.normalized_name]));
}

/**
 * Replaces the triple-index rows of several memories in one transaction: one delete and one
 * insert for the batch. `fresh` ids are new rows (nothing indexed yet): without triples they need
 * no statement at all.
 */
export async function replaceTriplesBatch(
  db: Db, tenantId: string, items: Array<{ memoryId: string; triples: StoredTriple[]; source: 'writer' | 'content'; fresh: boolean }>,
) {
  const clear = items.filter((x) => !x.fresh || x.triples.length > 0).map((x) => x.memoryId);
  const rows = items.flatMap((x) => x.triples.map((t, ord) => ({ id: x.memoryId, ord, t, source: x.source })));
  if (clear.length === 0 && rows.length === 0) return;
  const write = async (q: Queryable) => {
    if (clear.length) await q.query(`DELETE FROM memory_triples WHERE tenant_id = $1 AND memory_id = ANY($2::uuid[])`, [tenantId, clear]);
    if (rows.length === 0) return;
    await q.query(
      `INSERT INTO memory_triples (memory_id, ord, tenant_id, subject, slot, predicate, object_norm, negated, source)
       SELECT x.id, x.ord, $1, x.s, x.sl, x.p, x.o, x.n, x.src
       FROM unnest($2::uuid[], $3::int[], $4::text[], $5::text[], $6::text[], $7::text[], $8::bool[], $9::text[]) AS x(id, ord, s, sl, p, o, n, src)`,
      [tenantId, rows.map((r) => r.id), rows.map((r) => r.ord), rows.map((r) => r.t.subject), rows.map((r) => r.t.slot),
        rows.map((r) => r.t.predicate), rows.map((r) => r.t.object_norm), rows.map((r) => r.t.negated), rows.map((r) => r.source)]);
  };
  if (rows.length === 0) return write(db);
  await db.tx(write);
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
 * The nearest rows of several memories in one statement: a lateral HNSW scan per memory, each
 * under its own writer's scope (the same conditions as comparableSql). Rows keyed by self_id.
 */
export async function neighboursBatch(db: Db, tenantId: string, selves: Array<{ id: string } & Scope>, k: number): Promise<Map<string, DetectRow[]>> {
  const out = new Map<string, DetectRow[]>(selves.map((s) => [s.id, []]));
  if (k <= 0 || selves.length === 0) return out;
  const { rows } = await db.queryWithSettings(
    // The planner cannot cost a vector given per outer row; without these it scans and sorts the
    // tenant's rows for each memory instead of walking the HNSW index (EXPLAIN on PGlite).
    { 'hnsw.iterative_scan': 'relaxed_order', enable_seqscan: 'off', enable_sort: 'off' },
    `SELECT s.id AS self_id, n.*
     FROM unnest($2::uuid[], $3::text[], $4::text[], $5::text[]) AS s(id, agent_id, visibility, fleet_id)
     JOIN memories e ON e.tenant_id = $1 AND e.id = s.id AND e.embedding IS NOT NULL
     CROSS JOIN LATERAL (
       SELECT ${DETECT_COLUMNS}, 1 - (m.embedding <=> e.embedding) AS similarity
       FROM memories m
       WHERE m.tenant_id = $1 AND m.id <> s.id AND m.deleted_at IS NULL AND m.embedding IS NOT NULL
         AND ${comparableToRow('s')}
       ORDER BY m.embedding <=> e.embedding
       LIMIT $6) n`,
    [tenantId, selves.map((s) => s.id), selves.map((s) => s.agent_id), selves.map((s) => s.visibility), selves.map((s) => s.fleet_id), k]);
  for (const r of rows) out.get(r.self_id)?.push(toDetectRow(r));
  return out;
}

/**
 * Other live rows linked to an entity each memory names (the write's own extraction), in one
 * statement: an update often shares a name with the row it replaces ("Ines", "Cloudflare") while
 * its wording, and so its vector, differs. Each entity contributes its perEntity most recent links
 * (an index range of entity_links_entity_recent, whatever the entity's size); rows sharing more
 * entities come first, at most `limit` per memory, each under its writer's scope.
 */
export async function sharedEntityIdsBatch(
  db: Queryable, tenantId: string, selves: Array<{ id: string } & Scope>, perEntity: number, limit: number,
): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(selves.map((s) => [s.id, []]));
  if (limit <= 0 || selves.length === 0) return out;
  const { rows } = await db.query<{ self_id: string; id: string }>(
    `WITH s AS (SELECT * FROM unnest($2::uuid[], $3::text[], $4::text[], $5::text[]) AS s(id, agent_id, visibility, fleet_id)),
     linked AS (
       SELECT s.id AS self_id, x.memory_id, count(*) AS n, max(x.created_at) AS linked_at
       FROM s
       JOIN LATERAL (SELECT DISTINCT entity_id FROM entity_links WHERE tenant_id = $1 AND memory_id = s.id) e ON true
       CROSS JOIN LATERAL (
         SELECT l.memory_id, l.created_at FROM entity_links l
         WHERE l.tenant_id = $1 AND l.entity_id = e.entity_id AND l.memory_id <> s.id
         ORDER BY l.created_at DESC LIMIT $6
       ) x
       GROUP BY s.id, x.memory_id
     ),
     ranked AS (
       SELECT linked.self_id, m.id,
              row_number() OVER (PARTITION BY linked.self_id ORDER BY linked.n DESC, linked.linked_at DESC, m.id) AS r
       FROM linked
       JOIN s ON s.id = linked.self_id
       JOIN memories m ON m.tenant_id = $1 AND m.id = linked.memory_id
       WHERE m.deleted_at IS NULL
         AND ${comparableToRow('s')}
     )
     SELECT self_id, id FROM ranked WHERE r <= $7 ORDER BY self_id, r`,
    [tenantId, selves.map((s) => s.id), selves.map((s) => s.agent_id), selves.map((s) => s.visibility), selves.map((s) => s.fleet_id), perEntity, limit]);
  for (const r of rows) out.get(r.self_id)?.push(r.id);
  return out;
}

/** Candidate rows of several memories with their similarity to it: (self, candidate) pairs in one statement. */
export async function loadCandidatesBatch(
  db: Queryable, tenantId: string, pairs: Array<{ self: { id: string } & Scope; id: string }>,
): Promise<Map<string, DetectRow[]>> {
  const out = new Map<string, DetectRow[]>();
  if (pairs.length === 0) return out;
  const { rows } = await db.query(
    `SELECT p.self_id, ${DETECT_COLUMNS},
       CASE WHEN m.embedding IS NULL OR e.embedding IS NULL THEN NULL ELSE 1 - (m.embedding <=> e.embedding) END AS similarity
     FROM unnest($2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::text[]) AS p(self_id, id, agent_id, visibility, fleet_id)
     JOIN memories m ON m.tenant_id = $1 AND m.id = p.id
     LEFT JOIN memories e ON e.tenant_id = $1 AND e.id = p.self_id
     WHERE m.id <> p.self_id AND m.deleted_at IS NULL
       AND ${comparableToRow('p')}`,
    [tenantId, pairs.map((p) => p.self.id), pairs.map((p) => p.id), pairs.map((p) => p.self.agent_id),
      pairs.map((p) => p.self.visibility), pairs.map((p) => p.self.fleet_id)]);
  for (const r of rows) (out.get(r.self_id) ?? out.set(r.self_id, []).get(r.self_id)!).push(toDetectRow(r));
  return out;
}

/**
 * How many entities (from the writes' own extraction) each candidate shares with its memory, for a
 * batch's (self, candidate) pairs: self id → candidate id → count. Each memory's entities are read
 * once and the pairs counted here: a long memory names dozens of entities, and joining the links
 * per pair cost more than the judging.
 */
export async function sharedEntityCountsBatch(
  db: Queryable, tenantId: string, pairs: Array<{ selfId: string; id: string }>,
): Promise<Map<string, Map<string, number>>> {
  const out = new Map<string, Map<string, number>>();
  if (pairs.length === 0) return out;
  const ids = [...new Set(pairs.flatMap((p) => [p.selfId, p.id]))];
  const { rows } = await db.query<{ memory_id: string; entity_ids: string[] }>(
    `SELECT memory_id, array_agg(entity_id::text) AS entity_ids FROM entity_links
     WHERE tenant_id = $1 AND memory_id = ANY($2::uuid[]) GROUP BY memory_id`,
    [tenantId, ids]);
  const entities = new Map(rows.map((r) => [r.memory_id, new Set(r.entity_ids)]));
  for (const p of pairs) {
    const mine = entities.get(p.selfId);
    const theirs = entities.get(p.id);
    if (!mine || !theirs) continue;
    let n = 0;
    for (const e of theirs) if (mine.has(e)) n++;
    if (n) (out.get(p.selfId) ?? out.set(p.selfId, new Map()).get(p.selfId)!).set(p.id, n);
  }
  return out;
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
 * One statement, and one new version per row: a row that is both an older and a newer side gets
 * its status and its link together (every update of a memory row writes all its indexes, the
 * vector index included).
 */
export async function applyFindings(db: Db, tenantId: string, statuses: StatusChange[], links: SupersedesLink[]) {
  if (statuses.length === 0 && links.length === 0) return { statuses: [] as StatusChange[], links: [] as SupersedesLink[] };
  const rows = new Map<string, { st: string | null; older: string | null }>();
  for (const s of statuses) rows.set(s.id, { st: s.status, older: null });
  for (const l of links) {
    const r = rows.get(l.newer_id);
    if (r) r.older = l.older_id;
    else rows.set(l.newer_id, { st: null, older: l.older_id });
  }
  const ids = [...rows.keys()];
  const { rows: out } = await db.query<{ id: string; new_status: 'outdated' | 'conflicted' | null; new_older: string | null }>(
    `WITH x AS (SELECT * FROM unnest($2::uuid[], $3::text[], $4::uuid[]) AS x(id, st, older)),
     cur AS (
       SELECT m.id, x.st, x.older, m.status, m.supersedes_id FROM memories m JOIN x ON x.id = m.id
       WHERE m.tenant_id = $1 AND m.deleted_at IS NULL FOR UPDATE OF m),
     want AS (
       SELECT id,
         CASE WHEN st IS NOT NULL AND status <> 'outdated' AND status <> st THEN st END AS new_status,
         CASE WHEN older IS NOT NULL AND supersedes_id IS NULL AND older <> id THEN older END AS new_older
       FROM cur)
     UPDATE memories AS m SET status = coalesce(w.new_status, m.status), supersedes_id = coalesce(w.new_older, m.supersedes_id), updated_at = now()
     FROM want w
     WHERE m.tenant_id = $1 AND m.id = w.id AND (w.new_status IS NOT NULL OR w.new_older IS NOT NULL)
     RETURNING m.id, w.new_status, w.new_older`,
    [tenantId, ids, ids.map((id) => rows.get(id)!.st), ids.map((id) => rows.get(id)!.older)]);
  return {
    statuses: out.filter((r) => r.new_status).map((r) => ({ id: r.id, status: r.new_status! })),
    links: out.filter((r) => r.new_older).map((r) => ({ newer_id: r.id, older_id: r.new_older! })),
  };
}
