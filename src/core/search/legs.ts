// The three search legs and the query analysis the keyword and entity legs share, each one
// simple indexed query (LIBRARIES: one-statement hybrid SQL re-plans badly on PGlite; separate
// legs fused in TypeScript are faster and clearer). The vector and keyword legs read a table
// described by a LegTable, so memory search and document search run the same legs; every
// memory leg applies the same row predicate (filters.ts).
import type { Db, Queryable, Row } from '../../store/db.js';
import { vectorParam } from '../../store/db.js';
import { Params } from '../memories/params.js';
import type { EntityLegConfig, KeywordLegConfig, VectorLegConfig } from './config.js';
import { searchConditions, type SearchFilter } from './filters.js';
import { planKeywordQuery, tenantShare, tsQuote, type KeywordPlan, type TermFrequencies } from './keyword-plan.js';
import { PASSAGE_DEFAULTS } from '../passages/split.js';
import type { Candidate } from './fusion.js';

/**
 * The table a vector or keyword leg reads (under alias `m`) and the rows of it the caller may
 * find. Both tables have id, tenant_id, embedding (HNSW, cosine) and search_tsv (GIN).
 */
export interface LegTable {
  name: 'memories' | 'documents';
  tenantId: string;
  /** The findable rows: conditions over `m`, their values added to `p`. */
  conditions(p: Params): string[];
  /** SQL over `m` for a candidate's weight (0–1, neutral 0.5) and creation time (fusion boosts). */
  weight: string;
  createdAt: string;
  /** SQL over `m` for the run a row belongs to and the start of its validity (null where none). */
  runId: string;
  validStart: string;
  /** The text column BM25 ranks. */
  text: string;
  /** Whether search_tsv stores title lexemes with weight D apart from content (migration 050). */
  titled: boolean;
  /** The pg_textsearch index over the text column; null where the table has none. */
  bm25Index: string | null;
}

/** Memories visible under a search filter. */
export const memoryTable = (f: SearchFilter): LegTable => ({
  name: 'memories', tenantId: f.tenantId, conditions: (p) => searchConditions(p, f),
  weight: 'm.weight', createdAt: 'm.created_at', runId: 'm.run_id', validStart: 'm.ts_valid_start', text: 'm.content', titled: true, bm25Index: BM25_INDEX,
});

/** The ranking a table supports: BM25 only over a BM25 index, else the fallback `idf`. */
export const tableRanking = (t: LegTable, rank: KeywordRanking): KeywordRanking => (rank === 'bm25' && !t.bm25Index ? 'idf' : rank);
const toDate = (v: unknown): Date | null => (v === null || v === undefined ? null : v instanceof Date ? v : new Date(v as string));

const toCandidate = (r: Row): Candidate => ({
  id: r.id,
  weight: Number(r.weight),
  createdAt: toDate(r.created_at)!,
  runId: r.run_id ?? null,
  validStart: toDate(r.ts_valid_start),
});

const toScored = (r: Row): ScoredCandidate => ({ ...toCandidate(r), score: Number(r.score) });

/** The columns every leg returns for fusion (toCandidate), from the table under alias `m`. */
const candidateColumns = (t: Pick<LegTable, 'weight' | 'createdAt' | 'runId' | 'validStart'>) =>
  `m.id, ${t.weight} AS weight, ${t.createdAt} AS created_at, ${t.runId} AS run_id, ${t.validStart} AS ts_valid_start`;

/** The same for memories joined as `m` (entity leg, passages). */
const MEMORY_COLUMNS = 'm.id, m.weight, m.created_at, m.run_id, m.ts_valid_start';

export interface MatchedEntity {
  id: string;
  name: string;
  mentionCount: number;
  /** 1 for an exact name match, EntityLegConfig.partialWeight for a match on one word of the name. */
  match: number;
}

export interface QueryAnalysis {
  /** The query's lexemes (Postgres's English parser and stemmer); null when not asked for. */
  lexemes: string[] | null;
  /** Entities of the tenant the query names; null when not asked for. */
  entities: MatchedEntity[] | null;
}

/** Longest name a one-word term matches partially: names, not phrases ("due at the end of May"). */
const PARTIAL_MAX_WORDS = 4;

/**
 * What the keyword and entity legs need to know about the query, in one statement (every round
 * trip to the embedded database costs): its lexemes, and the tenant's entities it names —
 * normalised name equal to a key, or (partial) a one-word key equal to one word of a name
 * (dates excepted); exact matches first, then the rarest (most telling).
 */
export async function analyzeQuery(
  db: Queryable, tenantId: string, query: string, entityKeys: string[] | null, cfg: EntityLegConfig,
): Promise<QueryAnalysis> {
  const p = new Params();
  const lexemes = `tsvector_to_array(to_tsvector('english', ${p.add(query)}))`;
  let entities = 'NULL::json';
  if (entityKeys) {
    const keys = p.add(entityKeys, 'text[]');
    const words = p.add(cfg.partialWeight > 0 ? entityKeys.filter((k) => !k.includes(' ') && k.length >= 3) : [], 'text[]');
    entities = `(SELECT coalesce(json_agg(json_build_object('id', e.id, 'name', e.name, 'mention_count', e.mention_count, 'exact', e.exact)
                   ORDER BY e.exact DESC, e.mention_count, e.id), '[]'::json)
      FROM (SELECT e.id, e.name, e.mention_count, e.normalized_name = ANY(${keys}) AS exact
            FROM entities e
            WHERE e.tenant_id = ${p.add(tenantId)} AND e.mention_count > 0
              AND (e.normalized_name = ANY(${keys})
                   OR (string_to_array(e.normalized_name, ' ') && ${words} AND e.entity_type <> 'date'
                       AND cardinality(string_to_array(e.normalized_name, ' ')) <= ${PARTIAL_MAX_WORDS}))
            ORDER BY exact DESC, e.mention_count, e.id LIMIT ${p.add(cfg.maxEntities, 'int')}) AS e)`;
  }
  const { rows: [r] } = await db.query<{ lexemes: string[] | null; entities: unknown }>(
    `SELECT ${lexemes} AS lexemes, ${entities} AS entities`, p.values);
  const list = (typeof r.entities === 'string' ? JSON.parse(r.entities) : r.entities) as
    { id: string; name: string; mention_count: number; exact: boolean }[] | null;
  return {
    lexemes: r.lexemes ?? [],
    entities: entityKeys
      ? (list ?? []).map((e) => ({ id: e.id, name: e.name, mentionCount: Number(e.mention_count), match: e.exact ? 1 : cfg.partialWeight }))
      : null,
  };
}

/**
 * The ranking functions' weights array, {D, C, B, A}: title lexemes are stored with weight D,
 * content lexemes with A (migration 050).
 */
export const rankWeights = (cfg: Pick<KeywordLegConfig, 'titleWeight'>): number[] =>
  [cfg.titleWeight, cfg.titleWeight, cfg.titleWeight, 1];

/** The pg_textsearch index over memories.content (migration 080), where the extension exists. */
export const BM25_INDEX = 'memories_bm25';

/** The ranking the keyword leg runs: the configured one, or `idf` where BM25 is not available. */
export type KeywordRanking = KeywordLegConfig['rank'];

/** Whether the BM25 index exists in this database (looked up once at start). */
export async function bm25Available(db: Queryable): Promise<boolean> {
  const { rows } = await db.query(`SELECT 1 FROM pg_class WHERE relname = $1 AND relkind = 'i' AND relnamespace = current_schema()::regnamespace`, [BM25_INDEX]);
  return rows.length > 0;
}

/** The BM25 index over memory_passages.content (migration 081). */
export const PASSAGE_BM25_INDEX = 'memory_passages_bm25';

export interface ScoredCandidate extends Candidate { score: number }

/** Which units a leg also reads, and how much an in-context or a sentence unit counts (a sentence unit at 0 is not read). */
export interface UnitSearch { enabled: boolean; k: number; context: boolean; contextWeight: number; sentenceWeight: number }

/** SQL for a unit's weight (its kind read as `kind`) and the condition on the kinds a leg reads (over `u`). */
function unitKinds(p: Params, units: UnitSearch, kind: string): { weight: string; read: string } {
  const kinds = ['passage', ...(units.context ? ['context'] : []), ...(units.sentenceWeight > 0 ? ['sentence'] : [])];
  return {
    weight: `CASE ${kind} WHEN 'context' THEN ${p.add(units.contextWeight, 'float8')} WHEN 'sentence' THEN ${p.add(units.sentenceWeight, 'float8')} ELSE 1 END`,
    read: `u.kind = ANY(${p.add(kinds, 'text[]')})`,
  };
}

/**
 * Full-text leg over the table (and, for memories with `units`, memory_passages): BM25 over the
 * text where its index exists, else the query's lexemes planned against the table's term
 * statistics (keyword-plan.ts) and ranked over search_tsv (a title word counts titleWeight of a
 * content word). A memory scores the best of itself and its units.
 */
export async function keywordLeg(
  db: Queryable, t: LegTable, query: string, lexemes: string[], cfg: KeywordLegConfig, freqs: TermFrequencies, rank: KeywordRanking,
  units?: UnitSearch,
): Promise<{ candidates: Candidate[]; terms: string[] }> {
  const plan = planKeywordQuery(lexemes, freqs, cfg);
  if (!plan.match || !plan.rank) return { candidates: [], terms: plan.terms };
  const ranking = tableRanking(t, rank);
  const withUnits = Boolean(units?.enabled && t.name === 'memories');
  // The walk searches every word of the query (BM25 weighs them); the scored path, the plan's.
  const walk = ranking === 'bm25' && tenantShare(freqs, t.tenantId) >= cfg.scanMinShare;
  const query1 = (u: UnitSearch | null) => walk
    ? rankedScan(db, t, query, cfg, u)
    : scoredMatch(db, t, query, plan, cfg, ranking, u, withUnits && !u ? PASSAGE_DEFAULTS.minChars : null);
  const [own, parts] = await Promise.all([query1(null), withUnits ? query1(units!) : Promise.resolve([])]);
  return { candidates: bestOf([own, parts], cfg.k), terms: walk ? [...new Set(lexemes)] : plan.terms };
}

/** Candidates of several lists, each memory at its best score, best first (ties by id). */
export function bestOf(lists: readonly ScoredCandidate[][], k: number): ScoredCandidate[] {
  const best = new Map<string, ScoredCandidate>();
  for (const list of lists) for (const c of list) {
    const had = best.get(c.id);
    if (!had || c.score > had.score) best.set(c.id, c);
  }
  return [...best.values()].sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1)).slice(0, k);
}

/**
 * One ranked list of the keyword leg, BM25 for a large tenant: the rows (or, with `units`, the
 * units, a memory at its best unit) in the index's score order, the filters checked row by row
 * until k pass. The walk passes over other tenants' rows, so a small tenant's matches are scored
 * one by one instead (scoredMatch); a large tenant's, so scored, cost 211 ms p50 at 100k memories.
 *
 * The score is the index scan's own: pg_textsearch's planner hook answers a select-list `<@>`
 * equal to the ORDER BY's from the scan, when the ORDER BY is an entry of its own. With one
 * parameter for both, the parser merges them into one entry, and every returned row is tokenized
 * and scored again (at 100k memories 1.2 ms for the rows, 3.6 ms for the units); two parameters
 * of the same value keep them apart.
 */
function rankedScan(db: Queryable, t: LegTable, query: string, cfg: KeywordLegConfig, units: UnitSearch | null): Promise<ScoredCandidate[]> {
  const p = new Params();
  const w = t.conditions(p);
  const k = p.add(units ? units.k : cfg.k, 'int');
  const [selected, ordered] = [p.add(query), p.add(query)];
  // Past the last match the index goes on with rows of score 0: they are no candidates.
  const rows = (sql: string) => db.query(sql, p.values).then(({ rows }) =>
    rows.map(toScored).filter((c) => c.score > 0));
  if (!units) {
    const distance = (q: string) => `${t.text} <@> to_bm25query(${q}, '${t.bm25Index}')`;
    return rows(`SELECT c.id, c.weight, c.created_at, c.run_id, c.ts_valid_start, -c.distance AS score FROM (
      SELECT ${candidateColumns(t)}, ${distance(selected)} AS distance FROM ${t.name} m
      WHERE ${w.join(' AND ')} ORDER BY ${distance(ordered)} LIMIT ${k}) AS c`);
  }
  const distance = (q: string) => `u.content <@> to_bm25query(${q}, '${PASSAGE_BM25_INDEX}')`;
  const kinds = unitKinds(p, units, 'c.kind');
  return rows(`SELECT c.id, c.weight, c.created_at, c.run_id, c.ts_valid_start, max(-c.distance * ${kinds.weight}) AS score FROM (
      SELECT ${MEMORY_COLUMNS}, u.kind, ${distance(selected)} AS distance
      FROM memory_passages u JOIN memories m ON m.id = u.memory_id
      WHERE u.tenant_id = ${p.add(t.tenantId)} AND ${w.join(' AND ')} AND ${kinds.read}
      ORDER BY ${distance(ordered)} LIMIT ${k}
    ) AS c
    GROUP BY c.id, c.weight, c.created_at, c.run_id, c.ts_valid_start
    ORDER BY score DESC, c.id`);
}

/**
 * One ranked list of the keyword leg, scored row by row: the rows (or units) the match plan finds
 * through the GIN index, at most candidateLimit of them. `scoredChars`: BM25 scores only the start
 * of each row's text (`<@>` outside an index scan tokenizes what it scores; a long memory is
 * scored through its units).
 */
function scoredMatch(
  db: Queryable, t: LegTable, query: string, plan: KeywordPlan, cfg: KeywordLegConfig, rank: KeywordRanking, units: UnitSearch | null,
  scoredChars: number | null,
): Promise<ScoredCandidate[]> {
  const p = new Params();
  const w = t.conditions(p);
  // Passages (and untitled tables) carry no title: every lexeme is a content lexeme.
  // Parameters are added only where used (an unused one has no type).
  const weights = () => p.add(units || !t.titled ? [1, 1, 1, 1] : rankWeights(cfg), 'float4[]');
  const norm = () => p.add(cfg.normalization, 'int');
  // pg_textsearch's <@> is a distance (the negated BM25 score).
  const score = rank === 'bm25'
    ? `-(c.content <@> to_bm25query(${p.add(query)}, '${units ? PASSAGE_BM25_INDEX : t.bm25Index}'))`
    : rank === 'idf'
    ? `(SELECT sum(ts_rank(${weights()}, c.search_tsv, t.q, ${norm()}) * t.idf)
        FROM unnest(${p.add(plan.terms.map(tsQuote), 'tsquery[]')}, ${p.add(plan.idf, 'float8[]')}) AS t(q, idf))`
    : `${rank}(${weights()}, c.search_tsv, ${p.add(plan.rank, 'tsquery')}, ${norm()})`;
  const match = p.add(plan.match, 'tsquery');
  const limit = p.add(cfg.candidateLimit, 'int');
  const k = p.add(units ? units.k : cfg.k, 'int');
  const kinds = units ? unitKinds(p, units, 'c.kind') : null;
  const sql = kinds
    ? `SELECT c.id, c.weight, c.created_at, c.run_id, c.ts_valid_start, max(${score} * ${kinds.weight}) AS score
       FROM (
         SELECT ${MEMORY_COLUMNS}, u.kind, u.search_tsv, u.content FROM memory_passages u JOIN memories m ON m.id = u.memory_id
         WHERE u.tenant_id = ${p.add(t.tenantId)} AND ${w.join(' AND ')} AND u.search_tsv @@ ${match}
           AND ${kinds.read}
         LIMIT ${limit}
       ) AS c
       GROUP BY c.id, c.weight, c.created_at, c.run_id, c.ts_valid_start
       ORDER BY score DESC, c.id LIMIT ${k}`
    : `SELECT c.id, c.weight, c.created_at, c.run_id, c.ts_valid_start, ${score} AS score FROM (
         SELECT ${candidateColumns(t)}, m.search_tsv, ${scoredChars ? `left(${t.text}, ${p.add(scoredChars, 'int')})` : t.text} AS content FROM ${t.name} m
         WHERE ${w.join(' AND ')} AND m.search_tsv @@ ${match}
         LIMIT ${limit}
       ) AS c
       ORDER BY score DESC, c.id
       LIMIT ${k}`;
  // BM25 scores content: a row matched through its title alone scores 0 and, as in the walk
  // (rankedScan), is no candidate.
  return db.query(sql, p.values).then(({ rows }) => rows.map(toScored).filter((c) => rank !== 'bm25' || c.score > 0));
}

/**
 * Entity leg: memories linked to the query's entities. Each entity contributes its
 * linksPerEntity most recent links (an index range, whatever the entity's size); a memory
 * scores the sum over its entities of match / ln(2 + mentions), so one linked to more of them,
 * or to rarer ones, ranks higher. The best candidateLimit are then checked against the filters.
 */
export async function entityLeg(db: Queryable, f: SearchFilter, entities: MatchedEntity[], cfg: EntityLegConfig): Promise<Candidate[]> {
  if (entities.length === 0) return [];
  const p = new Params();
  const w = searchConditions(p, f);
  const tenant = p.add(f.tenantId);
  const ids = p.add(entities.map((e) => e.id), 'uuid[]');
  const value = p.add(entities.map((e) => e.match / Math.log(2 + e.mentionCount)), 'float8[]');
  const { rows } = await db.query(
    `WITH linked AS (
       SELECT x.memory_id, sum(q.v) AS score, max(x.created_at) AS linked_at
       FROM unnest(${ids}, ${value}) AS q(entity_id, v)
       CROSS JOIN LATERAL (
         SELECT l.memory_id, l.created_at FROM entity_links l
         WHERE l.tenant_id = ${tenant} AND l.entity_id = q.entity_id
         ORDER BY l.created_at DESC LIMIT ${p.add(cfg.linksPerEntity, 'int')}
       ) AS x
       GROUP BY x.memory_id
       ORDER BY score DESC, linked_at DESC, x.memory_id
       LIMIT ${p.add(cfg.candidateLimit, 'int')}
     )
     SELECT ${MEMORY_COLUMNS} FROM linked JOIN memories m ON m.id = linked.memory_id
     WHERE ${w.join(' AND ')}
     ORDER BY linked.score DESC, m.created_at DESC, m.id
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
 * Vector leg (HNSW, cosine) over the table (and, for memories with `units`, memory_passages)
 * plus the similarity of the ids in `others` (candidates of other legs), in one statement
 * so the query vector is sent and parsed once. The HNSW settings go with the statement
 * (queryWithSettings: they must be in force before it starts; the scan reads them when it is set up):
 * iterative scan keeps a filtered top-k complete (without it a tenant-filtered top-10 returned
 * four rows on average), ef_search sizes its first pass.
 */
export async function vectorLeg(
  db: Db, t: LegTable, vector: Float32Array, others: string[], cfg: VectorLegConfig, enabled: boolean, units?: UnitSearch,
): Promise<VectorResult> {
  const p = new Params();
  const v = p.add(vectorParam(vector), 'vector');
  const cols = candidateColumns(t);
  // Parameters are added only where used (an unused one has no type).
  const simsSql = () => `SELECT ${cols}, 1 - (m.embedding <=> ${v}) AS similarity, false AS ranked
    FROM ${t.name} m WHERE m.tenant_id = ${p.add(t.tenantId)} AND m.id = ANY(${p.add(others, 'uuid[]')}) AND m.embedding IS NOT NULL`;
  let rows: Row[];
  if (!enabled) {
    if (others.length === 0) return { ranked: [], similarity: new Map() };
    ({ rows } = await db.query(simsSql(), p.values));
  } else {
    const w = t.conditions(p);
    const withUnits = units?.enabled && t.name === 'memories';
    let sql = `(SELECT ${cols}, 1 - (m.embedding <=> ${v}) AS similarity, true AS ranked
        FROM ${t.name} m WHERE ${w.join(' AND ')} AND m.embedding IS NOT NULL
        ORDER BY m.embedding <=> ${v} LIMIT ${p.add(cfg.k, 'int')})${others.length ? `
      UNION ALL (${simsSql()})` : ''}`;
    if (withUnits) {
      // The nearest units of visible memories (the filters inside the scanned query, so an
      // iterative scan keeps going until it has k of them); a memory at its best unit.
      const kinds = unitKinds(p, units, 'u.kind');
      sql += `
      UNION ALL (SELECT x.id, x.weight, x.created_at, x.run_id, x.ts_valid_start, max(x.similarity) AS similarity, true AS ranked FROM (
        SELECT ${MEMORY_COLUMNS}, (1 - (u.embedding <=> ${v})) * ${kinds.weight} AS similarity
        FROM memory_passages u JOIN memories m ON m.id = u.memory_id
        WHERE u.tenant_id = ${p.add(t.tenantId)} AND ${w.join(' AND ')} AND u.embedding IS NOT NULL AND ${kinds.read}
        ORDER BY u.embedding <=> ${v} LIMIT ${p.add(units.k, 'int')}) AS x
        GROUP BY x.id, x.weight, x.created_at, x.run_id, x.ts_valid_start)`;
    }
    // pgvector accepts ef_search up to 1000.
    const ef = Math.min(1000, Math.max(cfg.efSearchMin, Math.ceil(Math.max(cfg.k, withUnits ? units.k : 0) * cfg.efSearchFactor)));
    ({ rows } = await db.queryWithSettings({ 'hnsw.ef_search': String(ef), 'hnsw.iterative_scan': cfg.iterativeScan }, sql, p.values));
  }
  // A memory found several ways (itself, its units, another leg) counts at its best similarity.
  const similarity = new Map<string, number>();
  const hits = new Map<string, VectorHit>();
  for (const r of rows) {
    const s = Number(r.similarity);
    if (!(s <= (similarity.get(r.id) ?? -Infinity))) similarity.set(r.id, s);
  }
  for (const r of rows) if (r.ranked && !hits.has(r.id)) hits.set(r.id, { ...toCandidate(r), similarity: similarity.get(r.id)! });
  // Relaxed order may return neighbours slightly out of order: rank by the exact distance.
  const ranked = [...hits.values()].sort((a, b) => b.similarity - a.similarity || (a.id < b.id ? -1 : 1)).slice(0, cfg.k);
  return { ranked, similarity };
}
