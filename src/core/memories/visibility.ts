// Visibility (spec 2.1, list rule 1): scope_agent rows are visible only to their agent;
// scope_team and scope_org rows to every caller of the tenant. Admins see everything.
import type { Params } from './params.js';

/** A fleet-confined caller (trust below 2 on a fleet-bound key) and whether the rows are to be changed. */
export interface FleetScope {
  fleet: string;
  write?: boolean;
}

/**
 * SQL predicate restricting rows to what `viewer` may see. `alias` prefixes the columns.
 * A confined caller also stays in its fleet: it reads its fleet's rows, rows of no fleet and
 * scope_org rows, and changes its fleet's rows only. Returns null when nothing needs restricting (admin).
 */
export function visibilityPredicate(p: Params, viewer: string | null, admin: boolean, alias = '', scope?: FleetScope | null): string | null {
  if (admin) return null;
  const a = alias ? `${alias}.` : '';
  const vis = viewer ? `(${a}visibility <> 'scope_agent' OR ${a}agent_id = ${p.add(viewer)})` : `${a}visibility <> 'scope_agent'`;
  if (!scope) return vis;
  const fleet = p.add(scope.fleet);
  return scope.write
    ? `${vis} AND ${a}fleet_id = ${fleet}`
    : `${vis} AND (${a}fleet_id = ${fleet} OR ${a}fleet_id IS NULL OR ${a}visibility = 'scope_org')`;
}

/** The same rule for one row already loaded. */
export function canSee(
  row: { visibility: string; agent_id: string; fleet_id?: string | null }, viewer: string | null, admin: boolean, scope?: FleetScope | null,
): boolean {
  if (admin) return true;
  if (row.visibility === 'scope_agent' && (viewer === null || row.agent_id !== viewer)) return false;
  return !scope || row.fleet_id === scope.fleet || row.fleet_id == null || row.visibility === 'scope_org';
}
