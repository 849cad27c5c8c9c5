// The entities a search diagnostic may name: those linked to a memory the caller could find
// (the search's own row predicate), counted over those memories only. An entity that only
// another agent's scope_agent memories mention is not shown, nor are its private mentions counted.
import type { Queryable } from '../../store/db.js';
import { Params } from '../memories/params.js';
import { searchConditions, type SearchFilter } from './filters.js';

/** Visible mention counts of the given entities; entities with none are absent. */
export async function visibleMentions(db: Queryable, f: SearchFilter, entityIds: string[]): Promise<Map<string, number>> {
  if (entityIds.length === 0) return new Map();
  const p = new Params();
  const w = searchConditions(p, f);
  const { rows } = await db.query<{ entity_id: string; n: number }>(
    `SELECT l.entity_id, count(DISTINCT l.memory_id)::int AS n
     FROM entity_links l JOIN memories m ON m.tenant_id = l.tenant_id AND m.id = l.memory_id
     WHERE l.tenant_id = ${p.add(f.tenantId)} AND l.entity_id = ANY(${p.add(entityIds, 'uuid[]')}) AND ${w.join(' AND ')}
     GROUP BY l.entity_id`, p.values);
  return new Map(rows.map((r) => [r.entity_id, Number(r.n)]));
}
