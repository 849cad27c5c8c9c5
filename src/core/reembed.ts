// `loci reembed`: re-embeds every stored vector with the configured embedder and migrates the
// vector columns to its dimension. Safe to interrupt: new vectors go to a work table (committed
// batch by batch) and the stored ones are replaced in one transaction at the end, so until then
// the store is unchanged and a second run resumes where the first stopped.
import type { Db, Queryable } from '../store/db.js';
import { vectorLiteral } from '../store/db.js';
import {
  deleteMeta, getMeta, META, REEMBED_TABLE, setMeta, storedEmbeddingDim, vectorColumns,
} from '../store/meta.js';
import type { Embedder } from '../providers/embedder/types.js';
import { indexText } from './memories/content.js';
import { indexedTitle } from './enrich/types.js';
import { EMBED_MAX_CHARS } from './documents/rules.js';

/** A table whose `embedding` column holds a vector of some text of the row (next to `embedding_model`). */
interface VectorSource {
  table: string;
  /** Columns (alias t) the text is built from. */
  columns: string;
  /** Rows that carry a vector at all (alias t). */
  where: string;
  /** The text embedded for a row, exactly as the write path embeds it. */
  text(row: Record<string, any>): string;
}

const SOURCES: VectorSource[] = [
  { table: 'memories', columns: 't.title, t.content, t.metadata', where: 'true', text: (r) => indexText(indexedTitle(r.title, r.metadata), r.content) },
  { table: 'documents', columns: 't.text', where: `t.text <> ''`, text: (r) => String(r.text).slice(0, EMBED_MAX_CHARS) },
];

/**
 * A table of vectors derived from memories (search passages and context units): no row ids or
 * timestamps to track, so its column is emptied at the swap and filled afterwards from `content`.
 * Until filled, its rows reach search through the keyword leg only. (A context unit is embedded from
 * its text here, where the indexer sums its memories' vectors: both read the same on LoCoMo.)
 */
const DERIVED = ['memory_passages'];

export type ReembedEvent =
  | { phase: 'embed'; table: string; done: number; total: number }
  | { phase: 'swap'; table: string }
  | { phase: 'index'; table: string; index: string };

export interface ReembedOptions {
  /** Rows embedded and committed together. Default 64. */
  batchSize?: number;
  onProgress?: (e: ReembedEvent) => void;
}

export interface EmbedderId {
  model: string | null;
  dim: number | null;
}

export interface ReembedResult {
  /** Nothing to do: the store already uses the configured embedder. */
  upToDate: boolean;
  from: EmbedderId;
  to: { model: string; dim: number };
  /** Rows embedded by this run, per table (a resumed run counts only what it did). */
  embedded: Record<string, number>;
}

const MIN_UUID = '00000000-0000-0000-0000-000000000000';
/** Matches an index definition that uses the `embedding` column (not `embedding_model`). */
const USES_EMBEDDING = String.raw`\membedding\M`;

/** A row whose new vector is in the work table and still matches the row (not updated since). */
const fresh = (tbl: string) =>
  `EXISTS (SELECT 1 FROM ${REEMBED_TABLE} r WHERE r.tbl = ${tbl} AND r.id = t.id
             AND r.source_updated_at IS NOT DISTINCT FROM t.updated_at)`;

export async function reembed(db: Db, embedder: Embedder, opts: ReembedOptions = {}): Promise<ReembedResult> {
  const batchSize = Math.max(1, opts.batchSize ?? 64);
  const to = { model: embedder.modelId, dim: embedder.dim };
  const from: EmbedderId = { model: await getMeta(db, META.model), dim: await storedEmbeddingDim(db) };
  const columns = await vectorColumns(db);
  const unknown = columns.filter((c) => c.column !== 'embedding' || !(SOURCES.some((s) => s.table === c.table) || DERIVED.includes(c.table)));
  if (unknown.length) {
    // A vector column this command does not know how to fill: refuse rather than leave it stale.
    throw new Error(`cannot re-embed ${unknown.map((c) => `${c.table}.${c.column}`).join(', ')}: no text source is registered for it`);
  }
  const target = `${to.model}|${to.dim}`;
  const pending = await getMeta(db, META.reembedTarget);
  const embedded: Record<string, number> = {};
  if (pending === null && from.model === to.model && from.dim === to.dim && columns.every((c) => c.dim === to.dim)) {
    // A run stopped after its swap leaves derived vectors to fill.
    const filled = await fillDerived(db, embedder, batchSize, opts.onProgress);
    return { upToDate: filled === 0, from, to, embedded: filled ? { memory_passages: filled } : embedded };
  }

  // An unfinished run for another embedder left vectors of the wrong kind: start over.
  if (pending !== target) await db.query(`DROP TABLE IF EXISTS ${REEMBED_TABLE}`);
  await db.query(`CREATE TABLE IF NOT EXISTS ${REEMBED_TABLE} (
    tbl text NOT NULL,
    id uuid NOT NULL,
    source_updated_at timestamptz,
    embedding vector(${to.dim}) NOT NULL,
    PRIMARY KEY (tbl, id))`);
  await setMeta(db, META.reembedTarget, target);

  for (const src of SOURCES) embedded[src.table] = await embedTable(db, embedder, src, batchSize, opts.onProgress);
  await swap(db, to, opts.onProgress);
  const passages = await fillDerived(db, embedder, batchSize, opts.onProgress);
  if (passages) embedded.memory_passages = passages;
  return { upToDate: false, from, to, embedded };
}

/** Embeds the derived rows without a vector (after a swap emptied them); returns how many. */
async function fillDerived(db: Db, embedder: Embedder, batchSize: number, onProgress?: (e: ReembedEvent) => void): Promise<number> {
  let done = 0;
  for (const table of DERIVED) {
    const total = Number((await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE embedding IS NULL`)).rows[0].n);
    if (total === 0) continue;
    let inTable = 0;
    for (;;) {
      const { rows } = await db.query<{ memory_id: string; ord: number; content: string }>(
        `SELECT memory_id, ord, content FROM ${table} WHERE embedding IS NULL ORDER BY memory_id, ord LIMIT $1`, [batchSize]);
      if (rows.length === 0) break;
      const vectors = await embedder.embed(rows.map((r) => r.content.slice(0, EMBED_MAX_CHARS)));
      await db.query(
        `UPDATE ${table} AS t SET embedding = x.v::vector
         FROM unnest($1::uuid[], $2::int[], $3::text[]) AS x(id, ord, v) WHERE t.memory_id = x.id AND t.ord = x.ord`,
        [rows.map((r) => r.memory_id), rows.map((r) => r.ord), vectors.map((v) => vectorLiteral(v))]);
      inTable += rows.length;
      onProgress?.({ phase: 'embed', table, done: Math.min(inTable, total), total });
    }
    done += inTable;
  }
  return done;
}

/** Embeds every row of a table that has no fresh vector in the work table yet; returns how many. */
async function embedTable(
  db: Db, embedder: Embedder, src: VectorSource, batchSize: number, onProgress?: (e: ReembedEvent) => void,
): Promise<number> {
  const count = async (onlyFresh: boolean) =>
    Number((await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${src.table} t WHERE ${src.where}${onlyFresh ? ` AND ${fresh('$1')}` : ''}`,
      onlyFresh ? [src.table] : [])).rows[0].n);
  const total = await count(false);
  let done = await count(true);
  onProgress?.({ phase: 'embed', table: src.table, done, total });
  let embedded = 0;
  // Passes over the table in id order; a second pass picks up rows written or changed behind the cursor.
  for (let pass = 0; pass < 5; pass++) {
    let last = MIN_UUID;
    let inPass = 0;
    for (;;) {
      const { rows } = await db.query<Record<string, any>>(
        // updated_at as text: a JS Date would drop the microseconds the freshness check compares.
        `SELECT t.id, t.updated_at::text AS updated_at, ${src.columns} FROM ${src.table} t
         WHERE ${src.where} AND t.id > $2::uuid AND NOT ${fresh('$1')}
         ORDER BY t.id LIMIT $3`, [src.table, last, batchSize]);
      if (rows.length === 0) break;
      const vectors = await embedder.embed(rows.map((r) => src.text(r)));
      await db.query(
        `INSERT INTO ${REEMBED_TABLE} (tbl, id, source_updated_at, embedding)
         SELECT $1, x.id, x.u, x.v::vector FROM unnest($2::uuid[], $3::timestamptz[], $4::text[]) AS x(id, u, v)
         ON CONFLICT (tbl, id) DO UPDATE SET embedding = EXCLUDED.embedding, source_updated_at = EXCLUDED.source_updated_at`,
        [src.table, rows.map((r) => r.id), rows.map((r) => r.updated_at), vectors.map((v) => vectorLiteral(v))]);
      last = rows[rows.length - 1].id;
      inPass += rows.length;
      done = Math.min(done + rows.length, total);
      onProgress?.({ phase: 'embed', table: src.table, done, total });
    }
    embedded += inPass;
    if (inPass === 0) return embedded;
  }
  throw new Error(`${src.table} kept changing while it was re-embedded; stop every server using this store and run \`loci reembed\` again`);
}

/** Replaces the stored vectors with the new ones and resizes the columns, all in one transaction. */
async function swap(db: Db, to: { model: string; dim: number }, onProgress?: (e: ReembedEvent) => void): Promise<void> {
  await db.tx(async (q) => {
    for (const src of SOURCES) {
      onProgress?.({ phase: 'swap', table: src.table });
      const { rows: stale } = await q.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM ${src.table} t WHERE ${src.where} AND NOT ${fresh('$1')}`, [src.table]);
      if (Number(stale[0].n) > 0) {
        throw new Error(`${stale[0].n} ${src.table} changed while they were re-embedded; stop every server using this store and run \`loci reembed\` again`);
      }
      const indexes = await embeddingIndexes(q, src.table);
      // Vector indexes are rebuilt in bulk afterwards: far cheaper than updating them row by row.
      for (const i of indexes) await q.query(`DROP INDEX "${i.name}"`);
      await q.query(`ALTER TABLE ${src.table} ALTER COLUMN embedding TYPE vector(${to.dim}) USING NULL`);
      await q.query(
        `UPDATE ${src.table} AS t SET embedding = r.embedding, embedding_model = $2
         FROM ${REEMBED_TABLE} r WHERE r.tbl = $1 AND r.id = t.id`, [src.table, to.model]);
      await q.query(`SET LOCAL maintenance_work_mem = '256MB'`);
      for (const i of indexes) {
        onProgress?.({ phase: 'index', table: src.table, index: i.name });
        await q.query(i.definition);
      }
    }
    for (const table of DERIVED) {
      onProgress?.({ phase: 'swap', table });
      const indexes = await embeddingIndexes(q, table);
      for (const i of indexes) await q.query(`DROP INDEX "${i.name}"`);
      await q.query(`ALTER TABLE ${table} ALTER COLUMN embedding TYPE vector(${to.dim}) USING NULL`);
      for (const i of indexes) await q.query(i.definition);
    }
    await setMeta(q, META.model, to.model);
    await setMeta(q, META.dim, String(to.dim));
    await deleteMeta(q, META.reembedTarget);
    await q.query(`DROP TABLE ${REEMBED_TABLE}`);
  }, { statementTimeoutMs: 0 }); // rebuilding vector indexes takes minutes at scale
}

async function embeddingIndexes(q: Queryable, table: string): Promise<{ name: string; definition: string }[]> {
  const { rows } = await q.query<{ name: string; definition: string }>(
    `SELECT indexname AS name, indexdef AS definition FROM pg_indexes
     WHERE tablename = $1 AND schemaname = ANY (current_schemas(false)) AND indexdef ~ $2
     ORDER BY indexname`, [table, USES_EMBEDDING]);
  return rows;
}
