// PGlite has no autovacuum: keep statistics and visibility maps fresh so plans stay
// index-friendly as tables grow. A Postgres server does this itself.
//
// Two timers, both background work (requests go first): a table whose rows changed by more than
// autovacuum's analyze threshold (50 rows + 10 % of the table) since its last ANALYZE is analysed
// within seconds — a store filled by a bulk load otherwise kept the statistics of its first rows
// for minutes, and the planner, expecting one row where there were hundreds, scanned a tenant's
// memories once per linked row (an entity leg of 3 ms took 55 ms at 650 memories); and a full
// VACUUM (ANALYZE) now and then.
import type { Db } from './db.js';
import type { PgliteDb } from './pglite.js';
import { inBackground } from '../infra/priority.js';

export interface MaintenanceOptions {
  vacuumEveryMs?: number;
  analyzeCheckEveryMs?: number;
}

/** Tables past the analyze threshold: 50 rows + 10 % of the table changed since their last ANALYZE. */
export async function analyzeStale(db: Db): Promise<string[]> {
  const { rows } = await db.query<{ relname: string }>(
    `SELECT relname FROM pg_stat_user_tables
     WHERE schemaname = current_schema() AND n_mod_since_analyze > 50 + 0.1 * greatest(n_live_tup, 0)`);
  for (const r of rows) await db.query(`ANALYZE ${quoteIdent(r.relname)}`);
  return rows.map((r) => r.relname);
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

export function scheduleMaintenance(db: Db, opts: MaintenanceOptions = {}, onError: (err: unknown) => void = () => {}): () => void {
  if (db.kind !== 'pglite') return () => {};
  const vacuum = setInterval(() => {
    inBackground(() => (db as PgliteDb).maintenance('VACUUM (ANALYZE)')).catch(onError);
  }, opts.vacuumEveryMs ?? 10 * 60_000);
  let analyzing = false;
  const analyze = setInterval(() => {
    if (analyzing) return;
    analyzing = true;
    inBackground(() => analyzeStale(db)).catch(onError).finally(() => { analyzing = false; });
  }, opts.analyzeCheckEveryMs ?? 5_000);
  vacuum.unref();
  analyze.unref();
  return () => {
    clearInterval(vacuum);
    clearInterval(analyze);
  };
}
