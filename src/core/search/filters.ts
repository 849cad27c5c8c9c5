// The row predicate every search leg shares: tenant, visibility (rule 1 of spec 4.2), the
// default exclusions (deleted, outdated, expired) and the request's filters. One function, so
// no leg can forget a rule.
import { Params } from '../memories/params.js';
import { visibilityPredicate, type FleetScope } from '../memories/visibility.js';
import { canonicalType } from '../memories/types.js';

export interface SearchFilter {
  tenantId: string;
  /** The viewing agent: its scope_agent memories are visible; null hides every scope_agent row. */
  viewer: string | null;
  /** Admins see every visibility (as in the memory list). */
  admin: boolean;
  /** A fleet-confined reader's fleet. */
  scope?: FleetScope | null;
  fleetIds?: string[];
  /** Author filter. */
  authorId?: string;
  memoryTypes?: string[];
  statuses?: string[];
  /** ISO instant: ts_valid_start <= t < ts_valid_end, open ends match. */
  validAt?: string;
  includeDeleted: boolean;
  includeOutdated: boolean;
  includeExpired: boolean;
}

/** WHERE conditions over alias `m` (memories), appended to `p`. */
export function searchConditions(p: Params, f: SearchFilter): string[] {
  const w = [`m.tenant_id = ${p.add(f.tenantId)}`];
  if (!f.includeDeleted) w.push('m.deleted_at IS NULL');
  const vis = visibilityPredicate(p, f.viewer, f.admin, 'm', f.scope);
  if (vis) w.push(vis);
  if (f.statuses?.length) {
    w.push(`m.status = ANY(${p.add(f.statuses, 'text[]')})`);
  } else if (!f.includeOutdated) {
    // Outdated rows lost to a newer memory; naming the status explicitly asks for them.
    w.push(`m.status <> 'outdated'`);
  }
  if (!f.includeExpired) w.push('(m.expires_at IS NULL OR m.expires_at > now())');
  if (f.fleetIds?.length) w.push(`m.fleet_id = ANY(${p.add(f.fleetIds, 'text[]')})`);
  if (f.authorId !== undefined) w.push(`m.agent_id = ${p.add(f.authorId)}`);
  if (f.memoryTypes?.length) w.push(`m.memory_type = ANY(${p.add([...new Set(f.memoryTypes.map(canonicalType))], 'text[]')})`);
  if (f.validAt !== undefined) {
    const t = p.add(f.validAt, 'timestamptz');
    w.push(`(m.ts_valid_start IS NULL OR m.ts_valid_start <= ${t})`, `(m.ts_valid_end IS NULL OR m.ts_valid_end > ${t})`);
  }
  return w;
}
