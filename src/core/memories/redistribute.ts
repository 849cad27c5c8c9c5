// Redistribute (spec 4.2 rule 6): hands memories of a tenant to another agent, optionally into
// another fleet, promoting scope_agent rows to scope_team (their old agent-only audience no
// longer exists). Admin-only (trust 3). Selection by ids and/or a filter, oldest first, in pages.
import type { Db } from '../../store/db.js';
import { invalid, conflict } from '../errors.js';
import { type Caller, requireTrust, resolveAgent, resolveTenant, TRUST } from '../caller.js';
import { Params } from './params.js';
import { canonicalType } from './types.js';
import { isContentDuplicate } from './write.js';

export const REDISTRIBUTE_DEFAULT_LIMIT = 1000;

export interface RedistributeRequest {
  target_agent_id: string;
  /** Absent: every row keeps its fleet. A string moves the rows into that fleet; null takes them out of any fleet. */
  target_fleet_id?: string | null;
  memory_ids?: string[];
  source_agent_id?: string;
  fleet_id?: string;
  memory_type?: string;
  status?: string;
  limit?: number;
}

export interface SkippedMove {
  id: string;
  reason: 'duplicate_content';
  /** The target agent's memory in the destination fleet that already holds this content. */
  existing_id: string;
}

export interface RedistributeResult {
  moved: number;
  ids: string[];
  /** How many of the moved rows went from scope_agent to scope_team. */
  promoted: number;
  skipped: SkippedMove[];
  /** More rows match the selection than `limit`: call again. */
  has_more: boolean;
  target_agent_id: string;
  /** Present when the request moved fleets. */
  target_fleet_id?: string | null;
}

interface Selected {
  id: string;
  agent_id: string;
  content_hash: string;
  fleet_key: string;
  visibility: string;
}

export async function redistribute(
  db: Db, caller: Caller, q: { tenant_id: string; agent_id: string }, body: RedistributeRequest,
): Promise<RedistributeResult> {
  requireTrust(caller, TRUST.admin, 'Redistributing memories');
  const tenantId = resolveTenant(caller, q.tenant_id, 'write');
  resolveAgent(caller, q.agent_id);
  if (body.memory_ids === undefined && body.source_agent_id === undefined && body.fleet_id === undefined) {
    throw invalid(['body'], 'Select the memories to move: memory_ids, source_agent_id or fleet_id (a filter alone cannot take a whole tenant)', 'missing', null);
  }
  const limit = body.limit ?? REDISTRIBUTE_DEFAULT_LIMIT;
  const moveFleet = body.target_fleet_id !== undefined;
  const targetKey = body.target_fleet_id ?? '';

  const p = new Params();
  const w = [`m.tenant_id = ${p.add(tenantId)}`, 'm.deleted_at IS NULL'];
  if (body.memory_ids !== undefined) w.push(`m.id = ANY(${p.add([...new Set(body.memory_ids.map((i) => i.toLowerCase()))], 'uuid[]')})`);
  if (body.source_agent_id !== undefined) w.push(`m.agent_id = ${p.add(body.source_agent_id)}`);
  if (body.fleet_id !== undefined) w.push(`m.fleet_id = ${p.add(body.fleet_id)}`);
  if (body.memory_type !== undefined) w.push(`m.memory_type = ${p.add(canonicalType(body.memory_type))}`);
  if (body.status !== undefined) w.push(`m.status = ${p.add(body.status)}`);

  try {
    return await db.tx(async (tq) => {
      const { rows: found } = await tq.query<Selected>(
        `SELECT m.id, m.agent_id, m.content_hash, coalesce(m.fleet_id, '') AS fleet_key, m.visibility FROM memories m
         WHERE ${w.join(' AND ')} ORDER BY m.created_at, m.id LIMIT ${p.add(limit + 1)} FOR UPDATE`, p.values);
      const rows = found.slice(0, limit);

      // A moved row takes the target agent (and fleet): it must not duplicate content that writer
      // already holds there (the unique content index is per fleet and agent); of several selected
      // rows with one content, the oldest moves.
      const skipped: SkippedMove[] = [];
      const moving: Selected[] = [];
      const destination = (r: Selected) => (moveFleet ? targetKey : r.fleet_key);
      const key = (fleetKey: string, hash: string) => `${fleetKey}\u0000${hash}`;
      const entering = rows.filter((r) => r.agent_id !== body.target_agent_id || destination(r) !== r.fleet_key);
      const holders = new Map<string, string>();
      if (entering.length) {
        const { rows: h } = await tq.query<{ id: string; fleet_key: string; content_hash: string }>(
          `SELECT m.id, coalesce(m.fleet_id, '') AS fleet_key, m.content_hash
           FROM unnest($3::text[], $4::text[]) AS k(fleet_key, content_hash)
           JOIN memories m ON m.tenant_id = $1 AND m.agent_id = $2 AND coalesce(m.fleet_id, '') = k.fleet_key
                          AND m.content_hash = k.content_hash AND m.deleted_at IS NULL`,
          [tenantId, body.target_agent_id, entering.map(destination), entering.map((r) => r.content_hash)]);
        for (const r of h) holders.set(key(r.fleet_key, r.content_hash), r.id);
      }
      const enteringIds = new Set(entering.map((r) => r.id));
      for (const r of rows) {
        if (!enteringIds.has(r.id)) {
          moving.push(r);
          continue;
        }
        const k = key(destination(r), r.content_hash);
        const holder = holders.get(k);
        if (holder) {
          skipped.push({ id: r.id, reason: 'duplicate_content', existing_id: holder });
          continue;
        }
        holders.set(k, r.id);
        moving.push(r);
      }

      if (moving.length) {
        const u = new Params();
        const set = [
          `agent_id = ${u.add(body.target_agent_id)}`,
          `visibility = CASE WHEN m.visibility = 'scope_agent' THEN 'scope_team' ELSE m.visibility END`,
          'updated_at = now()',
        ];
        if (moveFleet) set.push(`fleet_id = ${u.add(body.target_fleet_id ?? null)}`);
        await tq.query(
          `UPDATE memories AS m SET ${set.join(', ')} WHERE m.tenant_id = ${u.add(tenantId)} AND m.id = ANY(${u.add(moving.map((r) => r.id), 'uuid[]')})`,
          u.values);
      }
      return {
        moved: moving.length,
        ids: moving.map((r) => r.id),
        promoted: moving.filter((r) => r.visibility === 'scope_agent').length,
        skipped,
        has_more: found.length > limit,
        target_agent_id: body.target_agent_id,
        ...(moveFleet ? { target_fleet_id: body.target_fleet_id ?? null } : {}),
      };
    });
  } catch (err) {
    // Another write put the same content into the target fleet meanwhile: nothing moved.
    if (isContentDuplicate(err)) throw conflict('A memory with the same content entered the target fleet meanwhile; nothing was moved, retry');
    throw err;
  }
}
