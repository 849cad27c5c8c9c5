import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

  it('refuses two files with one version number', () => {
    const dir = mkdtempSync(join(tmpdir(), 'loci-mig-'));
    try {
      for (const f of ['001_a.sql', '002_b.sql', '002_c.sql']) writeFileSync(join(dir, f), 'SELECT 1;');
      expect(() => loadMigrations(`${dir}/`)).toThrow('migrations 002_b.sql and 002_c.sql share version 2');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
