// The three search legs, each one simple indexed query (LIBRARIES: one-statement hybrid SQL
// re-plans badly on PGlite; separate legs fused in TypeScript are faster and clearer).
// Every leg applies the same row predicate (filters.ts).
import type { Db, Queryable, Row } from '../../store/db.js';
import { vectorLiteral } from '../../store/db.js';
import { Params } from '../memories/params.js';
import type { EntityLegConfig, KeywordLegConfig, VectorLegConfig } from './config.js';
import { searchConditions, type SearchFilter } from './filters.js';
import { planKeywordQuery, type TermStats } from './keyword-plan.js';
import type { Candidate } from './fusion.js';

const toCandidate = (r: Row): Candidate => ({
  id: r.id,
  weight: Number(r.weight),
  createdAt: r.created_at instanceof Date ? r.created_at : new Date(r.created_at),
});

/**
 * Full-text leg over memories.search_tsv: the query's lexemes (Postgres's English parser and
 * stemmer), planned against the term statistics (keyword-plan.ts), matched through the GIN
 * index, at most candidateLimit candidates ranked.
 */
export async function keywordLeg(
  db: Queryable, f: SearchFilter, query: string, cfg: KeywordLegConfig, stats: TermStats,
): Promise<{ candidates: Candidate[]; terms: string[] }> {
  const [{ rows: [lex] }, freqs] = await Promise.all([
    db.query<{ lexemes: string[] }>(`SELECT tsvector_to_array(to_tsvector('english', $1)) AS lexemes`, [query]),
    stats.get(db),
  ]);
  const plan = planKeywordQuery(lex?.lexemes ?? [], freqs, cfg);
  if (!plan.match || !plan.rank) return { candidates: [], terms: plan.terms };
  const p = new Params();
  const w = searchConditions(p, f);
  const { rows } = await db.query(
    `SELECT c.id, c.weight, c.created_at FROM (
       SELECT m.id, m.weight, m.created_at, m.search_tsv FROM memories m
       WHERE ${w.join(' AND ')} AND m.search_tsv @@ ${p.add(plan.match, 'tsquery')}
       LIMIT ${p.add(cfg.candidateLimit, 'int')}
     ) AS c
     ORDER BY ${cfg.rank}(c.search_tsv, ${p.add(plan.rank, 'tsquery')}, ${p.add(cfg.normalization, 'int')}) DESC, c.id
     LIMIT ${p.add(cfg.k, 'int')}`, p.values);
  return { candidates: rows.map(toCandidate), terms: plan.terms };
}

export interface MatchedEntity {
  id: string;
  name: string;
  mentionCount: number;
  /** 1 for an exact name match, EntityLegConfig.partialWeight for a match on one word of the name. */
  match: number;
}

/** Longest name a one-word term matches partially: names, not phrases ("due at the end of May"). */
const PARTIAL_MAX_WORDS = 4;

/**
 * Entities of the tenant the query names: normalised name equal to a key, or (partial) a
 * one-word key equal to one word of a name (dates excepted). Exact matches first, then the
 * rarest (most telling).
 */
export async function matchEntities(db: Queryable, tenantId: string, keys: string[], cfg: EntityLegConfig): Promise<MatchedEntity[]> {
  if (keys.length === 0) return [];
  const words = cfg.partialWeight > 0 ? keys.filter((k) => !k.includes(' ') && k.length >= 3) : [];
  const { rows } = await db.query(
    `SELECT e.id, e.name, e.mention_count, e.normalized_name = ANY($2::text[]) AS exact
     FROM entities e
     WHERE e.tenant_id = $1 AND e.mention_count > 0
       AND (e.normalized_name = ANY($2::text[])
            OR (string_to_array(e.normalized_name, ' ') && $3::text[] AND e.entity_type <> 'date'
                AND cardinality(string_to_array(e.normalized_name, ' ')) <= ${PARTIAL_MAX_WORDS}))
     ORDER BY exact DESC, e.mention_count, e.id LIMIT $4`, [tenantId, keys, words, cfg.maxEntities]);
  return rows.map((r) => ({ id: r.id, name: r.name, mentionCount: Number(r.mention_count), match: r.exact ? 1 : cfg.partialWeight }));
}

/**
 * Entity leg: memories linked to the query's entities — for each entity its linksPerEntity most
 * recently linked memories passing the filters. A memory linked to more of them ranks higher,
 * and a rare entity counts more than a common one (match / ln(2 + mentions)), then newest first.
 */
export async function entityLeg(db: Queryable, f: SearchFilter, entities: MatchedEntity[], cfg: EntityLegConfig): Promise<Candidate[]> {
  if (entities.length === 0) return [];
  const p = new Params();
  const w = searchConditions(p, f);
  const tenant = p.add(f.tenantId);
  const ids = p.add(entities.map((e) => e.id), 'uuid[]');
  const value = p.add(entities.map((e) => e.match / Math.log(2 + e.mentionCount)), 'float8[]');
  const { rows } = await db.query(
    `SELECT x.id, x.weight, x.created_at, sum(q.v) AS score
     FROM unnest(${ids}, ${value}) AS q(entity_id, v)
     CROSS JOIN LATERAL (
       SELECT m.id, m.weight, m.created_at FROM entity_links l JOIN memories m ON m.id = l.memory_id
       WHERE l.tenant_id = ${tenant} AND l.entity_id = q.entity_id AND ${w.join(' AND ')}
       ORDER BY l.created_at DESC LIMIT ${p.add(cfg.linksPerEntity, 'int')}
     ) AS x
     GROUP BY x.id, x.weight, x.created_at
     ORDER BY score DESC, x.created_at DESC, x.id
     LIMIT ${p.add(cfg.k, 'int')}`, p.values);
  return rows.map(toCandidate);
}

export interface VectorHit extends Candidate {
  /** Cosine similarity to the query. */
  similarity: number;
}

export interface VectorResult {
  /** The leg's ranking, most similar first (empty when the leg is off). */
  ranked: VectorHit[];
  /** Similarity of every id asked about (those other legs found), and of every ranked one. */
  similarity: Map<string, number>;
}

/**
 * Vector leg (HNSW, cosine) plus the similarity of the other legs' candidates, in one statement
 * so the query vector is sent and parsed once. The HNSW settings are transaction-local:
 * iterative scan keeps a filtered top-k complete (without it a tenant-filtered top-10 returned
 * four rows on average), ef_search sizes its first pass.
 */
export async function vectorLeg(
  db: Db, f: SearchFilter, vector: Float32Array, others: string[], cfg: VectorLegConfig, enabled: boolean,
): Promise<VectorResult> {
  const p = new Params();
  const v = p.add(vectorLiteral(vector), 'vector');
  const tenant = p.add(f.tenantId);
  const otherIds = p.add(others, 'uuid[]');
  const simsSql = `SELECT m.id, m.weight, m.created_at, 1 - (m.embedding <=> ${v}) AS similarity, false AS ranked
    FROM memories m WHERE m.tenant_id = ${tenant} AND m.id = ANY(${otherIds}) AND m.embedding IS NOT NULL`;
  let rows: Row[];
  if (!enabled) {
    if (others.length === 0) return { ranked: [], similarity: new Map() };
    ({ rows } = await db.query(simsSql, p.values));
  } else {
    const w = searchConditions(p, f);
    const sql = `(SELECT m.id, m.weight, m.created_at, 1 - (m.embedding <=> ${v}) AS similarity, true AS ranked
        FROM memories m WHERE ${w.join(' AND ')} AND m.embedding IS NOT NULL
        ORDER BY m.embedding <=> ${v} LIMIT ${p.add(cfg.k, 'int')})
      UNION ALL (${simsSql})`;
    const ef = Math.max(cfg.efSearchMin, Math.ceil(cfg.k * cfg.efSearchFactor));
    rows = await db.tx(async (q) => {
      await q.query(`SELECT set_config('hnsw.ef_search', $1, true), set_config('hnsw.iterative_scan', 'relaxed_order', true)`, [String(ef)]);
      return (await q.query(sql, p.values)).rows;
    });
  }
  const similarity = new Map<string, number>();
  const ranked: VectorHit[] = [];
  for (const r of rows) {
    const s = Number(r.similarity);
    similarity.set(r.id, s);
    if (r.ranked) ranked.push({ ...toCandidate(r), similarity: s });
  }
  // Relaxed order may return neighbours slightly out of order: rank by the exact distance.
  ranked.sort((a, b) => b.similarity - a.similarity || (a.id < b.id ? -1 : 1));
  return { ranked, similarity };
}
