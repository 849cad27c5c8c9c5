// The search configuration: which legs run, how many candidates each brings, and how they are
// fused. Declared here, in one place, so retrieval experiments change data, not code paths.
// LOCI_SEARCH_CONFIG (JSON, same shape, any subset) overrides these defaults at start.

export type LegName = 'vector' | 'keyword' | 'entity';
export const LEG_NAMES: readonly LegName[] = ['vector', 'keyword', 'entity'];

export interface VectorLegConfig {
  enabled: boolean;
  /** Candidates the leg brings to fusion. */
  k: number;
  /**
   * HNSW candidate list per query: max(efSearchMin, k × efSearchFactor). With iterative scan
   * (relaxed order) a filtered query keeps scanning until it has k rows, so this tunes recall
   * of the first pass, not completeness.
   */
  efSearchMin: number;
  efSearchFactor: number;
  /** pgvector hnsw.iterative_scan: `off` returns at most ef_search rows before filtering. */
  iterativeScan: 'relaxed_order' | 'strict_order' | 'off';
}

export interface KeywordLegConfig {
  enabled: boolean;
  k: number;
  /**
   * `two`: a memory must hold two of the query's searchable words, or one rare word (see
   * rareTermRows); `any`: one word is enough (looser, and slow on large tenants). An AND of
   * every word finds nothing for most natural questions. See keyword-plan.ts.
   */
  match: 'any' | 'two';
  /** Words in a larger fraction of the memories (planner statistics) are not searched. */
  maxTermFrequency: number;
  /** In `two` mode a single word expected in at most this many memories is enough. */
  rareTermRows: number;
  /** Searchable words used at most (the rarest). */
  maxTerms: number;
  /** Matching memories ranked at most per query: bounds the leg's cost when a match is huge. */
  candidateLimit: number;
  /**
   * BM25 walks its index in score order for a tenant holding at least this fraction of the table
   * (planner statistics): the walk passes over other tenants' rows, ≈ k ÷ share of them. A smaller
   * tenant's matches (at most candidateLimit) are scored one by one.
   */
  scanMinShare: number;
  /** How long word frequencies read from the planner statistics are reused. */
  statsMaxAgeMs: number;
  /**
   * Ranking: `bm25` scores the matched memories' content with Okapi BM25 (pg_textsearch index
   * memories_bm25: idf and length normalisation); where that index does not exist (a Postgres
   * server without the extension) the leg ranks with `idf` instead. Over search_tsv: `idf` sums, over the query's words, ts_rank of the word alone times
   * the word's inverse document frequency (from the same planner statistics), so a rare word
   * outweighs a common one, as in BM25; `ts_rank` / `ts_rank_cd` rank all words at once, alike.
   */
  rank: 'bm25' | 'idf' | 'ts_rank' | 'ts_rank_cd';
  /** ts_rank normalization bit mask (1: divide by 1 + log(length)). */
  normalization: number;
  /**
   * Weight of a title word relative to a content word (1) in the search_tsv rankings (migration
   * 050 stores title lexemes with weight D, content lexemes with weight A). Matching ignores it.
   * BM25 ranks the content alone; the title is part of the embedded text, so the vector leg reads it.
   */
  titleWeight: number;
}

export interface EntityLegConfig {
  enabled: boolean;
  k: number;
  /** Longest word n-gram of the query matched against entity names. */
  maxNgram: number;
  /**
   * Also run the entity extractor on the query: it catches dates it normalises ("May 2023" →
   * 2023-05), at ≈5 ms of CPU per query that competes with the query embedding on a small machine.
   */
  useExtractor: boolean;
  /**
   * A one-word query term also matches entities having it as one word of their name ("Priya" →
   * "Priya Raman"), counted at this fraction of an exact match; 0 turns partial matching off.
   */
  partialWeight: number;
  /** Entities of the query used at most (exact matches first, then the rarest). */
  maxEntities: number;
  /** Links read per entity, most recent first: bounds the cost of a common entity. */
  linksPerEntity: number;
  /** Best-scoring linked memories checked against the filters (the leg's cost in row reads). */
  candidateLimit: number;
}

export interface PassagesConfig {
  /**
   * Also search the units written beside memories (src/core/passages): passages of long
   * memories and the in-context reading of short ones. A memory scores the best of itself and
   * its units, in the vector leg (cosine) and in the keyword leg (the same ranking).
   */
  enabled: boolean;
  /** Units each leg reads (several may belong to one memory). */
  k: number;
  /** Use the in-context units (else passages only). */
  context: boolean;
  /** An in-context unit's keyword score counts this fraction (its words are mostly its neighbours'). */
  contextKeywordWeight: number;
  /** Its vector similarity counts this fraction. */
  contextVectorWeight: number;
  /** A sentence unit's keyword score counts this fraction (0: the keyword leg does not read them). */
  sentenceKeywordWeight: number;
  /** Its vector similarity counts this fraction (0: the vector leg does not read them). */
  sentenceVectorWeight: number;
}

export interface FusionConfig {
  /** Reciprocal-rank-fusion constant: a leg's item at rank r adds weight / (rrfK + r). */
  rrfK: number;
  weights: Record<LegName, number>;
}

export interface BoostConfig {
  /** Multiplies the fused score by 1 + weight × (memory weight − 0.5) × 2: ±weight at the extremes. */
  weight: number;
  /** Multiplies the fused score by 1 + recency × 2^(−age / recencyHalfLifeDays). */
  recency: number;
  recencyHalfLifeDays: number;
}

/**
 * Speakers (speakers.ts): among the first `candidates` fused items, a line of dialogue ("Name: …")
 * whose speaker the query names has its score multiplied by 1 + boost; 0 turns it off.
 */
export interface SpeakerConfig {
  boost: number;
  candidates: number;
}

export interface SummaryConfig {
  /** MMR trade-off between relevance (1) and novelty (0). */
  mmrLambda: number;
  /** Word-set overlap (Jaccard) above which a fact counts as a near-duplicate of one already kept. */
  duplicateThreshold: number;
  /** Facts kept in the extractive summary. */
  maxFacts: number;
  /** Characters of a memory quoted in a summary line or an LLM prompt. */
  maxFactChars: number;
}

/**
 * Graph expansion (graph-expansion.ts): the entities most associated with those the query names
 * (co-mentioned in the same memories, or related by a stored relation) bring their memories as
 * one more ranked list, so a question reaches evidence linked only through a neighbour.
 */
export interface GraphExpansionConfig {
  enabled: boolean;
  /** Neighbour entities used at most (the most specific associations). */
  neighbours: number;
  /** Links of each query entity read to find co-mentions (most recent first): bounds the cost. */
  linksPerEntity: number;
  /** A neighbour must share at least this many memories with a query entity (relations count their mentions). */
  minShared: number;
  /** Memories the neighbour list brings to fusion. */
  k: number;
  /** Fusion weight of the neighbour list. */
  weight: number;
}

/**
 * Query decomposition without an LLM (decompose.ts): a question joining clauses or coordinated
 * names ("What do Jon and Gina both like?") is also searched part by part (keyword leg), each
 * part's ranking fused with weight / parts, so every part's evidence can reach the top.
 */
export interface DecompositionConfig {
  enabled: boolean;
  maxParts: number;
  weight: number;
}

/**
 * Pseudo-relevance feedback (feedback.ts, RM3-like): the words the first-ranked memories share,
 * weighted by rarity, are added to the query for a second keyword search fused as one more list.
 */
export interface FeedbackConfig {
  enabled: boolean;
  /** First-ranked memories read. */
  docs: number;
  /** Expansion words added at most. */
  terms: number;
  /** A word must be in at least this many of those memories. */
  minDocs: number;
  weight: number;
}

/**
 * Temporal cues (temporal.ts): a query naming a time ("last May", "in 2023", "yesterday",
 * relative to now) multiplies the score of memories whose ts_valid_start (else creation time)
 * falls in that range by 1 + boost. No cue, no change.
 */
export interface TemporalConfig {
  enabled: boolean;
  boost: number;
}

/**
 * Diversity across runs: the n-th memory of a run in the fused order has its score multiplied by
 * (1 − runPenalty)^n, so evidence spread over several sessions reaches the top; 0 turns it off.
 */
export interface DiversityConfig {
  runPenalty: number;
}

export interface SearchConfig {
  vector: VectorLegConfig;
  keyword: KeywordLegConfig;
  entity: EntityLegConfig;
  passages: PassagesConfig;
  fusion: FusionConfig;
  boosts: BoostConfig;
  graph: GraphExpansionConfig;
  decompose: DecompositionConfig;
  feedback: FeedbackConfig;
  temporal: TemporalConfig;
  speakers: SpeakerConfig;
  diversity: DiversityConfig;
  summary: SummaryConfig;
}

export const DEFAULT_SEARCH_CONFIG: SearchConfig = {
  vector: { enabled: true, k: 50, efSearchMin: 64, efSearchFactor: 2, iterativeScan: 'relaxed_order' },
  keyword: {
    enabled: true, k: 50, match: 'two', maxTermFrequency: 0.5, rareTermRows: 500, maxTerms: 16, candidateLimit: 1000, scanMinShare: 0.05,
    statsMaxAgeMs: 60_000, rank: 'bm25', normalization: 0, titleWeight: 0.4,
  },
  entity: {
    enabled: true, k: 50, maxNgram: 3, useExtractor: false, partialWeight: 0.5, maxEntities: 6, linksPerEntity: 100,
    candidateLimit: 150,
  },
  passages: { enabled: true, k: 50, context: true, contextKeywordWeight: 0.85, contextVectorWeight: 1, sentenceKeywordWeight: 1, sentenceVectorWeight: 1 },
  // Chosen on LoCoMo's development split (docs/retrieval.md): with a 512-d sentence encoder the
  // keyword leg carries most of the signal on chat turns; the vector leg gained weight (1 → 1.5)
  // once sentence units sharpened it. A low rrfK lets a leg's first ranks decide.
  fusion: { rrfK: 10, weights: { vector: 1.5, keyword: 3, entity: 0.3 } },
  boosts: { weight: 0.1, recency: 0.05, recencyHalfLifeDays: 30 },
  // Chosen on LoCoMo's development split (docs/retrieval.md): MRR +3, R@10 +0.9, multi-hop +2.
  speakers: { boost: 0.6, candidates: 100 },
  graph: { enabled: false, neighbours: 8, linksPerEntity: 200, minShared: 2, k: 50, weight: 0.3 },
  decompose: { enabled: false, maxParts: 4, weight: 1 },
  feedback: { enabled: false, docs: 5, terms: 8, minDocs: 2, weight: 1 },
  temporal: { enabled: true, boost: 0.5 },
  diversity: { runPenalty: 0 },
  summary: { mmrLambda: 0.7, duplicateThreshold: 0.8, maxFacts: 12, maxFactChars: 400 },
};

type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? DeepPartial<T[K]> : T[K] };
export type SearchConfigOverrides = DeepPartial<SearchConfig>;

/**
 * The defaults with `overrides` laid over them, checked: an unknown key or a value of the wrong
 * type is an error naming its path, so a typo in LOCI_SEARCH_CONFIG fails at start.
 */
export function resolveSearchConfig(overrides: unknown = {}, base: SearchConfig = DEFAULT_SEARCH_CONFIG): SearchConfig {
  const out = merge(base, overrides, 'search config') as SearchConfig;
  for (const leg of LEG_NAMES) {
    const k = out[leg].k;
    if (!Number.isInteger(k) || k < 1 || k > 1000) throw new Error(`search config ${leg}.k must be an integer 1–1000`);
  }
  if (!['relaxed_order', 'strict_order', 'off'].includes(out.vector.iterativeScan)) {
    throw new Error('search config vector.iterativeScan must be "relaxed_order", "strict_order" or "off"');
  }
  if (!Number.isInteger(out.passages.k) || out.passages.k < 1 || out.passages.k > 1000) throw new Error('search config passages.k must be an integer 1–1000');
  for (const key of ['contextKeywordWeight', 'contextVectorWeight', 'sentenceKeywordWeight', 'sentenceVectorWeight'] as const) {
    if (!(out.passages[key] >= 0 && out.passages[key] <= 1)) throw new Error(`search config passages.${key} must be in [0, 1]`);
  }
  if (!(out.fusion.rrfK >= 0)) throw new Error('search config fusion.rrfK must be >= 0');
  if (!['any', 'two'].includes(out.keyword.match)) throw new Error('search config keyword.match must be "any" or "two"');
  if (!(out.keyword.maxTermFrequency > 0 && out.keyword.maxTermFrequency <= 1)) throw new Error('search config keyword.maxTermFrequency must be in (0, 1]');
  for (const [leg, key] of [['keyword', 'maxTerms'], ['keyword', 'candidateLimit'], ['entity', 'maxEntities'], ['entity', 'linksPerEntity'], ['entity', 'candidateLimit'], ['entity', 'maxNgram']] as const) {
    const v = (out[leg] as unknown as Record<string, number>)[key];
    if (!Number.isInteger(v) || v < 1) throw new Error(`search config ${leg}.${key} must be a positive integer`);
  }
  if (!['bm25', 'idf', 'ts_rank', 'ts_rank_cd'].includes(out.keyword.rank)) throw new Error('search config keyword.rank must be "bm25", "idf", "ts_rank" or "ts_rank_cd"');
  if (!Number.isInteger(out.keyword.normalization) || out.keyword.normalization < 0 || out.keyword.normalization > 63) {
    throw new Error('search config keyword.normalization must be an integer bit mask 0–63');
  }
  if (!(out.keyword.titleWeight >= 0 && out.keyword.titleWeight <= 1)) throw new Error('search config keyword.titleWeight must be in [0, 1]');
  if (!(out.keyword.scanMinShare >= 0 && out.keyword.scanMinShare <= 1)) throw new Error('search config keyword.scanMinShare must be in [0, 1]');
  for (const [sec, key] of [['graph', 'neighbours'], ['graph', 'linksPerEntity'], ['graph', 'k'], ['decompose', 'maxParts'], ['feedback', 'docs'], ['feedback', 'terms'], ['feedback', 'minDocs']] as const) {
    const v = (out[sec] as unknown as Record<string, number>)[key];
    if (!Number.isInteger(v) || v < 1 || v > 1000) throw new Error(`search config ${sec}.${key} must be an integer 1–1000`);
  }
  if (!(out.graph.minShared >= 0)) throw new Error('search config graph.minShared must be >= 0');
  for (const sec of ['graph', 'decompose', 'feedback'] as const) {
    if (!(out[sec].weight >= 0)) throw new Error(`search config ${sec}.weight must be >= 0`);
  }
  if (!(out.temporal.boost >= 0)) throw new Error('search config temporal.boost must be >= 0');
  if (!(out.speakers.boost >= 0)) throw new Error('search config speakers.boost must be >= 0');
  if (!Number.isInteger(out.speakers.candidates) || out.speakers.candidates < 1 || out.speakers.candidates > 1000) {
    throw new Error('search config speakers.candidates must be an integer 1–1000');
  }
  if (!(out.diversity.runPenalty >= 0 && out.diversity.runPenalty < 1)) throw new Error('search config diversity.runPenalty must be in [0, 1)');
  return out;
}

/** Parses LOCI_SEARCH_CONFIG (JSON); empty means the defaults. */
export function searchConfigFromEnv(raw: string | undefined): SearchConfig {
  if (!raw || !raw.trim()) return resolveSearchConfig();
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new Error('LOCI_SEARCH_CONFIG must be a JSON object');
  }
  return resolveSearchConfig(parsed);
}

function merge(base: unknown, over: unknown, path: string): unknown {
  if (over === undefined) return structuredClone(base);
  if (isObject(base)) {
    if (!isObject(over)) throw new Error(`${path} must be an object`);
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(over)) {
      if (!Object.hasOwn(base, key)) throw new Error(`${path} has no setting "${key}" (known: ${Object.keys(base).join(', ')})`);
    }
    for (const [key, value] of Object.entries(base)) out[key] = merge(value, over[key], `${path}.${key}`);
    return out;
  }
  if (typeof over !== typeof base) throw new Error(`${path} must be a ${typeof base}`);
  if (typeof over === 'number' && !Number.isFinite(over)) throw new Error(`${path} must be a finite number`);
  return over;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
