// PGlite has no autovacuum: keep statistics and visibility maps fresh so plans stay
// index-friendly as tables grow. A Postgres server does this itself.
//
// Two timers, both background work (requests go first): a table whose rows changed by more than
// autovacuum's analyze threshold (50 rows + 10 % of the table) since its last ANALYZE is analysed
// within seconds — a store filled by a bulk load otherwise kept the statistics of its first rows
// for minutes, and the planner, expecting one row where there were hundreds, scanned a tenant's
// memories once per linked row (an entity leg of 3 ms took 55 ms at 650 memories); and a VACUUM
// of each table now and then.
//
// The embedded database has one session, and a request waits for the statement running when it
// arrives: so no maintenance statement covers more than one table, and a large table is analysed
// a few columns at a time (at 100k memories one ANALYZE of `memories` held the session 0.5–0.9 s,
// and the VACUUM (ANALYZE) of the whole store 2 s).
import type { Db } from './db.js';
import type { PgliteDb } from './pglite.js';
import { inBackground } from '../infra/priority.js';

export interface MaintenanceOptions {
  vacuumEveryMs?: number;
  analyzeCheckEveryMs?: number;
}

/** Tables with more live rows than this are analysed in column groups. */
export const SPLIT_ANALYZE_ROWS = 20_000;
/** Columns per ANALYZE statement of a large table (each statement samples the table again). */
export const ANALYZE_COLUMNS = 8;

/**
 * What the statistics view counted as changed when a table was last analysed in column groups:
 * an ANALYZE that names columns does not reset the view's count, so the threshold is taken
 * from here instead. Per database (a test process opens many).
 */
const analysedAt = new WeakMap<Db, Map<string, number>>();

export interface TableChanges {
  relname: string;
  /** Rows changed since the last whole-table ANALYZE (the view's n_mod_since_analyze). */
  changed: number;
  live: number;
}

/**
 * The tables past autovacuum's analyze threshold, 50 rows + 10 % of the table changed since their
 * last ANALYZE: counted from `kept` for a table last analysed in column groups. A count below the
 * one kept was reset by a whole-table ANALYZE since, and counts from zero.
 */
export function staleTables(tables: readonly TableChanges[], kept: ReadonlyMap<string, number>): TableChanges[] {
  return tables.filter((r) => {
    const base = kept.get(r.relname) ?? 0;
    const since = r.changed >= base ? r.changed - base : r.changed;
    return since > 50 + 0.1 * r.live;
  });
}

/** Analyses the tables past the analyze threshold (staleTables); their names. */
export async function analyzeStale(db: Db): Promise<string[]> {
  const kept = analysedAt.get(db) ?? new Map<string, number>();
  analysedAt.set(db, kept);
  const { rows } = await db.query<TableChanges>(
    `SELECT relname, n_mod_since_analyze::float8 AS changed, greatest(n_live_tup, 0)::float8 AS live
     FROM pg_stat_user_tables WHERE schemaname = current_schema()`);
  const stale = staleTables(rows, kept);
  for (const r of stale) {
    if (await analyzeTable(db, r.relname, r.live)) kept.set(r.relname, r.changed);
    else kept.delete(r.relname);
  }
  return stale.map((r) => r.relname);
}

/**
 * ANALYZE of one table; a large one a few columns per statement, so requests run in between.
 * True when it went in column groups (the view's change count was then not reset).
 */
export async function analyzeTable(db: Db, table: string, liveRows: number, splitRows = SPLIT_ANALYZE_ROWS): Promise<boolean> {
  if (liveRows <= splitRows) {
    await db.query(`ANALYZE ${quoteIdent(table)}`);
    return false;
  }
  const { rows } = await db.query<{ attname: string }>(
    `SELECT attname FROM pg_attribute WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum`,
    [quoteIdent(table)]);
  for (let i = 0; i < rows.length; i += ANALYZE_COLUMNS) {
    const cols = rows.slice(i, i + ANALYZE_COLUMNS).map((r) => quoteIdent(r.attname));
    await db.query(`ANALYZE ${quoteIdent(table)} (${cols.join(', ')})`);
  }
  return true;
}

/** VACUUM of every table, one statement each (a VACUUM of the whole store held it for seconds). */
export async function vacuumTables(db: PgliteDb): Promise<string[]> {
  const { rows } = await db.query<{ relname: string }>(
    `SELECT relname FROM pg_stat_user_tables WHERE schemaname = current_schema() ORDER BY relname`);
  for (const r of rows) await db.maintenance(`VACUUM ${quoteIdent(r.relname)}`);
  return rows.map((r) => r.relname);
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

export function scheduleMaintenance(db: Db, opts: MaintenanceOptions = {}, onError: (err: unknown) => void = () => {}): () => void {
  if (db.kind !== 'pglite') return () => {};
  // A timer's task is skipped while its last run is still going.
  const task = (work: () => Promise<unknown>) => {
    let busy = false;
    return () => {
      if (busy) return;
      busy = true;
      inBackground(work).catch(onError).finally(() => { busy = false; });
    };
  };
  const vacuum = setInterval(task(() => vacuumTables(db as PgliteDb)), opts.vacuumEveryMs ?? 10 * 60_000);
  const analyze = setInterval(task(() => analyzeStale(db)), opts.analyzeCheckEveryMs ?? 5_000);
  vacuum.unref();
  analyze.unref();
  return () => {
    clearInterval(vacuum);
    clearInterval(analyze);
  };
}
