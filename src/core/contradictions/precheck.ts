// The write response's `superseded_by`: what a cheap synchronous check already knows right after
// the write commits. Only a writer-given triple of a single-valued predicate is checked, with one
// lookup on the (tenant_id, subject_entity_id, predicate) index; every other finding (extracted
// triples, semantic conflicts) comes from the detector on the bus. The check changes nothing:
// it reports what the detector is about to record (the older row becomes outdated).
import type { Queryable } from '../../store/db.js';
import type { SupersededEntry } from '../memories/types.js';
import { Params } from '../memories/params.js';
import { visibilityPredicate, type FleetScope } from '../memories/visibility.js';
import { judgePair } from './detect.js';
import { isSingleValued } from './predicates.js';
import { contentPreview } from './preview.js';

export interface WrittenTriple {
  tenantId: string;
  memoryId: string;
  /** The writer's agent and admin flag: rows it may not see are not listed. */
  viewer: string | null;
  admin: boolean;
  /** A fleet-confined writer: rows outside what it can read are not listed. */
  scope?: FleetScope | null;
  subject_entity_id?: string | null;
  predicate?: string | null;
  object_value?: string | null;
}

const LIMIT = 20;

export async function supersededByPrecheck(db: Queryable, w: WrittenTriple): Promise<SupersededEntry[]> {
  if (!w.subject_entity_id || !w.predicate || !w.object_value || !isSingleValued(w.predicate)) return [];
  const p = new Params();
  const t = p.add(w.tenantId);
  const id = p.add(w.memoryId, 'uuid');
  const where = [
    `m.tenant_id = ${t}`, `m.subject_entity_id = ${p.add(w.subject_entity_id, 'uuid')}`, `m.id <> ${id}`,
    'm.deleted_at IS NULL', `m.status <> 'outdated'`, 'm.predicate IS NOT NULL', 'm.object_value IS NOT NULL',
    // Older rows only, in the detector's order (created_at, then id).
    `(m.created_at, m.id) < (SELECT n.created_at, n.id FROM memories n WHERE n.tenant_id = ${t} AND n.id = ${id})`,
  ];
  const vis = visibilityPredicate(p, w.viewer, w.admin, 'm', w.scope);
  if (vis) where.push(vis);
  const { rows } = await db.query<{ id: string; content: string; predicate: string; object_value: string }>(
    `SELECT m.id, m.content, m.predicate, m.object_value FROM memories m WHERE ${where.join(' AND ')}
     ORDER BY m.created_at DESC LIMIT ${LIMIT}`, p.values);
  const subject = w.subject_entity_id.toLowerCase();
  const newer = { content: '', subject, predicate: w.predicate, object_value: w.object_value };
  return rows
    .filter((r) => judgePair(newer, { content: '', subject, predicate: r.predicate, object_value: r.object_value }).verdict === 'rdf_conflict')
    .map((r) => ({ old_memory_id: r.id, old_status: 'outdated', reason: 'rdf_conflict', old_content_preview: contentPreview(r.content) }));
}
