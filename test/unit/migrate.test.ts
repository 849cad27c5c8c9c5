import { describe, expect, it } from 'vitest';
import { loadMigrations, splitSql } from '../../src/store/migrate.js';

describe('splitSql', () => {
  it('splits on line-ending semicolons, skipping comments and keeping $$ bodies whole', () => {
    const sql = `-- a comment;\nCREATE TABLE a (x int);\nCREATE FUNCTION f() RETURNS int AS $$\nBEGIN\n  RETURN 1;\nEND;\n$$ LANGUAGE plpgsql;\nSELECT 1;`;
    expect(splitSql(sql)).toEqual([
      'CREATE TABLE a (x int);',
      'CREATE FUNCTION f() RETURNS int AS $$\nBEGIN\n  RETURN 1;\nEND;\n$$ LANGUAGE plpgsql;',
      'SELECT 1;',
    ]);
  });
});

describe('migrations', () => {
  it('are numbered uniquely and in order', () => {
    const ms = loadMigrations();
    expect(ms.length).toBeGreaterThan(0);
    const versions = ms.map((m) => m.version);
    expect(new Set(versions).size).toBe(versions.length);
    expect([...versions].sort((a, b) => a - b)).toEqual(versions);
  });
});
