// Graph expansion: the entities most associated with those a query names — co-mentioned in the
// same memories the caller may read — as extra entities for one more entity ranking. (Only
// readable memories count: stored relations aggregate every writer's memories, so a private
// memory would otherwise steer what another agent's search returns.)
// A question about a person then reaches memories that name only what the person is tied to
// (multi-hop). The association is specific, not merely frequent: shared memories divided by the
// neighbour's own mentions, so an entity mentioned everywhere is no one's neighbour in particular.
import type { Queryable } from '../../store/db.js';
import { Params } from '../memories/params.js';
import type { GraphExpansionConfig } from './config.js';
import type { MatchedEntity } from './legs.js';
import { searchConditions, type SearchFilter } from './filters.js';

export interface NeighbourRow { id: string; name: string; mentionCount: number; shared: number; match: number }

/**
 * Neighbours as matched entities for the entity leg: each scores match × shared / mentions of the
 * neighbour (the fraction of its mentions next to a query entity), at least minShared shared, the
 * best `neighbours` of them. Pure.
 */
export function rankNeighbours(rows: readonly NeighbourRow[], cfg: Pick<GraphExpansionConfig, 'neighbours' | 'minShared'>): MatchedEntity[] {
  return rows
    .filter((r) => r.shared >= cfg.minShared && r.mentionCount > 0)
    .map((r) => ({ id: r.id, name: r.name, mentionCount: r.mentionCount, match: r.match * Math.min(1, r.shared / r.mentionCount) }))
    .sort((a, b) => b.match - a.match || a.mentionCount - b.mentionCount || (a.id < b.id ? -1 : 1))
    .slice(0, cfg.neighbours);
}

/** The query entities' neighbours co-mentioned in memories the filter admits, ranked by rankNeighbours. */
export async function graphNeighbours(db: Queryable, f: SearchFilter, entities: readonly MatchedEntity[], cfg: GraphExpansionConfig): Promise<MatchedEntity[]> {
  if (entities.length === 0) return [];
  const p = new Params();
  const tenant = p.add(f.tenantId);
  const readable = searchConditions(p, f).join(' AND ');
  const ids = p.add(entities.map((e) => e.id), 'uuid[]');
  const match = p.add(entities.map((e) => e.match), 'float8[]');
  const { rows } = await db.query(
    `WITH q AS (SELECT * FROM unnest(${ids}, ${match}) AS q(id, match)),
     co AS (
       SELECT l2.entity_id AS id, max(q.match) AS match, count(*) AS shared
       FROM q CROSS JOIN LATERAL (
         SELECT l.memory_id FROM entity_links l JOIN memories m ON m.id = l.memory_id
         WHERE l.tenant_id = ${tenant} AND l.entity_id = q.id AND ${readable}
         ORDER BY l.created_at DESC LIMIT ${p.add(cfg.linksPerEntity, 'int')}) AS a
       JOIN entity_links l2 ON l2.tenant_id = ${tenant} AND l2.memory_id = a.memory_id
       WHERE l2.entity_id <> ALL(${ids})
       GROUP BY l2.entity_id),
     x AS (SELECT id, max(match) AS match, sum(shared) AS shared FROM co GROUP BY id)
     SELECT e.id, e.name, e.mention_count, x.match, x.shared FROM x JOIN entities e ON e.id = x.id
     WHERE e.tenant_id = ${tenant} AND e.mention_count > 0 AND e.entity_type <> 'date'`, p.values);
  return rankNeighbours(rows.map((r) => ({
    id: r.id, name: r.name, mentionCount: Number(r.mention_count), shared: Number(r.shared), match: Number(r.match),
  })), cfg);
}
