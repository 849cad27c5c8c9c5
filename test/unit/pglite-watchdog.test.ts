// The embedded database's watchdog: PGlite ignores statement_timeout, so a statement past the
// limit must fail with 57014 and leave a working database behind, committed data intact. And the
// settings a statement runs under, some of them kept on the one session.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PgliteDb } from '../../src/store/pglite.js';
import { isStatementTimeout } from '../../src/store/db.js';

describe('PgliteDb watchdog', () => {
  const dir = mkdtempSync(join(tmpdir(), 'loci-watchdog-'));
  const restarts: string[] = [];
  const db = new PgliteDb(join(dir, 'pg'), undefined, { statementTimeoutMs: 1500, onRestart: (r) => restarts.push(r) });
  afterAll(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('fails a runaway statement, restarts the database and keeps committed rows', async () => {
    await db.query('CREATE TABLE kept (n int)');
    await db.query('INSERT INTO kept VALUES (1), (2)');
    const started = Date.now();
    const err = await db.query('SELECT pg_sleep(20)').then(() => null, (e) => e);
    expect(isStatementTimeout(err)).toBe(true);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(restarts).toHaveLength(1);
    // Queued and later statements run on the fresh database, which holds what was committed.
    const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM kept');
    expect(rows[0].n).toBe(2);
  });

  it('times a statement that waited behind a running one from its own start, not from when it was issued', async () => {
    // Together the two take longer than the limit, each less.
    const [a, b] = await Promise.all([
      db.query<{ n: number }>('SELECT 1 AS n FROM pg_sleep(0.9)'),
      db.query<{ n: number }>('SELECT 2 AS n FROM pg_sleep(0.9)'),
    ]);
    expect([a.rows[0].n, b.rows[0].n]).toEqual([1, 2]);
    expect(restarts).toHaveLength(1);
  });

  it('runs the statements queued behind a runaway one on the fresh database', async () => {
    const runaway = db.query('SELECT pg_sleep(20)').then(() => null, (e) => e);
    const queued = db.query<{ n: number }>('SELECT count(*)::int AS n FROM kept');
    expect(isStatementTimeout(await runaway)).toBe(true);
    expect((await queued).rows[0].n).toBe(2);
    expect(restarts).toHaveLength(2);
  });

  it('aborts a transaction caught by a restart instead of running its rest outside it', async () => {
    const err = await db.tx(async (q) => {
      await q.query('INSERT INTO kept VALUES (3)');
      await q.query('SELECT pg_sleep(20)');
      await q.query('INSERT INTO kept VALUES (4)');
    }).then(() => null, (e) => e);
    expect(isStatementTimeout(err)).toBe(true);
    const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM kept');
    expect(rows[0].n).toBe(2);
    // A transaction without a limit may run long.
    const out = await db.tx(async (q) => (await q.query<{ ok: number }>('SELECT 1 AS ok FROM pg_sleep(2)')).rows[0].ok, { statementTimeoutMs: 0 });
    expect(out).toBe(1);
  });
});

describe('PgliteDb statement settings', () => {
  const dir = mkdtempSync(join(tmpdir(), 'loci-settings-'));
  const db = new PgliteDb(join(dir, 'pg'), undefined, { statementTimeoutMs: 1500 });
  afterAll(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const read = `SELECT current_setting('hnsw.ef_search', true) AS ef, current_setting('hnsw.iterative_scan', true) AS scan,
                       current_setting('enable_seqscan') AS seqscan`;
  const withSettings = async (settings: Record<string, string>) => (await db.queryWithSettings(settings, read)).rows[0];

  it('hold for their own statement: an HNSW setting not named is back at its default, the others are local', async () => {
    expect(await withSettings({ 'hnsw.ef_search': '100', 'hnsw.iterative_scan': 'relaxed_order' })).toEqual({ ef: '100', scan: 'relaxed_order', seqscan: 'on' });
    expect(await withSettings({ 'hnsw.ef_search': '100', 'hnsw.iterative_scan': 'relaxed_order' })).toEqual({ ef: '100', scan: 'relaxed_order', seqscan: 'on' });
    expect(await withSettings({ 'hnsw.iterative_scan': 'strict_order', enable_seqscan: 'off' })).toEqual({ ef: '40', scan: 'strict_order', seqscan: 'off' });
    expect((await db.query(read)).rows[0].seqscan).toBe('on');
    expect(await withSettings({})).toEqual({ ef: '40', scan: 'off', seqscan: 'on' });
  });

  it('are set again on the fresh session after a restart', async () => {
    expect((await withSettings({ 'hnsw.ef_search': '77' })).ef).toBe('77');
    expect(await db.query('SELECT pg_sleep(20)').then(() => null, (e) => e)).not.toBeNull();
    expect((await withSettings({ 'hnsw.ef_search': '77' })).ef).toBe('77');
  });
});
