// Versioned SQL migrations, applied at start in order, each once, each in a transaction.
// `{{EMBEDDING_DIM}}` in a migration is replaced by the configured embedder's dimension.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Db } from './db.js';

const DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

export interface Migration { version: number; name: string; sql: string }

export function loadMigrations(dir = DIR): Migration[] {
  const migrations = readdirSync(dir)
    .filter((f) => /^\d+_.+\.sql$/.test(f))
    .sort()
    .map((f) => ({ version: Number(f.split('_')[0]), name: f, sql: readFileSync(dir + f, 'utf8') }));
  // Two files with one number would silently skip the second wherever the first has run.
  for (let i = 1; i < migrations.length; i++) {
    if (migrations[i].version === migrations[i - 1].version) {
      throw new Error(`migrations ${migrations[i - 1].name} and ${migrations[i].name} share version ${migrations[i].version}; renumber one`);
    }
  }
  return migrations;
}

export async function migrate(db: Db, opts: { embeddingDim: number }): Promise<number[]> {
  await db.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
  const applied: number[] = [];
  for (const m of loadMigrations()) {
    const sql = m.sql.replaceAll('{{EMBEDDING_DIM}}', String(opts.embeddingDim));
    const ran = await db.tx(async (q) => {
      // Replicas starting together against one server: the lock makes each migration run once.
      await q.query('SELECT pg_advisory_xact_lock(7345121)');
      const done = await q.query('SELECT 1 FROM schema_migrations WHERE version = $1', [m.version]);
      if (done.rows.length) return false;
      // Statements run one by one: the pg driver and PGlite both take one statement per parameterless query.
      for (const stmt of splitSql(sql)) await q.query(stmt);
      await q.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      return true;
    }, { statementTimeoutMs: 0 }); // building an index over a large table may take minutes
    if (ran) applied.push(m.version);
  }
  return applied;
}

/** Splits a migration on semicolons that end a line, outside $$-quoted bodies. */
export function splitSql(sql: string): string[] {
  const out: string[] = [];
  let cur = '';
  let inDollar = false;
  for (const line of sql.split('\n')) {
    if (/^\s*--/.test(line) && !inDollar) continue;
    cur += line + '\n';
    if ((line.match(/\$\$/g) ?? []).length % 2 === 1) inDollar = !inDollar;
    if (!inDollar && /;\s*$/.test(line)) {
      out.push(cur.trim());
      cur = '';
    }
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}
