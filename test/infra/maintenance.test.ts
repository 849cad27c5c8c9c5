// Statistics on the embedded database, which has no autovacuum: a table that changed by more than
// the analyze threshold is analysed, so plans and the keyword leg's word statistics follow a bulk load.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { LARGE_TABLE_TARGET, READ_STATISTICS, analyzeStale, analyzeTable, vacuumTables } from '../../src/store/maintenance.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

const analysed = async () => (await t.services.db.query<{ n: number }>(
  `SELECT count(*)::int AS n FROM pg_stats WHERE schemaname = current_schema() AND tablename = 'memories' AND attname = 'tenant_id'`)).rows[0].n;

describe('analyzeStale', () => {
  it('analyses a table once more rows changed than 50 + 10 % of it, and not again until they do', async () => {
    if (t.services.db.kind !== 'pglite') return; // a server runs its own autovacuum
    await t.services.db.query('ANALYZE memories');
    expect(await analysed()).toBe(0); // an empty table has no statistics
    const items = Array.from({ length: 80 }, (_, i) => ({ content: `Inventory note ${i}: shelf ${i % 9} holds ${i * 3} boxes of part ${1000 + i}.` }));
    const r = await t.api('POST', '/api/v1/memories/bulk', {
      body: { tenant_id: 'stats', agent_id: 'a1', items }, headers: { 'x-bulk-attempt-id': 'stats-1' },
    });
    expect(r.body.created).toBe(80);
    // The change counts reach the statistics views shortly after the transactions end; the
    // service's own timer may get there first.
    for (let i = 0; i < 40 && (await analysed()) === 0; i++) {
      await new Promise((res) => setTimeout(res, 250));
      await analyzeStale(t.services.db);
    }
    expect(await analysed()).toBe(1);
    expect(await analyzeStale(t.services.db)).not.toContain('memories');
  });
});

describe('the analyze threshold after the database opens', () => {
  it('is measured against the table as the planner last saw it, not the counts an opening clears', async () => {
    if (t.services.db.kind !== 'pglite') return;
    const db = t.services.db;
    for (const b of [0, 1]) {
      const items = Array.from({ length: 100 }, (_, i) => ({ content: `Parts bin ${b}-${i}: ${i * 7} washers of size M${3 + (i % 6)} on rack ${i % 11}.` }));
      const r = await t.api('POST', '/api/v1/memories/bulk', {
        body: { tenant_id: 'stats-open', agent_id: 'a1', items }, headers: { 'x-bulk-attempt-id': `stats-open-${b}` },
      });
      expect(r.body.created).toBe(100);
    }
    // The counts pending in this session go to the view first, so that none arrive after the reset.
    await db.query('SELECT pg_stat_force_next_flush()');
    await db.query('ANALYZE memories');
    await db.query('SELECT pg_stat_force_next_flush()');
    // As when the database opens: the view's counts start from zero, the planner's size stays.
    await db.query('SELECT pg_stat_reset()');
    await db.query(`UPDATE memories SET recall_count = recall_count + 1 WHERE id IN (SELECT id FROM memories WHERE tenant_id = 'stats-open' LIMIT 60)`);
    await db.query('SELECT pg_stat_force_next_flush()');
    const view = async () => (await db.query<{ changed: number; live: number }>(
      `SELECT n_mod_since_analyze::int AS changed, n_live_tup::int AS live FROM pg_stat_user_tables WHERE relname = 'memories'`)).rows[0];
    for (let i = 0; i < 40 && (await view()).changed < 60; i++) await new Promise((res) => setTimeout(res, 250));
    const v = await view();
    // Against the view's own count the table would be stale; it holds 200 rows and more.
    expect(v.changed).toBeGreaterThan(50 + 0.1 * v.live);
    expect(await analyzeStale(db)).not.toContain('memories');
  });
});

describe('maintenance statements on the embedded database', () => {
  /** The service's database, recording every statement sent through it. */
  const recording = () => {
    const db = t.services.db;
    const sent: string[] = [];
    const rec = Object.create(db, {
      query: { value: (sql: string, params?: unknown[]) => { sent.push(sql); return db.query(sql, params); } },
      queryWithSettings: {
        value: (settings: Record<string, string>, sql: string, params?: unknown[]) => {
          sent.push(`${JSON.stringify(settings)} ${sql}`);
          return db.queryWithSettings(settings, sql, params);
        },
      },
      maintenance: { value: (sql: string) => { sent.push(sql); return (db as any).maintenance(sql); } },
    });
    return { db: rec as typeof db, sent };
  };
  const columnsWithStats = async () => (await t.services.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_stats WHERE schemaname = current_schema() AND tablename = 'memories'`)).rows[0].n;

  it('analyses a large table in two statements, the statistics the service reads at the default target', async () => {
    if (t.services.db.kind !== 'pglite') return;
    const items = Array.from({ length: 30 }, (_, i) => ({ content: `Freight log ${i}: container ${7000 + i} left dock ${i % 5} with ${i * 2} pallets.` }));
    const r = await t.api('POST', '/api/v1/memories/bulk', {
      body: { tenant_id: 'stats-split', agent_id: 'a1', items }, headers: { 'x-bulk-attempt-id': 'stats-split-1' },
    });
    expect(r.body.created).toBe(30);
    const { db, sent } = recording();
    // Every table counts as large here.
    expect(await analyzeTable(db, 'memories', 30, 10)).toBe(true);
    const analyses = sent.filter((s) => s.includes('ANALYZE'));
    expect(analyses).toHaveLength(2);
    expect(analyses[0]).toBe(`ANALYZE "memories" (${READ_STATISTICS.map((c) => `"${c}"`).join(', ')})`);
    expect(analyses[1]).toMatch(new RegExp(`^\\{"default_statistics_target":"${LARGE_TABLE_TARGET}"\\} ANALYZE "memories" \\("id", `));
    for (const c of READ_STATISTICS) expect(analyses[1]).not.toContain(`"${c}"`);
    const { rows } = await t.services.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_attribute WHERE attrelid = 'memories'::regclass AND attnum > 0 AND NOT attisdropped`);
    // Every column was analysed (a column of only nulls still gets a row in pg_stats).
    expect(await columnsWithStats()).toBe(rows[0].n);
    // A small table is one statement.
    sent.length = 0;
    expect(await analyzeTable(db, 'memories', 30)).toBe(false);
    expect(sent).toEqual(['ANALYZE "memories"']);
  });

  it('vacuums one table per statement', async () => {
    if (t.services.db.kind !== 'pglite') return;
    const { db, sent } = recording();
    const tables = await vacuumTables(db as any);
    expect(tables).toContain('memories');
    expect(sent.filter((s) => s.startsWith('VACUUM'))).toEqual(tables.map((x) => `VACUUM "${x}"`));
  });
});
