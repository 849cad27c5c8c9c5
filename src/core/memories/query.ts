// The list query (GET /memories, GET /admin/memories): filters, visibility, sort, keyset
// cursor and offset. Every sort is total (id breaks ties) and served by an index of 001
// except recall_count (its index was dropped in 010 so recall updates stay heap-only):
//  - created_at, weight, recall_count, expires_at, deleted_at: ORDER BY col, id — the
//    (tenant_id, col, id) indexes, scanned forward or backward;
//  - memory_type, agent_id, status, fleet_id, tenant_id: ORDER BY col, created_at, id over the
//    (tenant_id, col, created_at DESC) indexes. Within one value rows run newest first for
//    order=asc, and desc is the exact reverse of asc, so one index serves both directions.
import { badRequest } from '../errors.js';
import { Params } from './params.js';
import { RECORD_COLUMNS } from './record.js';
import { visibilityPredicate, type FleetScope } from './visibility.js';
import { canonicalType, type SortColumn } from './types.js';
import type { CursorKey } from './cursor.js';

export interface ListFilter {
  /** null = every tenant (admin list). */
  tenantId: string | null;
  viewer: string | null;
  /** Skip the visibility rule (admin list). */
  allVisibilities: boolean;
  fleetId?: string;
  /** Author filter (`filter_agent_id`). */
  authorId?: string;
  memoryType?: string;
  excludeTypes?: string[];
  status?: string;
  visibility?: string;
  runId?: string;
  createdAfter?: string;
  createdBefore?: string;
  /** Weight bounds, inclusive. */
  weightMin?: number;
  weightMax?: number;
  includeDeleted: boolean;
  /** A fleet-confined reader's fleet. */
  scope?: FleetScope | null;
}

export interface ListOptions extends ListFilter {
  sort: SortColumn;
  order: 'asc' | 'desc';
  offset: number;
  limit: number;
  cursor?: CursorKey;
}

const SIMPLE_SORTS = new Set<SortColumn>(['created_at', 'weight', 'recall_count', 'expires_at', 'deleted_at']);

/** Whether a list with this sort can hand out (and accept) a cursor. */
export const cursorCapable = (o: Pick<ListOptions, 'sort' | 'order'>) => o.sort === 'created_at' && o.order === 'desc';

/** WHERE conditions of a list or aggregate; alias `m`. */
export function listConditions(p: Params, f: ListFilter): string[] {
  const w: string[] = [];
  if (f.tenantId !== null) w.push(`m.tenant_id = ${p.add(f.tenantId)}`);
  if (!f.includeDeleted) w.push('m.deleted_at IS NULL');
  const vis = visibilityPredicate(p, f.viewer, f.allVisibilities, 'm', f.scope);
  if (vis) w.push(vis);
  if (f.fleetId !== undefined) w.push(`m.fleet_id = ${p.add(f.fleetId)}`);
  if (f.authorId !== undefined) w.push(`m.agent_id = ${p.add(f.authorId)}`);
  if (f.memoryType !== undefined) w.push(`m.memory_type = ${p.add(canonicalType(f.memoryType))}`);
  if (f.excludeTypes?.length) w.push(`m.memory_type <> ALL(${p.add([...new Set(f.excludeTypes.map(canonicalType))], 'text[]')})`);
  if (f.status !== undefined) w.push(`m.status = ${p.add(f.status)}`);
  if (f.visibility !== undefined) w.push(`m.visibility = ${p.add(f.visibility)}`);
  if (f.runId !== undefined) w.push(`m.run_id = ${p.add(f.runId)}`);
  if (f.createdAfter !== undefined) w.push(`m.created_at > ${p.add(f.createdAfter, 'timestamptz')}`);
  if (f.createdBefore !== undefined) w.push(`m.created_at < ${p.add(f.createdBefore, 'timestamptz')}`);
  if (f.weightMin !== undefined) w.push(`m.weight >= ${p.add(f.weightMin)}`);
  if (f.weightMax !== undefined) w.push(`m.weight <= ${p.add(f.weightMax)}`);
  return w;
}

export function orderBy(sort: SortColumn, order: 'asc' | 'desc'): string {
  const dir = order === 'asc' ? 'ASC' : 'DESC';
  if (SIMPLE_SORTS.has(sort)) return `m.${sort} ${dir}, m.id ${dir}`;
  const rev = order === 'asc' ? 'DESC' : 'ASC';
  return `m.${sort} ${dir}, m.created_at ${rev}, m.id ${rev}`;
}

/** SQL and parameters of one page. Fetches limit + 1 rows: the extra one tells whether more exist. */
export function buildListQuery(o: ListOptions): { sql: string; params: unknown[] } {
  if (o.cursor && !cursorCapable(o)) {
    throw badRequest('cursor pagination works only with sort=created_at and order=desc; use offset with other sorts');
  }
  const p = new Params();
  const w = listConditions(p, o);
  if (o.cursor) w.push(`(m.created_at, m.id) < (${p.add(o.cursor.createdAt, 'timestamptz')}, ${p.add(o.cursor.id, 'uuid')})`);
  const sql = `SELECT ${RECORD_COLUMNS},
      to_char(m.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS cursor_ts
    FROM memories m
    ${w.length ? `WHERE ${w.join(' AND ')}` : ''}
    ORDER BY ${orderBy(o.sort, o.order)}
    LIMIT ${p.add(o.limit + 1)} OFFSET ${p.add(o.offset)}`;
  return { sql, params: p.values };
}
