// Visibility (spec 2.1, list rule 1): scope_agent rows are visible only to their agent;
// scope_team and scope_org rows to every caller of the tenant. Admins see everything.
import type { Params } from './params.js';

/**
 * SQL predicate restricting rows to what `viewer` may see. `alias` prefixes the columns.
 * Returns null when nothing needs restricting (admin).
 */
export function visibilityPredicate(p: Params, viewer: string | null, admin: boolean, alias = ''): string | null {
  if (admin) return null;
  const a = alias ? `${alias}.` : '';
  if (!viewer) return `${a}visibility <> 'scope_agent'`;
  return `(${a}visibility <> 'scope_agent' OR ${a}agent_id = ${p.add(viewer)})`;
}

/** The same rule for one row already loaded. */
export function canSee(row: { visibility: string; agent_id: string }, viewer: string | null, admin: boolean): boolean {
  return admin || row.visibility !== 'scope_agent' || (viewer !== null && row.agent_id === viewer);
}
