// Knowledge-graph reads: entities of a tenant (filtered, searched) and the graph of entities
// and relations, whole or around one entity. What a reader sees is bounded by the memories it
// could read (evidence.ts); a read of another tenant granted on the key is audited.
import type { Db } from '../../store/db.js';
import { type Caller, checkReadFleets, confinedFleet, isAdmin, resolveAgent, resolveTenant } from '../caller.js';
import type { AuditLog } from '../audit.js';
import { notFound } from '../errors.js';
import { normalizeEntityName } from '../../providers/entities/normalize.js';
import { Params } from '../memories/params.js';
import { iso } from '../memories/record.js';
import { type EvidenceScope, recentVisibleEvidence, visibleEvidence, visibleLinks } from './evidence.js';
import {
  ENTITY_LIMIT, ENTITY_RELATIONS_SHOWN, EVIDENCE_SHOWN, GRAPH_DEPTH, RELATIONS_PER_ENTITY, type EntityDetail, type EntityDetailQuery,
  type EntityQuery, type EntityRecord, type EntityType, type Graph, type GraphQuery, type RelationRecord,
} from './types.js';

export interface GraphDeps {
  db: Db;
  audit: AuditLog;
}

interface EntityFilter {
  entityType?: EntityType;
  search?: string;
}

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

const RELATION_COLUMNS = `r.id, r.subject_entity_id, r.predicate, r.object_entity_id, r.object_value, r.mention_count,
  r.first_seen_at, r.last_seen_at`;

function toRelation(r: Record<string, any>): RelationRecord {
  return {
    id: r.id,
    subject_entity_id: r.subject_entity_id,
    predicate: r.predicate,
    object_entity_id: r.object_entity_id ?? null,
    object_value: r.object_entity_id ? null : (r.object_value ?? null),
    mention_count: Number(r.mention_count),
    evidence_memory_ids: r.evidence as string[],
    first_seen_at: iso(r.first_seen_at)!,
    last_seen_at: iso(r.last_seen_at)!,
  };
}

export class GraphService {
  constructor(private readonly deps: GraphDeps) {}

  async listEntities(caller: Caller, q: EntityQuery): Promise<{ entities: EntityRecord[] }> {
    const scope = await this.scope(caller, q, 'entities');
    const ids = await this.findEntities(scope, { entityType: q.entity_type, search: q.search }, q.limit ?? ENTITY_LIMIT.default);
    return { entities: await this.entityRecords(scope, ids) };
  }

  async graph(caller: Caller, q: GraphQuery): Promise<Graph> {
    const scope = await this.scope(caller, q, 'graph');
    const limit = q.limit ?? ENTITY_LIMIT.default;
    let ids: string[];
    let truncated: boolean;
    if (q.entity_id !== undefined) {
      ({ ids, truncated } = await this.neighbourhood(scope, q.entity_id.toLowerCase(), q.depth ?? GRAPH_DEPTH.default, limit));
    } else {
      ids = await this.findEntities(scope, {}, limit + 1);
      truncated = ids.length > limit;
      ids = ids.slice(0, limit);
    }
    const [entities, rel] = await Promise.all([
      this.entityRecords(scope, ids),
      this.relationsAmong(scope, ids, limit * RELATIONS_PER_ENTITY),
    ]);
    return { tenant_id: scope.tenantId, entities, relations: rel.relations, truncated: truncated || rel.truncated };
  }

  /**
   * One entity the caller can see (404 otherwise), with the relations it takes part in and the
   * newest memories mentioning it, both bounded by what the caller may read.
   */
  async entity(caller: Caller, id: string, q: EntityDetailQuery): Promise<EntityDetail> {
    const scope = await this.scope(caller, q, 'entity');
    const entityId = id.toLowerCase();
    const [record] = await this.visibleEntities(scope, [entityId]);
    if (!record) throw notFound('Entity');
    const p = new Params();
    const t = p.add(scope.tenantId);
    const e = p.add(entityId, 'uuid');
    const [rel, mentions] = await Promise.all([
      this.deps.db.query(
        `SELECT ${RELATION_COLUMNS}, ev.ids AS evidence
         FROM relations r
         CROSS JOIN LATERAL (SELECT array_agg(v.id ORDER BY v.n DESC) AS ids FROM (${recentVisibleEvidence(p, scope)}) v) ev
         WHERE r.tenant_id = ${t} AND (r.subject_entity_id = ${e} OR r.object_entity_id = ${e}) AND ev.ids IS NOT NULL
         ORDER BY r.mention_count DESC, r.id LIMIT ${p.add(ENTITY_RELATIONS_SHOWN)}`, p.values),
      this.linkedMemories(scope, entityId),
    ]);
    return { ...record, relations: rel.rows.map(toRelation), linked_memory_ids: mentions };
  }

  /** The given entities, in order, keeping those some memory the reader can see mentions. */
  private async visibleEntities(s: EvidenceScope, ids: string[]): Promise<EntityRecord[]> {
    const p = new Params();
    const t = p.add(s.tenantId);
    const { rows } = await this.deps.db.query<{ id: string }>(
      `SELECT e.id FROM entities e WHERE e.tenant_id = ${t} AND e.id = ANY(${p.add(ids, 'uuid[]')})
         AND EXISTS (SELECT 1 ${visibleLinks(p, s, t, 'e.id')})`, p.values);
    const visible = new Set(rows.map((r) => r.id));
    return this.entityRecords(s, ids.filter((i) => visible.has(i)));
  }

  /** Newest memories the reader can see that mention the entity. */
  private async linkedMemories(s: EvidenceScope, entityId: string): Promise<string[]> {
    const p = new Params();
    const t = p.add(s.tenantId);
    const { rows } = await this.deps.db.query<{ id: string }>(
      `SELECT m.id ${visibleLinks(p, s, t, p.add(entityId, 'uuid'))}
       GROUP BY m.id, m.created_at ORDER BY m.created_at DESC, m.id LIMIT ${p.add(EVIDENCE_SHOWN)}`, p.values);
    return rows.map((r) => r.id);
  }

  /** Tenant, viewer and fleet of a read; audits a read of another tenant granted on the key. */
  private async scope(caller: Caller, q: { tenant_id?: string; agent_id?: string; fleet_id?: string }, resource: string): Promise<EvidenceScope> {
    const tenantId = resolveTenant(caller, q.tenant_id, 'read');
    const admin = isAdmin(caller);
    // Agent ids name agents within a tenant: a reader from another tenant is nobody's agent there.
    const viewer = tenantId !== caller.tenantId && !admin ? null : resolveAgent(caller, q.agent_id);
    checkReadFleets(caller, [q.fleet_id]);
    const fleet = confinedFleet(caller);
    await this.deps.audit.crossTenantRead(caller, tenantId, resource, { ...q });
    return { tenantId, viewer, admin, fleetId: q.fleet_id, scope: fleet ? { fleet } : null };
  }

  /** Ids of visible entities, most mentioned first (best name match first when searching). */
  private async findEntities(s: EvidenceScope, f: EntityFilter, limit: number): Promise<string[]> {
    const p = new Params();
    const t = p.add(s.tenantId);
    const w = [`e.tenant_id = ${t}`];
    let rank = '';
    if (f.entityType !== undefined) w.push(`e.entity_type = ${p.add(f.entityType)}`);
    if (f.search !== undefined) {
      const raw = f.search.trim().toLowerCase();
      const norm = normalizeEntityName(f.search) || raw;
      const inName = p.add(`%${likeEscape(norm)}%`);
      const inAlias = p.add(`%${likeEscape(raw)}%`);
      // Aliases joined by a character no one types: one LIKE over all of them, no unnest per row.
      w.push(`(e.normalized_name LIKE ${inName} ESCAPE '\\'
               OR lower(array_to_string(e.aliases, chr(1))) LIKE ${inAlias} ESCAPE '\\')`);
      rank = `e.normalized_name = ${p.add(norm)} DESC, e.normalized_name LIKE ${p.add(`${likeEscape(norm)}%`)} ESCAPE '\\' DESC, `;
    }
    w.push(`EXISTS (SELECT 1 ${visibleLinks(p, s, t, 'e.id')})`);
    const { rows } = await this.deps.db.query<{ id: string }>(
      `SELECT e.id FROM entities e WHERE ${w.join(' AND ')}
       ORDER BY ${rank}e.mention_count DESC, e.id LIMIT ${p.add(limit)}`, p.values);
    return rows.map((r) => r.id);
  }

  /** Records of the given entities, in the given order. */
  private async entityRecords(s: EvidenceScope, ids: string[]): Promise<EntityRecord[]> {
    if (ids.length === 0) return [];
    const { rows } = await this.deps.db.query(
      `SELECT e.id, e.tenant_id, e.name, e.entity_type, e.aliases, e.mention_count, e.first_seen_at, e.last_seen_at
       FROM entities e WHERE e.tenant_id = $1 AND e.id = ANY($2::uuid[])`, [s.tenantId, ids]);
    const byId = new Map(rows.map((r) => [r.id as string, r]));
    return ids.flatMap((id) => {
      const r = byId.get(id);
      if (!r) return [];
      return [{
        id: r.id,
        tenant_id: r.tenant_id,
        name: r.name,
        entity_type: r.entity_type,
        aliases: (r.aliases as string[]).filter((a) => a !== r.name),
        mention_count: Number(r.mention_count),
        first_seen_at: iso(r.first_seen_at)!,
        last_seen_at: iso(r.last_seen_at)!,
      }];
    });
  }

  /** Relations with visible evidence whose subject (and entity object) are among `ids`, strongest first. */
  private async relationsAmong(s: EvidenceScope, ids: string[], cap: number): Promise<{ relations: RelationRecord[]; truncated: boolean }> {
    if (ids.length === 0) return { relations: [], truncated: false };
    const p = new Params();
    const t = p.add(s.tenantId);
    const set = p.add(ids, 'uuid[]');
    const { rows } = await this.deps.db.query(
      `SELECT ${RELATION_COLUMNS}, ev.ids AS evidence
       FROM relations r
       CROSS JOIN LATERAL (SELECT array_agg(v.id ORDER BY v.n DESC) AS ids FROM (${recentVisibleEvidence(p, s)}) v) ev
       WHERE r.tenant_id = ${t} AND r.subject_entity_id = ANY(${set})
         AND (r.object_entity_id IS NULL OR r.object_entity_id = ANY(${set})) AND ev.ids IS NOT NULL
       ORDER BY r.mention_count DESC, r.id LIMIT ${p.add(cap + 1)}`, p.values);
    const truncated = rows.length > cap;
    return { truncated, relations: rows.slice(0, cap).map(toRelation) };
  }

  /**
   * The entity and those reachable from it over visible relations (either direction) in up to
   * `depth` hops, nearest first; at most `limit` entities, keeping the strongest links of a hop.
   */
  private async neighbourhood(s: EvidenceScope, rootId: string, depth: number, limit: number): Promise<{ ids: string[]; truncated: boolean }> {
    const p0 = new Params();
    const t0 = p0.add(s.tenantId);
    const { rows: root } = await this.deps.db.query(
      `SELECT 1 FROM entities e WHERE e.tenant_id = ${t0} AND e.id = ${p0.add(rootId, 'uuid')}
         AND EXISTS (SELECT 1 ${visibleLinks(p0, s, t0, 'e.id')})`, p0.values);
    if (root.length === 0) throw notFound('Entity');

    const seen = [rootId];
    let frontier = [rootId];
    for (let hop = 0; hop < depth && frontier.length > 0; hop++) {
      const room = limit - seen.length;
      const p = new Params();
      const t = p.add(s.tenantId);
      const f = p.add(frontier, 'uuid[]');
      const { rows } = await this.deps.db.query<{ id: string }>(
        `SELECT n.id FROM (
           SELECT r.object_entity_id AS id, r.mention_count AS w FROM relations r
           WHERE r.tenant_id = ${t} AND r.subject_entity_id = ANY(${f}) AND r.object_entity_id IS NOT NULL
             AND EXISTS (SELECT 1 ${visibleEvidence(p, s)})
           UNION ALL
           SELECT r.subject_entity_id, r.mention_count FROM relations r
           WHERE r.tenant_id = ${t} AND r.object_entity_id = ANY(${f})
             AND EXISTS (SELECT 1 ${visibleEvidence(p, s)})
         ) n
         WHERE n.id <> ALL(${p.add(seen, 'uuid[]')})
         GROUP BY n.id ORDER BY max(n.w) DESC, n.id LIMIT ${p.add(room + 1)}`, p.values);
      const next = rows.map((r) => r.id);
      if (next.length > room) return { ids: [...seen, ...next.slice(0, room)], truncated: true };
      seen.push(...next);
      frontier = next;
    }
    return { ids: seen, truncated: false };
  }
}
