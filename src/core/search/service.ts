// Hybrid search and recall over memories (spec 4.3; DEFAULTS "Search and recall").
//
// A search runs three legs and fuses them (config.ts declares which, and how):
//   query embedding (embedder worker)         ─┐
//   query analysis → keyword leg (full text)   ├─ then the vector leg (HNSW) → fusion → top_k →
//                  → entity leg (links)       ─┘  records, with their similarity to the query
// The embedding runs in a worker while the database analyses the query and answers the keyword
// and entity legs. After the answer is computed, the returned rows' recall_count and
// last_recalled_at are updated in one statement the response does not wait for (settled()
// waits for it).
import type { Logger } from 'pino';
import { vectorParam, type Db } from '../../store/db.js';
import type { Embedder } from '../../providers/embedder/types.js';
import type { EntityExtractor } from '../../providers/entities/types.js';
import type { LlmClient } from '../../providers/llm/types.js';
import { invalid, embedderUnavailable } from '../errors.js';
import { type Caller, checkReadFleets, confinedFleet, isAdmin, resolveAgent, resolveTenant } from '../caller.js';
import { linksJsonColumn, parseLinksJson } from '../entities/store.js';
import { RECORD_COLUMNS, toRecord } from '../memories/record.js';
import type { MemoryRecord } from '../memories/types.js';
import type { LegName, SearchConfig } from './config.js';
import type { SearchFilter } from './filters.js';
import { diversifyRuns, fuseLegs, selectTop, type Candidate, type ExtraList, type FusedItem, type LegRanks } from './fusion.js';
import { decomposeQuery } from './decompose.js';
import { feedbackTerms } from './feedback.js';
import { graphNeighbours } from './graph-expansion.js';
import { temporalRange } from './temporal.js';
import { boostSpeakers, lineSpeakers, namedSpeakers } from './speakers.js';
import { analyzeQuery, bm25Available, entityLeg, keywordLeg, memoryTable, vectorLeg, type KeywordRanking, type QueryAnalysis } from './legs.js';
import { llmSummary } from './llm-summary.js';
import { TermStats } from './keyword-plan.js';
import { queryEntityKeys } from './query-terms.js';
import { EMPTY_SUMMARY, extractiveSummary } from './summary.js';
import { visibleMentions } from './visible-entities.js';

export const QUERY_MAX_CHARS = 5_000;
export const TOP_K = { min: 1, max: 50, default: 5 } as const;

export interface SearchRequest {
  tenant_id?: string;
  query: string;
  fleet_id?: string;
  fleet_ids?: string[];
  /** The viewing agent (rule 1 of spec 4.2). */
  agent_id?: string;
  /** Only memories written by this agent. */
  filter_agent_id?: string;
  memory_type?: string;
  memory_types?: string[];
  status?: string;
  valid_at?: string;
  top_k?: number;
  min_similarity?: number;
  include_deleted?: boolean;
  include_outdated?: boolean;
  include_expired?: boolean;
  diagnostic?: boolean;
}

export interface ItemDiagnostic {
  score: number;
  rrf: number;
  boost: number;
  ranks: LegRanks;
}

export type SearchItem = MemoryRecord & { similarity: number; diagnostic?: ItemDiagnostic };

export interface SearchDiagnostic {
  /** Milliseconds spent in each step (embed runs beside analyze, keyword and entity). */
  timings_ms: Record<'embed' | 'analyze' | 'keyword' | 'entity' | 'vector' | 'fuse' | 'hydrate' | 'total', number>;
  /** Candidates each leg brought (null: the leg is off). */
  candidates: Record<LegName, number | null>;
  entities: { id: string; name: string; mention_count: number; match: number }[];
  /** Lexemes the keyword leg searched (after dropping common ones), rarest first. */
  keyword_terms: string[];
}

export interface SearchResult {
  items: SearchItem[];
  diagnostic?: SearchDiagnostic;
}

export interface RecallResult {
  query: string;
  summary: string;
  summary_source: 'llm' | 'extractive';
  memory_count: number;
  memories: SearchItem[];
  items: SearchItem[];
  recall_ms: number;
  diagnostic?: SearchDiagnostic;
}

export interface SearchDeps {
  db: Db;
  /** Embeds queries; wrap the embedder in the query cache. */
  embedder: Embedder;
  entities: EntityExtractor;
  llm: LlmClient | null;
  config: SearchConfig;
  llmTimeoutMs: number;
  log?: Pick<Logger, 'warn'>;
  now?: () => Date;
}

const round = (ms: number) => Math.round(ms * 100) / 100;

/** NUL cannot reach Postgres as text; it separates words like any control character. */
function cleanQuery(raw: string): string {
  const q = typeof raw === 'string' ? raw.replaceAll('\u0000', ' ').trim() : '';
  if (!q) throw invalid(['body', 'query'], 'Query must not be empty or whitespace only', 'string_too_short', raw ?? null, { min_length: 1 });
  if (q.length > QUERY_MAX_CHARS) {
    throw invalid(['body', 'query'], `String should have at most ${QUERY_MAX_CHARS} characters`, 'string_too_long', null, { max_length: QUERY_MAX_CHARS });
  }
  return q;
}

const union = (one: string | undefined, many: string[] | undefined): string[] | undefined => {
  const all = [...(one !== undefined ? [one] : []), ...(many ?? [])];
  return all.length ? [...new Set(all)] : undefined;
};

export class SearchService {
  private readonly pending = new Set<Promise<void>>();
  private readonly termStats: TermStats;
  private readonly now: () => Date;
  private ranking: KeywordRanking | null = null;
  private rankingP: Promise<KeywordRanking> | null = null;

  constructor(private readonly deps: SearchDeps) {
    this.now = deps.now ?? (() => new Date());
    this.termStats = new TermStats(deps.config.keyword.statsMaxAgeMs);
  }

  get config(): SearchConfig {
    return this.deps.config;
  }

  /** The keyword leg's ranking in force: `bm25` falls back to `idf` where the BM25 index does not exist. */
  get keywordRanking(): KeywordRanking | null {
    return this.ranking;
  }

  /** Looks the BM25 index up once (the first search waits for it); a failed look-up is retried. */
  keywordRank(): Promise<KeywordRanking> {
    const wanted = this.deps.config.keyword.rank;
    if (wanted !== 'bm25') return Promise.resolve(wanted);
    if (this.ranking) return Promise.resolve(this.ranking);
    this.rankingP ??= bm25Available(this.deps.db).then((ok) => {
      this.ranking = ok ? 'bm25' : 'idf';
      if (!ok) this.deps.log?.warn('no BM25 index (pg_textsearch): the keyword leg ranks with ts_rank × idf');
      return this.ranking;
    }).finally(() => { this.rankingP = null; });
    return this.rankingP;
  }

  async search(caller: Caller, req: SearchRequest): Promise<SearchResult> {
    const { items, diagnostic } = await this.execute(caller, req);
    return diagnostic ? { items, diagnostic } : { items };
  }

  /** Search, then a context summary of what was found: the LLM's when one is configured and answers in time, else extractive. */
  async recall(caller: Caller, req: SearchRequest): Promise<RecallResult> {
    const t0 = performance.now();
    const { query, items, scores, diagnostic } = await this.execute(caller, req);
    let summary: string | null = null;
    let source: RecallResult['summary_source'] = 'extractive';
    if (items.length === 0) {
      summary = EMPTY_SUMMARY;
    } else if (this.deps.llm) {
      try {
        summary = await llmSummary(this.deps.llm, query, items, { timeoutMs: this.deps.llmTimeoutMs, maxFactChars: this.deps.config.summary.maxFactChars });
        source = 'llm';
      } catch (err) {
        this.deps.log?.warn({ err }, 'LLM summary failed; using the extractive summary');
      }
    }
    summary ??= extractiveSummary(items.map((m, i) => ({ memory: m, score: scores[i] })), this.deps.config.summary);
    const out: RecallResult = {
      query, summary, summary_source: source, memory_count: items.length, memories: items, items,
      recall_ms: round(performance.now() - t0),
    };
    if (diagnostic) out.diagnostic = diagnostic;
    return out;
  }

  private async execute(caller: Caller, req: SearchRequest): Promise<{ query: string; items: SearchItem[]; scores: number[]; diagnostic?: SearchDiagnostic }> {
    const t0 = performance.now();
    const query = cleanQuery(req.query);
    const filter = this.filterFor(caller, req);
    const tenantId = filter.tenantId;
    const table = memoryTable(filter);
    const topK = req.top_k ?? TOP_K.default;
    const cfg = this.deps.config;
    const timings = { embed: 0, analyze: 0, keyword: 0, entity: 0, vector: 0, fuse: 0, hydrate: 0, total: 0 };
    const timed = <T>(step: keyof typeof timings, p: Promise<T>): Promise<T> => {
      const start = performance.now();
      return p.finally(() => { timings[step] = round(performance.now() - start); });
    };

    // Started together: the embedding runs in a worker thread while the database analyses the
    // query and answers the keyword and entity legs.
    const vectorP = timed('embed', this.embedQuery(query));
    vectorP.catch(() => undefined); // awaited below; an earlier failure must not leave it unhandled
    const db = this.deps.db;
    const analysisP = cfg.keyword.enabled || cfg.entity.enabled ? timed('analyze', this.analyze(tenantId, query)) : null;
    const freqsP = cfg.keyword.enabled ? this.termStats.get(db) : null;
    const rankP = cfg.keyword.enabled ? this.keywordRank() : null;
    const units = { enabled: cfg.passages.enabled, k: cfg.passages.k, context: cfg.passages.context, contextWeight: cfg.passages.contextKeywordWeight, sentenceWeight: cfg.passages.sentenceKeywordWeight };
    const keywordP = analysisP && freqsP && rankP
      ? Promise.all([analysisP, freqsP, rankP]).then(([a, freqs, rank]) => timed('keyword', keywordLeg(db, table, query, a.lexemes ?? [], cfg.keyword, freqs, rank, units)))
      : null;
    const entityP = analysisP && cfg.entity.enabled
      ? analysisP.then(async (a) => ({ matched: a.entities ?? [], candidates: await timed('entity', entityLeg(db, filter, a.entities ?? [], cfg.entity)) }))
      : null;
    // Graph neighbours of the query's entities, and the query's parts, each one more ranked list.
    const graphP = entityP && cfg.graph.enabled
      ? entityP.then(async (e) => {
        const neighbours = await graphNeighbours(db, filter, e.matched, cfg.graph);
        return neighbours.length ? entityLeg(db, filter, neighbours, { ...cfg.entity, k: cfg.graph.k }) : [];
      })
      : Promise.resolve([]);
    const parts = cfg.decompose.enabled && cfg.keyword.enabled ? decomposeQuery(query, cfg.decompose.maxParts) : [];
    const partsP = parts.length && freqsP && rankP
      ? Promise.all([partLexemes(db, parts), freqsP, rankP]).then(([lex, freqs, rank]) =>
        Promise.all(parts.map((part, i) => keywordLeg(db, table, part, lex[i], cfg.keyword, freqs, rank, units).then((r) => r.candidates))))
      : Promise.resolve([] as Candidate[][]);
    // The similarity of a memory the vector leg did not rank is read only to cut at min_similarity
    // and to show on the returned items: without a cut, hydrate computes it for those alone, and the
    // vector leg, needing only the embedding, is queued as soon as it is ready (the database goes on
    // to it straight from the other legs' statements instead of after their results are read).
    const vectorLegOf = (vector: Float32Array, others: string[]) => timed('vector', vectorLeg(db, table, vector, others, cfg.vector, cfg.vector.enabled,
      { enabled: cfg.passages.enabled, k: cfg.passages.k, context: cfg.passages.context, contextWeight: cfg.passages.contextVectorWeight, sentenceWeight: cfg.passages.sentenceVectorWeight }));
    const earlyVecP = req.min_similarity === undefined ? vectorP.then((v) => vectorLegOf(v, [])) : null;
    earlyVecP?.catch(() => undefined); // awaited below, as vectorP
    const [keyword, entity, graph, partLists] = await Promise.all([keywordP, entityP, graphP, partsP]);
    const vector = await vectorP;

    const extras: ExtraList[] = [];
    if (graph.length) extras.push({ candidates: graph, weight: cfg.graph.weight });
    for (const list of partLists) extras.push({ candidates: list, weight: cfg.decompose.weight / partLists.length });

    const vec = await (earlyVecP ?? vectorLegOf(vector,
      [...new Set([...(keyword?.candidates ?? []), ...(entity?.candidates ?? []), ...extras.flatMap((x) => x.candidates)].map((c) => c.id))]));

    const tFuse = performance.now();
    const legs: Partial<Record<LegName, Candidate[]>> = {};
    if (cfg.vector.enabled) legs.vector = vec.ranked;
    if (keyword) legs.keyword = keyword.candidates;
    if (entity) legs.entity = entity.candidates;
    const now = this.now();
    const temporal = cfg.temporal.enabled && cfg.temporal.boost > 0 ? { range: temporalRange(query, now), boost: cfg.temporal.boost } : undefined;
    let fused = fuseLegs(legs, cfg.fusion, cfg.boosts, now, { extras, temporal });
    // Pseudo-relevance feedback: the first-ranked memories' shared words, searched with the query.
    if (cfg.feedback.enabled && keyword && freqsP && rankP && analysisP && fused.length) {
      const [a, freqs, rank] = await Promise.all([analysisP, freqsP, rankP]);
      const docs = await memoryLexemes(db, tenantId, fused.slice(0, cfg.feedback.docs).map((f) => f.id));
      const terms = feedbackTerms(docs, a.lexemes ?? [], freqs, { ...cfg.feedback, maxTermFrequency: cfg.keyword.maxTermFrequency });
      if (terms.length) {
        const expanded = await keywordLeg(db, table, `${query} ${terms.join(' ')}`, [...(a.lexemes ?? []), ...terms], cfg.keyword, freqs, rank, units);
        extras.push({ candidates: expanded.candidates, weight: cfg.feedback.weight });
        fused = fuseLegs(legs, cfg.fusion, cfg.boosts, now, { extras, temporal });
      }
    }
    // Lines spoken by someone the query names ("What does Melanie like?") before lines addressed to them.
    if (cfg.speakers.boost > 0 && fused.length) {
      const speakers = lineSpeakers(await this.lineHeads(tenantId, fused.slice(0, cfg.speakers.candidates).map((f) => f.id)));
      fused = boostSpeakers(fused, speakers, namedSpeakers(query, speakers), cfg.speakers.boost);
    }
    if (cfg.diversity.runPenalty > 0) {
      const runs = new Map<string, string | null | undefined>();
      for (const c of [...Object.values(legs).flat(), ...extras.flatMap((x) => x.candidates)]) if (!runs.has(c.id)) runs.set(c.id, c.runId);
      fused = diversifyRuns(fused, (id) => runs.get(id), cfg.diversity.runPenalty);
    }
    const top = selectTop(fused, vec.similarity, topK, req.min_similarity);
    timings.fuse = round(performance.now() - tFuse);

    const { items, kept } = await timed('hydrate', this.hydrate(tenantId, top, vec.similarity, vector, req.diagnostic ?? false));
    this.recordRecall(tenantId, items, now);
    timings.total = round(performance.now() - t0);

    // Only entities of memories this caller could find are named, with their visible mentions.
    const mentions = req.diagnostic ? await visibleMentions(db, filter, (entity?.matched ?? []).map((e) => e.id)) : null;
    const diagnostic: SearchDiagnostic | undefined = mentions
      ? {
          timings_ms: timings,
          candidates: {
            vector: cfg.vector.enabled ? vec.ranked.length : null,
            keyword: keyword ? keyword.candidates.length : null,
            entity: entity ? entity.candidates.length : null,
          },
          entities: (entity?.matched ?? []).filter((e) => mentions.has(e.id))
            .map((e) => ({ id: e.id, name: e.name, mention_count: mentions.get(e.id)!, match: e.match })),
          keyword_terms: keyword?.terms ?? [],
        }
      : undefined;
    return { query, items, scores: kept.map((f) => f.score), diagnostic };
  }

  /** The row predicate of a request: tenant and viewer from the caller's identity, then the filters. */
  private filterFor(caller: Caller, req: SearchRequest): SearchFilter {
    checkReadFleets(caller, [req.fleet_id, ...(req.fleet_ids ?? [])]);
    const fleet = confinedFleet(caller);
    return {
      scope: fleet ? { fleet } : null,
      tenantId: resolveTenant(caller, req.tenant_id, 'read'),
      viewer: resolveAgent(caller, req.agent_id),
      admin: isAdmin(caller),
      fleetIds: union(req.fleet_id, req.fleet_ids),
      authorId: req.filter_agent_id,
      memoryTypes: union(req.memory_type, req.memory_types),
      statuses: req.status !== undefined ? [req.status] : undefined,
      validAt: req.valid_at,
      includeDeleted: req.include_deleted ?? false,
      includeOutdated: req.include_outdated ?? false,
      includeExpired: req.include_expired ?? false,
    };
  }

  /** Resolves once every recall_count update started so far has finished. */
  async settled(): Promise<void> {
    while (this.pending.size) await Promise.allSettled([...this.pending]);
  }

  private async embedQuery(query: string): Promise<Float32Array> {
    try {
      const [v] = await this.deps.embedder.embed([query]);
      return v;
    } catch (err) {
      this.deps.log?.warn({ err }, 'query embedding failed');
      throw embedderUnavailable();
    }
  }

  /** The query's lexemes and the entities it names (its n-grams, plus the extractor's reading when configured). */
  private async analyze(tenantId: string, query: string): Promise<QueryAnalysis> {
    const cfg = this.deps.config.entity;
    let keys: Set<string> | null = null;
    if (cfg.enabled) {
      keys = new Set(queryEntityKeys(query, cfg.maxNgram));
      if (cfg.useExtractor) {
        const extracted = await this.deps.entities.extract(query, { urgent: true }).catch((err) => {
          this.deps.log?.warn({ err }, 'entity extraction of a query failed');
          return { entities: [] };
        });
        for (const e of extracted.entities) keys.add(e.normalized);
      }
    }
    return analyzeQuery(this.deps.db, tenantId, query, keys && [...keys], cfg);
  }

  /**
   * The first characters of each one-line memory (where a line of dialogue names its speaker), by
   * id; a memory of several lines (a stretch of a conversation) is no one's line.
   */
  private async lineHeads(tenantId: string, ids: string[]): Promise<Map<string, string>> {
    const { rows } = await this.deps.db.query(
      `SELECT id, left(content, 80) AS head FROM memories
       WHERE tenant_id = $1 AND id = ANY($2::uuid[]) AND strpos(content, E'\n') = 0`, [tenantId, ids]);
    return new Map(rows.map((r) => [r.id as string, r.head as string]));
  }

  /**
   * Records of the chosen ids in fused order, each with its similarity: the vector leg's, else
   * that of the memory's own embedding (0 without one). Rows gone meanwhile drop out.
   */
  private async hydrate(
    tenantId: string, top: FusedItem[], similarity: Map<string, number>, vector: Float32Array, diagnostic: boolean,
  ): Promise<{ items: SearchItem[]; kept: FusedItem[] }> {
    if (top.length === 0) return { items: [], kept: [] };
    const ids = top.map((f) => f.id);
    const { rows } = await this.deps.db.query(
      `SELECT ${RECORD_COLUMNS}, ${linksJsonColumn('m')} AS links,
              CASE WHEN m.id = ANY($3::uuid[]) THEN NULL ELSE 1 - (m.embedding <=> $4::vector) END AS own_similarity
       FROM memories m WHERE m.tenant_id = $1 AND m.id = ANY($2::uuid[])`,
      [tenantId, ids, ids.filter((id) => similarity.has(id)), vectorParam(vector)]);
    const byId = new Map(rows.map((r) => [r.id as string, r]));
    const items: SearchItem[] = [];
    const kept: FusedItem[] = [];
    for (const f of top) {
      const row = byId.get(f.id);
      if (!row) continue;
      const sim = similarity.get(f.id) ?? Number(row.own_similarity ?? 0);
      const item: SearchItem = { ...toRecord(row, parseLinksJson(row.links)), similarity: round4(sim) };
      if (diagnostic) item.diagnostic = { score: f.score, rrf: f.rrf, boost: f.boost, ranks: f.ranks };
      items.push(item);
      kept.push(f);
    }
    return { items, kept };
  }

  /**
   * Counts this recall on the returned rows. The response shows the counts after it; the
   * UPDATE runs after the answer is computed and is not awaited (settled() awaits it).
   */
  private recordRecall(tenantId: string, items: SearchItem[], at: Date) {
    if (items.length === 0) return;
    for (const item of items) {
      item.recall_count += 1;
      item.last_recalled_at = at.toISOString();
    }
    const done: Promise<void> = this.deps.db
      .query(
        `UPDATE memories SET recall_count = recall_count + 1, last_recalled_at = $3::timestamptz
         WHERE tenant_id = $1 AND id = ANY($2::uuid[])`,
        [tenantId, items.map((i) => i.id), at.toISOString()])
      .then(() => undefined, (err) => this.deps.log?.warn({ err }, 'recording recall counts failed'))
      .finally(() => this.pending.delete(done));
    this.pending.add(done);
  }
}

const round4 = (x: number) => Math.round(x * 1e4) / 1e4;

/** The English lexemes of each text, in one statement. */
async function partLexemes(db: Db, texts: string[]): Promise<string[][]> {
  const { rows } = await db.query<{ lexemes: string[] | null }>(
    `SELECT tsvector_to_array(to_tsvector('english', t)) AS lexemes FROM unnest($1::text[]) WITH ORDINALITY AS x(t, i) ORDER BY i`, [texts]);
  return rows.map((r) => r.lexemes ?? []);
}

/** The search lexemes of the given memories, in the order of the ids. */
async function memoryLexemes(db: Db, tenantId: string, ids: string[]): Promise<string[][]> {
  const { rows } = await db.query<{ id: string; lexemes: string[] | null }>(
    `SELECT id, tsvector_to_array(search_tsv) AS lexemes FROM memories WHERE tenant_id = $1 AND id = ANY($2::uuid[])`, [tenantId, ids]);
  const by = new Map(rows.map((r) => [r.id, r.lexemes ?? []]));
  return ids.map((id) => by.get(id) ?? []);
}
