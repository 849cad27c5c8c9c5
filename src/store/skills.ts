// SQL of the skills workflow: organisation settings, the reject poison table, the Forge lease,
// Forge's reads of memories, and reads and guarded status changes of skill documents (rows of
// `documents` in the collection `skills`; creating and re-indexing them goes through the
// document store). Every statement is tenant-scoped.
import type { Queryable } from './db.js';
import { parseVector } from './db.js';

export const SKILLS = 'skills';

export interface SkillRow {
  tenant_id: string;
  fleet_id: string | null;
  doc_id: string;
  data: Record<string, any>;
  created_at: string;
  updated_at: string;
}

const iso = (v: unknown) => (v instanceof Date ? v : new Date(String(v))).toISOString();
const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);
const SKILL_COLUMNS = 'tenant_id, fleet_id, doc_id, data, created_at, updated_at';
// Microsecond text of updated_at: the version a guarded update compares against.
const VERSION = `to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS version`;

function toSkill(r: Record<string, any>): SkillRow & { version: string } {
  return {
    tenant_id: r.tenant_id, fleet_id: r.fleet_id ?? null, doc_id: r.doc_id, data: json(r.data),
    created_at: iso(r.created_at), updated_at: iso(r.updated_at), version: r.version,
  };
}

// ---- organisation settings ----

export async function readOrgSettings(q: Queryable, tenant: string): Promise<{ settings: Record<string, unknown>; updated_at: string } | null> {
  const { rows } = await q.query('SELECT settings, updated_at FROM org_settings WHERE tenant_id = $1', [tenant]);
  return rows[0] ? { settings: json(rows[0].settings), updated_at: iso(rows[0].updated_at) } : null;
}

export async function writeOrgSettings(q: Queryable, tenant: string, settings: Record<string, unknown>): Promise<string> {
  const { rows } = await q.query(
    `INSERT INTO org_settings (tenant_id, settings) VALUES ($1, $2::jsonb)
     ON CONFLICT (tenant_id) DO UPDATE SET settings = EXCLUDED.settings, updated_at = now()
     RETURNING updated_at`, [tenant, JSON.stringify(settings)]);
  return iso(rows[0].updated_at);
}

/** Tenants whose skills factory is switched on. */
export async function factoryTenants(q: Queryable): Promise<string[]> {
  const { rows } = await q.query(
    `SELECT tenant_id FROM org_settings WHERE settings -> 'skills_factory' -> 'enabled' = 'true'::jsonb ORDER BY tenant_id`);
  return rows.map((r) => r.tenant_id as string);
}

// ---- skill documents (reads and guarded status changes) ----

export async function readSkill(q: Queryable, tenant: string, slug: string) {
  // A slug is unique within a tenant whatever its fleet (the skills service keeps it so).
  const { rows } = await q.query(
    `SELECT ${SKILL_COLUMNS}, ${VERSION} FROM documents WHERE tenant_id = $1 AND collection = '${SKILLS}' AND doc_id = $2
     ORDER BY fleet_id NULLS FIRST LIMIT 1`, [tenant, slug]);
  return rows[0] ? toSkill(rows[0]) : null;
}

export interface SkillListQuery {
  status: string;
  /** Only skills of this fleet; absent: every fleet and the tenant-wide ones. */
  fleetId?: string | null;
  /** With fleetId: tenant-wide skills as well (what a fleet's agents receive). */
  withTenantWide?: boolean;
  limit: number;
  offset?: number;
  /** inbox: not deferred first, newest first; slug: by slug. */
  order: 'inbox' | 'slug';
}

export async function listSkills(q: Queryable, tenant: string, o: SkillListQuery) {
  const params: unknown[] = [tenant, o.status];
  let where = `tenant_id = $1 AND collection = '${SKILLS}' AND data ->> 'status' = $2`;
  if (o.fleetId) {
    params.push(o.fleetId);
    where += o.withTenantWide ? ` AND (fleet_id = $3 OR fleet_id IS NULL)` : ` AND fleet_id = $3`;
  }
  const order = o.order === 'inbox'
    ? `(data ->> 'deferred_at') IS NOT NULL, data ->> 'deferred_at', created_at DESC, doc_id`
    : 'doc_id';
  params.push(o.limit, o.offset ?? 0);
  const n = params.length;
  const [items, total] = await Promise.all([
    q.query(`SELECT ${SKILL_COLUMNS}, ${VERSION} FROM documents WHERE ${where} ORDER BY ${order} LIMIT $${n - 1} OFFSET $${n}`, params),
    q.query<{ count: number }>(`SELECT count(*)::int AS count FROM documents WHERE ${where}`, params.slice(0, n - 2)),
  ]);
  return { rows: items.rows.map(toSkill), total: Number(total.rows[0]?.count ?? 0) };
}

/** Forge's own skills: what a new cluster is matched against (same fingerprint, or mostly the same memories). */
export async function forgeSkills(q: Queryable, tenant: string) {
  const { rows } = await q.query(
    `SELECT ${SKILL_COLUMNS}, ${VERSION} FROM documents
     WHERE tenant_id = $1 AND collection = '${SKILLS}' AND data ->> 'source' = 'forge' ORDER BY doc_id`, [tenant]);
  return rows.map(toSkill);
}

/**
 * Replaces a skill's `data` only if it is still the version that was read (its updated_at):
 * null when someone changed it meanwhile. The indexed text is not touched (status changes).
 */
export async function updateSkillData(q: Queryable, tenant: string, slug: string, version: string, data: Record<string, unknown>) {
  const { rows } = await q.query(
    `UPDATE documents SET data = $4::jsonb, updated_at = clock_timestamp()
     WHERE tenant_id = $1 AND collection = '${SKILLS}' AND doc_id = $2
       AND to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') = $3
     RETURNING ${SKILL_COLUMNS}, ${VERSION}`, [tenant, slug, version, JSON.stringify(data)]);
  return rows[0] ? toSkill(rows[0]) : null;
}

// ---- reject poison table ----

export interface Rejection {
  tenant_id: string;
  fingerprint: string;
  slug: string;
  reason: string;
  rejected_by: string | null;
  rejected_at: Date;
  cooloff_days: number;
}

export async function insertRejection(q: Queryable, id: string, r: Rejection): Promise<void> {
  const expires = new Date(r.rejected_at.getTime() + r.cooloff_days * 86_400_000);
  await q.query(
    `INSERT INTO skill_rejections (id, tenant_id, fingerprint, slug, reason, rejected_by, rejected_at, cooloff_days, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [id, r.tenant_id, r.fingerprint, r.slug, r.reason, r.rejected_by, r.rejected_at.toISOString(), r.cooloff_days, expires.toISOString()]);
}

/** The rejection still cooling off at `now` for this fingerprint (the latest-expiring one), if any. */
export async function liveRejection(q: Queryable, tenant: string, fingerprint: string, now: Date) {
  const { rows } = await q.query(
    `SELECT slug, reason, rejected_at, expires_at FROM skill_rejections
     WHERE tenant_id = $1 AND fingerprint = $2 AND expires_at > $3 ORDER BY expires_at DESC LIMIT 1`,
    [tenant, fingerprint, now.toISOString()]);
  const r = rows[0];
  return r ? { slug: r.slug as string, reason: r.reason as string, rejected_at: iso(r.rejected_at), expires_at: iso(r.expires_at) } : null;
}

// ---- Forge lease ----

/** Takes the tenant's Forge lease unless a tick holds it (one that started over `staleMs` ago has died). */
export async function takeForgeLease(q: Queryable, tenant: string, now: Date, staleMs: number): Promise<boolean> {
  const { rows } = await q.query(
    `INSERT INTO skill_forge_runs AS r (tenant_id, running_since) VALUES ($1, $2)
     ON CONFLICT (tenant_id) DO UPDATE SET running_since = EXCLUDED.running_since
       WHERE r.running_since IS NULL OR r.running_since < $3
     RETURNING tenant_id`, [tenant, now.toISOString(), new Date(now.getTime() - staleMs).toISOString()]);
  return rows.length > 0;
}

export async function releaseForgeLease(q: Queryable, tenant: string, now: Date, report: unknown): Promise<void> {
  await q.query(
    `UPDATE skill_forge_runs SET running_since = NULL, last_tick_at = $2, last_report = $3::jsonb WHERE tenant_id = $1`,
    [tenant, now.toISOString(), JSON.stringify(report)]);
}

// ---- Forge inputs ----

export interface ForgeMemoryRow {
  id: string;
  agent_id: string;
  fleet_id: string | null;
  memory_type: string;
  title: string | null;
  content: string;
  created_at: string;
  /** When it happened as the writer said (ts_valid_start), else when it was written. */
  observed_at: string;
  domain: string | null;
  vector: number[];
}

/**
 * Recent memories Forge may learn from: written since `since`, of the given types, live
 * (not deleted, not superseded or withdrawn), shared with the team (never an agent's private
 * scope_agent rows: a skill is read by every agent), newest first, at most `limit`.
 */
export async function forgeMemories(q: Queryable, tenant: string, since: Date, until: Date, types: readonly string[], limit: number): Promise<ForgeMemoryRow[]> {
  const { rows } = await q.query(
    `SELECT id, agent_id, fleet_id, memory_type, title, content, created_at,
            coalesce(ts_valid_start, created_at) AS observed_at, metadata ->> 'domain' AS domain, embedding::text AS vector
     FROM memories
     WHERE tenant_id = $1 AND deleted_at IS NULL AND created_at >= $2 AND created_at <= $3
       AND memory_type = ANY($4::text[]) AND status IN ('active', 'confirmed')
       AND visibility <> 'scope_agent' AND embedding IS NOT NULL
       AND (expires_at IS NULL OR expires_at > $3)
     ORDER BY created_at DESC, id LIMIT $5`,
    [tenant, since.toISOString(), until.toISOString(), [...types], limit]);
  return rows.map((r) => ({
    id: r.id, agent_id: r.agent_id, fleet_id: r.fleet_id ?? null, memory_type: r.memory_type, title: r.title ?? null,
    content: r.content, created_at: iso(r.created_at), observed_at: iso(r.observed_at),
    domain: typeof r.domain === 'string' && r.domain.trim() ? r.domain.trim() : null,
    vector: parseVector(r.vector) ?? [],
  }));
}

/** Entities each memory mentions, dates and durations aside ("to 30 seconds" names no topic): memory id → [{id, name}]. */
export async function memoryEntities(q: Queryable, tenant: string, ids: string[]): Promise<Map<string, { id: string; name: string }[]>> {
  const out = new Map<string, { id: string; name: string }[]>();
  if (!ids.length) return out;
  const { rows } = await q.query(
    `SELECT l.memory_id, e.id, e.name FROM entity_links l JOIN entities e ON e.id = l.entity_id AND e.tenant_id = l.tenant_id
     WHERE l.tenant_id = $1 AND l.memory_id = ANY($2::uuid[]) AND e.entity_type <> 'date'`, [tenant, ids]);
  for (const r of rows) {
    const list = out.get(r.memory_id) ?? [];
    list.push({ id: r.id, name: r.name });
    out.set(r.memory_id, list);
  }
  return out;
}
