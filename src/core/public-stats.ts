// Public counters (/api/v1/stats): aggregate numbers only, no tenant names. Cached briefly
// because counting a large table on every probe would be wasteful.
import type { Services } from '../services.js';

const TTL_MS = 5_000;
const cached = new WeakMap<object, { at: number; value: Record<string, number> }>();

export async function publicStats(s: Pick<Services, 'db'>): Promise<Record<string, number>> {
  const hit = cached.get(s.db);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.value;
  const { rows } = await s.db.query(`
    SELECT
      (SELECT count(*)::int FROM memories WHERE deleted_at IS NULL) AS memories,
      (SELECT count(DISTINCT tenant_id)::int FROM memories WHERE deleted_at IS NULL) AS tenants,
      (SELECT count(DISTINCT (tenant_id, agent_id))::int FROM memories WHERE deleted_at IS NULL) AS agents`);
  const value = rows[0] as Record<string, number>;
  cached.set(s.db, { at: Date.now(), value });
  return value;
}
