// Named statements on the embedded database: a statement seen twice is prepared once and then only
// bound and executed. Its answers must be those of the unnamed path, errors included, and a change
// of a table's columns must not leave a prepared statement answering for the old ones.
import { afterAll, describe, expect, it } from 'vitest';
import { PgliteDb } from '../../src/store/pglite.js';
import { vectorParam } from '../../src/store/db.js';

describe('PgliteDb named statements', () => {
  const db = new PgliteDb();
  afterAll(() => db.close());
  const prepared = async () => (await db.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements')).rows.map((r) => r.statement);

  it('prepares a statement seen twice and answers as the first, unnamed run did', async () => {
    await db.query('CREATE EXTENSION IF NOT EXISTS vector');
    const sql = `SELECT $1::int + 1 AS n, $2::text AS t, $3::jsonb AS j, $4::text[] AS a, $5::numeric AS d,
      $6::timestamptz AS at, $7::vector AS v, $8::text AS missing`;
    const params = [41, 'é', JSON.stringify({ k: [1, 'x'] }), ['a', 'b'], '1.50', '2026-01-02T03:04:05Z', vectorParam([0.5, -1, 2]), null];
    const runs = [];
    for (let i = 0; i < 8; i++) runs.push((await db.query(sql, params)).rows);
    expect(runs[0]).toEqual([{
      n: 42, t: 'é', j: { k: [1, 'x'] }, a: ['a', 'b'], d: '1.50', at: new Date('2026-01-02T03:04:05Z'), v: '[0.5,-1,2]', missing: null,
    }]);
    for (const r of runs) expect(r).toEqual(runs[0]);
    expect(await prepared()).toContain(sql);
  });

  it('gives the same errors, and the session goes on', async () => {
    await db.query('CREATE TABLE uniq (id int PRIMARY KEY)');
    const insert = 'INSERT INTO uniq VALUES ($1)';
    await db.query(insert, [1]);
    await db.query(insert, [2]);
    expect(await prepared()).toContain(insert);
    const err = await db.query(insert, [1]).then(() => null, (e) => e);
    expect(err?.code).toBe('23505');
    // Inside a transaction the failure aborts it, and nothing of it stays.
    const txErr = await db.tx(async (q) => {
      await q.query(insert, [3]);
      await q.query(insert, [2]);
    }).then(() => null, (e) => e);
    expect(txErr?.code).toBe('23505');
    expect((await db.query<{ id: number }>('SELECT id FROM uniq ORDER BY id')).rows.map((r) => r.id)).toEqual([1, 2]);
  });

  it('forgets its statements when a table changes, so SELECT * shows the new columns', async () => {
    await db.query('CREATE TABLE grows (a int)');
    await db.query('INSERT INTO grows VALUES (1)');
    const select = 'SELECT * FROM grows';
    await db.query(select);
    await db.query(select);
    expect(await prepared()).toContain(select);
    await db.query(`-- a migration's comment\nALTER TABLE grows ADD COLUMN b text DEFAULT 'x'`);
    expect(await prepared()).not.toContain(select);
    expect((await db.query(select)).rows).toEqual([{ a: 1, b: 'x' }]);
    // A script (migrations run as one) forgets them too.
    await db.query(select);
    await db.exec('ALTER TABLE grows ADD COLUMN c int DEFAULT 3');
    expect((await db.query(select)).rows).toEqual([{ a: 1, b: 'x', c: 3 }]);
  });

  it('keeps a bounded number of statements, closing the least recently used', async () => {
    for (let i = 0; i < 300; i++) {
      const sql = `SELECT ${i} AS n, $1::int AS p`;
      await db.query(sql, [i]);
      expect((await db.query(sql, [i])).rows).toEqual([{ n: i, p: i }]);
    }
    const names = await prepared();
    expect(names.length).toBeLessThanOrEqual(256);
    expect(names).toContain('SELECT 299 AS n, $1::int AS p');
    expect(names).not.toContain('SELECT 0 AS n, $1::int AS p');
    expect((await db.query('SELECT 0 AS n, $1::int AS p', [7])).rows).toEqual([{ n: 0, p: 7 }]);
  });
});
