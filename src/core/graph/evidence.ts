// What may evidence the graph for a reader: the memories it could read itself. Entities and
// relations are shown only when at least one such memory mentions or states them, and only
// those memories are named, so a scope_agent memory of another agent never shows through the
// graph (neither its id nor an entity only it mentions). Mention counts are tenant-wide.
import type { Params } from '../memories/params.js';
import { visibilityPredicate, type FleetScope } from '../memories/visibility.js';
import { EVIDENCE_SHOWN } from './types.js';

export interface EvidenceScope {
  tenantId: string;
  /** Agent whose scope_agent memories count; null: team- and org-wide memories only. */
  viewer: string | null;
  /** Admins see every memory. */
  admin: boolean;
  /** Only memories of this fleet count. */
  fleetId?: string;
  /** A fleet-confined reader: only what it can read in its fleet counts. */
  scope?: FleetScope | null;
}

/** Conditions on a memory (alias `m`, tenant already matched) for it to count as evidence. */
export function evidenceConditions(p: Params, s: EvidenceScope, m = 'm'): string {
  const w = [`${m}.deleted_at IS NULL`];
  const vis = visibilityPredicate(p, s.viewer, s.admin, m, s.scope);
  if (vis) w.push(vis);
  if (s.fleetId !== undefined) w.push(`${m}.fleet_id = ${p.add(s.fleetId)}`);
  return w.join(' AND ');
}

/** Links of entity `entityCol` from memories that count (for EXISTS). */
export function visibleLinks(p: Params, s: EvidenceScope, tenant: string, entityCol: string): string {
  return `FROM entity_links l JOIN memories m ON m.tenant_id = l.tenant_id AND m.id = l.memory_id
          WHERE l.tenant_id = ${tenant} AND l.entity_id = ${entityCol} AND ${evidenceConditions(p, s)}`;
}

/**
 * The most recent evidence memories of relation alias `r` that count, as rows (id, n = position
 * in the evidence list, newest highest). Walks the list from its newest end and stops after
 * EVIDENCE_SHOWN, so a long list costs a few lookups.
 */
export function recentVisibleEvidence(p: Params, s: EvidenceScope, r = 'r'): string {
  return `SELECT ev.id, ev.n FROM (SELECT id, n FROM unnest(${r}.evidence_memory_ids) WITH ORDINALITY AS u(id, n) ORDER BY n DESC) ev
          JOIN memories m ON m.tenant_id = ${r}.tenant_id AND m.id = ev.id
          WHERE ${evidenceConditions(p, s)} LIMIT ${EVIDENCE_SHOWN}`;
}

/** Evidence memories of relation alias `r` that count. */
export function visibleEvidence(p: Params, s: EvidenceScope, r = 'r'): string {
  return `FROM memories m WHERE m.tenant_id = ${r}.tenant_id AND m.id = ANY(${r}.evidence_memory_ids) AND ${evidenceConditions(p, s)}`;
}
