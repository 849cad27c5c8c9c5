// Which embedder wrote the stored vectors. Starting with another one would mix
// incomparable vectors, so it is refused until `loci reembed` migrates them.
import type { Db, Queryable } from './db.js';
import type { Embedder } from '../providers/embedder/types.js';

export class EmbedderMismatchError extends Error {}

/** Meta keys: the embedder of the stored vectors, and the target of an unfinished `loci reembed`. */
export const META = { model: 'embedding_model', dim: 'embedding_dim', reembedTarget: 'reembed_target' } as const;

export async function getMeta(db: Queryable, key: string): Promise<string | null> {
  const { rows } = await db.query<{ value: string }>('SELECT value FROM loci_meta WHERE key = $1', [key]);
  return rows[0]?.value ?? null;
}

export async function setMeta(db: Queryable, key: string, value: string): Promise<void> {
  await db.query(
    'INSERT INTO loci_meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value',
    [key, value],
  );
}

export async function deleteMeta(db: Queryable, key: string): Promise<void> {
  await db.query('DELETE FROM loci_meta WHERE key = $1', [key]);
}

/**
 * Dimension the stored vectors were written with, or null for a store not yet initialised.
 * Migrations size new vector columns with it, so a start with another embedder does not
 * create columns that disagree with the existing ones.
 */
export async function storedEmbeddingDim(db: Queryable): Promise<number | null> {
  const raw = await getMeta(db, META.dim).catch(() => null); // loci_meta does not exist before the first migration
  return raw === null ? null : Number(raw);
}

/** Holds new vectors while `loci reembed` runs (no vector index: inserts stay cheap). */
export const REEMBED_TABLE = 'reembed_vectors';

export interface VectorColumn {
  table: string;
  column: string;
  /** Declared dimension (`vector(512)` → 512); null for an unsized `vector`. */
  dim: number | null;
}

/** Every vector column of the application's tables (the reembed work table excluded). */
export async function vectorColumns(db: Queryable): Promise<VectorColumn[]> {
  const { rows } = await db.query<{ table: string; column: string; type: string }>(
    `SELECT c.relname AS table, a.attname AS column, format_type(a.atttypid, a.atttypmod) AS type
     FROM pg_attribute a
     JOIN pg_class c ON c.oid = a.attrelid
     JOIN pg_type t ON t.oid = a.atttypid
     WHERE t.typname = 'vector' AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
       AND c.relname <> $1
       AND c.relnamespace = ANY (SELECT oid FROM pg_namespace WHERE nspname = ANY (current_schemas(false)))
     ORDER BY c.relname, a.attname`, [REEMBED_TABLE]);
  return rows.map((r) => {
    const m = /\((\d+)\)/.exec(r.type);
    return { table: r.table, column: r.column, dim: m ? Number(m[1]) : null };
  });
}

function mismatch(model: string, dim: number | string, embedder: Embedder, interrupted: boolean) {
  return new EmbedderMismatchError(
    `The stored memories were embedded with "${model}" (${dim}-d) but the configured embedder is ` +
      `"${embedder.modelId}" (${embedder.dim}-d). Run \`loci reembed\` to re-embed everything with the ` +
      `configured embedder, or configure the original one.` +
      (interrupted ? ' A previous `loci reembed` did not finish; running it again resumes where it stopped.' : ''),
  );
}

export async function checkEmbedderMatches(db: Db, embedder: Embedder): Promise<void> {
  const model = await getMeta(db, META.model);
  const dim = await getMeta(db, META.dim);
  if (model === null) return adoptFreshStore(db, embedder);
  if (model !== embedder.modelId || Number(dim) !== embedder.dim) {
    throw mismatch(model, dim ?? '?', embedder, (await getMeta(db, META.reembedTarget)) !== null);
  }
}

/**
 * First start of a store: record the embedder. Vector columns created with another dimension
 * (a store migrated ahead of its first start) are resized while they hold no vectors.
 */
async function adoptFreshStore(db: Db, embedder: Embedder): Promise<void> {
  await db.tx(async (q) => {
    for (const col of await vectorColumns(q)) {
      if (col.dim === embedder.dim) continue;
      const { rows } = await q.query(`SELECT 1 FROM "${col.table}" WHERE "${col.column}" IS NOT NULL LIMIT 1`);
      if (rows.length) throw mismatch('an unrecorded embedder', col.dim ?? '?', embedder, false);
      await q.query(`ALTER TABLE "${col.table}" ALTER COLUMN "${col.column}" TYPE vector(${embedder.dim}) USING NULL`);
    }
    await setMeta(q, META.model, embedder.modelId);
    await setMeta(q, META.dim, String(embedder.dim));
  });
}
