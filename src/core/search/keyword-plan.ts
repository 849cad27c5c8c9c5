// Which full-text query the keyword leg runs for a question. Matching any word of a natural
// question is too loose (at 100k memories a five-word question matched 3–6% of the rows, each
// one ranked from the heap) and matching every word finds nothing. So, per query:
//  - words found in more than maxTermFrequency of the memories are dropped (they tell nothing
//    apart; frequencies come from the planner statistics ANALYZE keeps for search_tsv);
//  - in `two` mode a memory must hold two of the remaining words, or one that is rare
//    (expected in at most rareTermRows memories); in `any` mode one word is enough;
//  - memories are ranked by how well they match all the remaining words.
// The planning is pure; TermStats reads and caches the statistics.
import type { Queryable } from '../../store/db.js';
import { TENANT_STATISTICS, WORD_STATISTICS } from '../../store/maintenance.js';
import type { KeywordLegConfig } from './config.js';

export interface TermFrequencies {
  /** Fraction of memories holding each frequent lexeme (the statistics' most common elements). */
  freq: ReadonlyMap<string, number>;
  /** Frequency below which lexemes are not listed (they are rarer than this). */
  floor: number;
  /** Estimated number of memories. */
  rows: number;
  /** Fraction of the rows each common tenant holds (the tenant_id statistics); null when never analysed. */
  tenants?: ReadonlyMap<string, number> | null;
}

export const NO_FREQUENCIES: TermFrequencies = { freq: new Map(), floor: 0, rows: 0, tenants: null };

/**
 * A tenant's estimated fraction of the table: listed, its frequency; unlisted, 0 (rarer than every
 * listed tenant); without statistics, 1 (a store never analysed is young and few-tenanted).
 */
export function tenantShare(stats: TermFrequencies, tenantId: string): number {
  return stats.tenants ? stats.tenants.get(tenantId) ?? 0 : 1;
}

export interface KeywordPlan {
  /** tsquery text selecting candidates; null when the query has no searchable word. */
  match: string | null;
  /** tsquery text ranking them: the kept words, any of them. */
  rank: string | null;
  /** The kept lexemes, rarest first. */
  terms: string[];
  /** Inverse document frequency of each kept lexeme (same order as terms). */
  idf: number[];
}

/**
 * BM25's inverse document frequency, ln(1 + (N − n + 0.5) / (n + 0.5)), with n = freq × N. A word
 * the statistics do not list is rarer than their floor: it gets the floor's frequency (a lower
 * bound of its idf). Without statistics every word weighs the same.
 */
export function inverseFrequency(freq: number, rows: number): number {
  if (rows <= 0) return 1;
  const n = Math.min(rows, Math.max(0, freq * rows));
  return Math.log(1 + (rows - n + 0.5) / (n + 0.5));
}

/** A lexeme as a quoted tsquery operand (input syntax: quotes doubled, backslashes escaped). */
export const tsQuote = (lexeme: string) => `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

export function planKeywordQuery(lexemes: readonly string[], stats: TermFrequencies, cfg: KeywordLegConfig): KeywordPlan {
  const unique = [...new Set(lexemes.filter((l) => l.length > 0))];
  if (unique.length === 0) return { match: null, rank: null, terms: [], idf: [] };
  const freqOf = (l: string) => stats.freq.get(l) ?? stats.floor;
  const byRarity = unique.map((l) => ({ l, f: freqOf(l) })).sort((a, b) => a.f - b.f || (a.l < b.l ? -1 : 1));
  let kept = byRarity.filter((t) => t.f <= cfg.maxTermFrequency);
  // A question made only of common words still searches its rarest one.
  if (kept.length === 0) kept = byRarity.slice(0, 1);
  kept = kept.slice(0, cfg.maxTerms);
  const terms = kept.map((t) => t.l);
  const idf = kept.map((t) => inverseFrequency(t.f, stats.rows));
  const any = terms.map(tsQuote).join(' | ');
  if (cfg.match === 'any' || kept.length === 1) return { match: any, rank: any, terms, idf };
  const parts: string[] = [];
  for (let i = 0; i < kept.length; i++) {
    for (let j = i + 1; j < kept.length; j++) parts.push(`(${tsQuote(kept[i].l)} & ${tsQuote(kept[j].l)})`);
  }
  for (const t of kept) if (t.f * stats.rows <= cfg.rareTermRows) parts.push(tsQuote(t.l));
  return { match: parts.join(' | '), rank: any, terms, idf };
}

/**
 * Lexeme frequencies of a table's search_tsv (memories or documents) from the planner statistics
 * (pg_stats keeps the most common elements of a tsvector column with their frequencies), re-read
 * at most every ttlMs. Without statistics (never analysed) every word counts as rare.
 */
export class TermStats {
  private cached: TermFrequencies = NO_FREQUENCIES;
  private readAt = -Infinity;
  private loading: Promise<TermFrequencies> | null = null;

  constructor(private readonly ttlMs = 60_000, private readonly table: 'memories' | 'documents' = 'memories') {}

  async get(db: Queryable, now = Date.now()): Promise<TermFrequencies> {
    if (now - this.readAt < this.ttlMs) return this.cached;
    this.loading ??= this.load(db).then(
      (s) => {
        this.cached = s;
        this.readAt = now;
        return s;
      },
      () => {
        this.readAt = now; // retried after the ttl; meanwhile the last known figures serve
        return this.cached;
      },
    ).finally(() => { this.loading = null; });
    return this.loading;
  }

  private async load(db: Queryable): Promise<TermFrequencies> {
    const { rows: [r] } = await db.query<{ elems: string[] | null; freqs: number[] | null; reltuples: number; tenants: string[] | null; shares: number[] | null }>(
      `SELECT s.most_common_elems::text::text[] AS elems, s.most_common_elem_freqs AS freqs, c.reltuples::float8 AS reltuples,
              t.most_common_vals::text::text[] AS tenants, t.most_common_freqs AS shares
       FROM pg_class c
       LEFT JOIN pg_stats s ON s.schemaname = current_schema() AND s.tablename = $1::text AND s.attname = $2::text
       LEFT JOIN pg_stats t ON t.schemaname = current_schema() AND t.tablename = $1::text AND t.attname = $3::text
       WHERE c.oid = $1::text::regclass`, [this.table, WORD_STATISTICS, TENANT_STATISTICS]);
    return {
      ...frequenciesFromStats(r?.elems ?? null, r?.freqs ?? null, Number(r?.reltuples ?? 0)),
      tenants: tenantSharesFromStats(r?.tenants ?? null, r?.shares ?? null, Number(r?.reltuples ?? 0)),
    };
  }
}

/**
 * most_common_elem_freqs of a tsvector column holds one frequency per element, then the lowest
 * and highest of them (ts_typanalyze); unlisted lexemes are rarer than the lowest.
 */
export function frequenciesFromStats(elems: string[] | null, freqs: number[] | null, reltuples: number): TermFrequencies {
  const rows = Math.max(0, reltuples);
  if (!elems || !freqs || freqs.length < elems.length) return { ...NO_FREQUENCIES, rows };
  const freq = new Map<string, number>();
  elems.forEach((e, i) => freq.set(e, Number(freqs[i])));
  const floor = freqs.length >= elems.length + 2 ? Number(freqs[elems.length]) : Math.min(...freqs.slice(0, elems.length).map(Number));
  return { freq, floor: Number.isFinite(floor) ? floor : 0, rows, tenants: null };
}

/**
 * Tenant shares from the tenant_id column's most common values. A column analysed without a
 * list (every tenant about equally rare) gives an empty map: every tenant small. A table never
 * analysed (reltuples < 0 on Postgres 14+, 0 before) gives null.
 */
export function tenantSharesFromStats(vals: string[] | null, freqs: number[] | null, reltuples: number): Map<string, number> | null {
  if (!vals || !freqs) return reltuples > 0 ? new Map() : null;
  return new Map(vals.map((v, i) => [v, Number(freqs[i])]));
}
