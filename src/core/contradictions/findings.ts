// Contradiction findings of one memory (spec 2.2). There is no separate store: the supersedes
// links and the statuses the detector set are the findings. Read-only; tenant-scoped; rows the
// caller may not see are left out of the lists.
import type { Queryable } from '../../store/db.js';
import { type Caller, confinedFleet, isAdmin, resolveAgent, resolveTenant } from '../caller.js';
import { notFound } from '../errors.js';
import { Params } from '../memories/params.js';
import { iso } from '../memories/record.js';
import { visibilityPredicate } from '../memories/visibility.js';
import { contentPreview, reasonOf } from './preview.js';

export type Direction = 'superseded_by' | 'supersedes';

export interface FindingItem {
  id: string;
  status: string;
  reason: 'rdf_conflict' | 'semantic_conflict';
  content_preview: string;
  created_at: string;
}

export interface Contradiction extends FindingItem {
  direction: Direction;
}

export interface ContradictionFindings {
  detection_status: 'completed' | 'pending';
  contradictions: Contradiction[];
  /** Back-compat: the newer rows that replaced this memory. */
  superseded_by: FindingItem[];
  /** Back-compat: the older row this memory replaced. */
  superseded_memories: FindingItem[];
}

interface Related {
  id: string;
  status: string;
  content: string;
  created_at: unknown;
}

const RELATED = 'm.id, m.status, m.content, m.created_at';

export class ContradictionFindingsService {
  constructor(private deps: { db: Queryable }) {}

  async findings(caller: Caller, memoryId: string, q: { tenant_id?: string; agent_id?: string }): Promise<ContradictionFindings> {
    const tenantId = resolveTenant(caller, q.tenant_id, 'read');
    const viewer = resolveAgent(caller, q.agent_id);
    const admin = isAdmin(caller);
    const fleet = confinedFleet(caller);
    const scope = fleet ? { fleet } : null;
    const db = this.deps.db;

    const p = new Params();
    const t = p.add(tenantId);
    const id = p.add(memoryId, 'uuid');
    const vis = visibilityPredicate(p, viewer, admin, 'm', scope);
    const { rows: [self] } = await db.query<{ id: string; status: string; supersedes_id: string | null; replaced: boolean }>(
      `SELECT m.id, m.status, m.supersedes_id,
         EXISTS (SELECT 1 FROM memories r WHERE r.tenant_id = ${t} AND r.supersedes_id = m.id AND r.deleted_at IS NULL) AS replaced
       FROM memories m WHERE m.tenant_id = ${t} AND m.id = ${id} AND m.deleted_at IS NULL${vis ? ` AND ${vis}` : ''}`, p.values);
    if (!self) throw notFound('Memory');

    // Newer rows pointing here, and the older row this one points to; both only where visible.
    const { rows: newer } = await db.query<Related>(
      `SELECT ${RELATED} FROM memories m WHERE m.tenant_id = ${t} AND m.supersedes_id = ${id} AND m.deleted_at IS NULL${vis ? ` AND ${vis}` : ''}
       ORDER BY m.created_at, m.id`, p.values);
    let older: Related | undefined;
    if (self.supersedes_id) {
      const po = new Params();
      const visO = visibilityPredicate(po, viewer, admin, 'm', scope);
      const pt = po.add(tenantId);
      const pid = po.add(self.supersedes_id, 'uuid');
      ({ rows: [older] } = await db.query<Related>(
        `SELECT ${RELATED} FROM memories m WHERE m.tenant_id = ${pt} AND m.id = ${pid} AND m.deleted_at IS NULL${visO ? ` AND ${visO}` : ''}`,
        po.values));
    }

    // The reason comes from the row that lost: this memory when newer rows replaced it, the older row otherwise.
    const item = (r: Related, loserStatus: string): FindingItem => ({
      id: r.id, status: r.status, reason: reasonOf(loserStatus), content_preview: contentPreview(r.content), created_at: iso(r.created_at)!,
    });
    const supersededBy = newer.map((r) => item(r, self.status));
    const supersededMemories = older ? [item(older, older.status)] : [];
    const evidence = Boolean(self.supersedes_id) || self.replaced || self.status === 'outdated' || self.status === 'conflicted';
    return {
      detection_status: evidence ? 'completed' : 'pending',
      contradictions: [
        ...supersededBy.map((x) => ({ ...x, direction: 'superseded_by' as const })),
        ...supersededMemories.map((x) => ({ ...x, direction: 'supersedes' as const })),
      ],
      superseded_by: supersededBy,
      superseded_memories: supersededMemories,
    };
  }
}
