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
// from a smaller sample, in two statements (at 100k memories one ANALYZE of `memories` held the
// session 0.5–0.9 s, and the VACUUM (ANALYZE) of the whole store 1.2–2 s).
import type { Db } from './db.js';
import type { PgliteDb } from './pglite.js';
import { inBackground } from '../infra/priority.js';

export interface MaintenanceOptions {
  vacuumEveryMs?: number;
  analyzeCheckEveryMs?: number;
}

/** Tables with more live rows than this are analysed in two statements, most columns from a smaller sample. */
export const SPLIT_ANALYZE_ROWS = 20_000;
/**
 * The statistics target of a large table's columns other than READ_STATISTICS: ANALYZE reads 300
 * rows per unit of target, so 30 samples 9,000 rows where the default 100 samples 30,000 — the
 * sample is most of the cost. Plenty for the planner's row estimates.
 */
export const LARGE_TABLE_TARGET = 30;
/** The columns whose planner statistics the service reads itself (TermStats in core/search/keyword-plan.ts): tenant shares, word frequencies. */
export const TENANT_STATISTICS = 'tenant_id';
export const WORD_STATISTICS = 'search_tsv';
/** Those columns, analysed at the default target. */
export const READ_STATISTICS = [TENANT_STATISTICS, WORD_STATISTICS];

/**
 * What the statistics view counted as changed when a large table was last analysed:
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
 * last ANALYZE: counted from `kept` for a large table (analysed by columns). A count below the
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
  // The table's size as the planner last saw it (reltuples), as autovacuum takes it: the view's
  // live-row count starts at 0 when the database opens, and 50 changed rows then crossed the
  // threshold of any table (a store of 100k memories was analysed within seconds of every start).
  const { rows } = await db.query<TableChanges>(
    `SELECT s.relname, s.n_mod_since_analyze::float8 AS changed, greatest(s.n_live_tup, c.reltuples, 0)::float8 AS live
     FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid WHERE s.schemaname = current_schema()`);
  const stale = staleTables(rows, kept);
  for (const r of stale) {
    if (await analyzeTable(db, r.relname, r.live)) kept.set(r.relname, r.changed);
    else kept.delete(r.relname);
  }
  return stale.map((r) => r.relname);
}

/**
 * ANALYZE of one table. A large one goes in two statements, so requests run in between: the
 * columns of READ_STATISTICS at the default target, then the others at LARGE_TABLE_TARGET.
 * True when it went so (the view's change count was then not reset).
 */
export async function analyzeTable(db: Db, table: string, liveRows: number, splitRows = SPLIT_ANALYZE_ROWS): Promise<boolean> {
  if (liveRows <= splitRows) {
    await db.query(`ANALYZE ${quoteIdent(table)}`);
    return false;
  }
  const { rows } = await db.query<{ attname: string }>(
    `SELECT attname FROM pg_attribute WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum`,
    [quoteIdent(table)]);
  const names = rows.map((r) => r.attname);
  const read = names.filter((c) => READ_STATISTICS.includes(c));
  const rest = names.filter((c) => !READ_STATISTICS.includes(c));
  const columns = (cols: string[]) => cols.map(quoteIdent).join(', ');
  if (read.length) await db.query(`ANALYZE ${quoteIdent(table)} (${columns(read)})`);
  if (rest.length) {
    await db.queryWithSettings({ default_statistics_target: String(LARGE_TABLE_TARGET) }, `ANALYZE ${quoteIdent(table)} (${columns(rest)})`);
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
