// SQL of the keystones table (migration 070). Every statement is scoped by tenant.
import type { Queryable } from './db.js';

export interface KeystoneRow {
  id: string;
  tenant_id: string;
  doc_id: string;
  scope: 'tenant' | 'fleet' | 'agent';
  fleet_id: string | null;
  agent_id: string | null;
  title: string;
  content: string;
  weight: number;
  author_user_id: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

const COLUMNS = 'id, tenant_id, doc_id, scope, fleet_id, agent_id, title, content, weight, author_user_id, created_at, updated_at';

export interface KeystoneSelection {
  tenantId: string;
  fleetId: string | null;
  agentId: string | null;
}

/**
 * The rules that bind a principal: the tenant's, its fleet's (with a fleet), and its own (with an
 * agent: those for every fleet and those for the given one), heaviest first, newest first within
 * a weight. Reads one row past `limit` so the caller can tell the list was cut.
 */
export async function selectKeystones(q: Queryable, s: KeystoneSelection, limit: number): Promise<KeystoneRow[]> {
  const { rows } = await q.query<KeystoneRow>(
    `SELECT ${COLUMNS} FROM keystones
     WHERE tenant_id = $1 AND (
       scope = 'tenant'
       OR (scope = 'fleet' AND fleet_id = $2)
       OR (scope = 'agent' AND agent_id = $3 AND (fleet_id IS NULL OR fleet_id = $2)))
     ORDER BY weight DESC, updated_at DESC, doc_id
     LIMIT $4`,
    [s.tenantId, s.fleetId, s.agentId, limit + 1]);
  return rows;
}

/** One rule, locked until the transaction ends (the trust gate reads it before changing it). */
export async function lockKeystone(q: Queryable, tenantId: string, docId: string): Promise<KeystoneRow | null> {
  const { rows } = await q.query<KeystoneRow>(
    `SELECT ${COLUMNS} FROM keystones WHERE tenant_id = $1 AND doc_id = $2 FOR UPDATE`, [tenantId, docId]);
  return rows[0] ?? null;
}

export type KeystoneValues = Omit<KeystoneRow, 'id' | 'created_at' | 'updated_at'>;

export async function upsertKeystone(q: Queryable, id: string, v: KeystoneValues): Promise<KeystoneRow & { created: boolean }> {
  const { rows } = await q.query<KeystoneRow & { created: boolean }>(
    `INSERT INTO keystones (id, tenant_id, doc_id, scope, fleet_id, agent_id, title, content, weight, author_user_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT (tenant_id, doc_id) DO UPDATE SET
       scope = EXCLUDED.scope, fleet_id = EXCLUDED.fleet_id, agent_id = EXCLUDED.agent_id, title = EXCLUDED.title,
       content = EXCLUDED.content, weight = EXCLUDED.weight, author_user_id = EXCLUDED.author_user_id, updated_at = now()
     RETURNING ${COLUMNS}, (xmax = 0) AS created`,
    [id, v.tenant_id, v.doc_id, v.scope, v.fleet_id, v.agent_id, v.title, v.content, v.weight, v.author_user_id]);
  return rows[0];
}

export async function deleteKeystone(q: Queryable, tenantId: string, docId: string): Promise<boolean> {
  const { rowCount } = await q.query('DELETE FROM keystones WHERE tenant_id = $1 AND doc_id = $2', [tenantId, docId]);
  return rowCount > 0;
}
