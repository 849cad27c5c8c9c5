// Fusion of the search legs: weighted reciprocal-rank fusion, then small multiplicative boosts
// for a memory's weight and recency, then the min_similarity cut and top_k. Pure functions over
// candidate lists, tested without a database.
import { reciprocalRankFusion } from '../documents/fusion.js';
import { LEG_NAMES, type BoostConfig, type FusionConfig, type LegName } from './config.js';
import { temporalFactor, type TimeRange } from './temporal.js';

/** One row a leg found, with what fusion and boosting need. */
export interface Candidate {
  id: string;
  weight: number;
  createdAt: Date;
  /** The memory's run (conversation, session); null or absent when it has none. */
  runId?: string | null;
  /** When the memory's content became true (ts_valid_start); null or absent when not given. */
  validStart?: Date | null;
}

export type LegRanks = Record<LegName, number | null>;

export interface FusedItem {
  id: string;
  /** Final score: rrf × boost. */
  score: number;
  rrf: number;
  boost: number;
  /** 1-based rank of the item in each leg; null where the leg did not find it (or did not run). */
  ranks: LegRanks;
}

const DAY_MS = 86_400_000;

/** Multiplier for a memory's weight (0–1, neutral at 0.5) and age. Never below 0. */
export function boostFactor(weight: number, createdAt: Date, now: Date, b: BoostConfig): number {
  const w = Number.isFinite(weight) ? Math.min(Math.max(weight, 0), 1) : 0.5;
  const ageDays = Math.max(0, (now.getTime() - createdAt.getTime()) / DAY_MS);
  const recency = b.recencyHalfLifeDays > 0 ? 2 ** (-ageDays / b.recencyHalfLifeDays) : 0;
  return Math.max(0, 1 + b.weight * (w - 0.5) * 2 + b.recency * recency);
}

/** A ranked list beside the legs (graph neighbours, a part of the query, feedback), with its fusion weight. */
export interface ExtraList {
  candidates: readonly Candidate[];
  weight: number;
}

/** Optional fusion inputs: extra ranked lists, and the time range a query names (with its boost). */
export interface FuseOptions {
  extras?: readonly ExtraList[];
  temporal?: { range: TimeRange | null; boost: number };
}

/**
 * Fuses ranked leg lists (best first), and any extra lists, into one list, best first. Ties keep
 * the order of reciprocalRankFusion (better single rank, earlier leg, id).
 */
export function fuseLegs(
  legs: Partial<Record<LegName, readonly Candidate[]>>,
  fusion: FusionConfig,
  boosts: BoostConfig,
  now: Date,
  opts: FuseOptions = {},
): FusedItem[] {
  const extras = opts.extras ?? [];
  const meta = new Map<string, Candidate>();
  for (const leg of LEG_NAMES) for (const c of legs[leg] ?? []) if (!meta.has(c.id)) meta.set(c.id, c);
  for (const x of extras) for (const c of x.candidates) if (!meta.has(c.id)) meta.set(c.id, c);
  const lists = [...LEG_NAMES.map((leg) => (legs[leg] ?? []).map((c) => c.id)), ...extras.map((x) => x.candidates.map((c) => c.id))];
  const fused = reciprocalRankFusion(lists, fusion.rrfK, [...LEG_NAMES.map((leg) => fusion.weights[leg]), ...extras.map((x) => x.weight)]);
  const out = fused.map((f, order) => {
    const c = meta.get(f.id)!;
    const boost = boostFactor(c.weight, c.createdAt, now, boosts)
      * (opts.temporal ? temporalFactor(c.validStart, c.createdAt, opts.temporal.range, opts.temporal.boost) : 1);
    const ranks = Object.fromEntries(LEG_NAMES.map((leg, i) => [leg, f.ranks[i]])) as LegRanks;
    return { item: { id: f.id, score: f.score * boost, rrf: f.score, boost, ranks }, order };
  });
  out.sort((a, b) => b.item.score - a.item.score || a.order - b.order);
  return out.map((o) => o.item);
}

/**
 * Spreads the fused order over runs: the n-th item (0-based) of a run in that order has its score
 * multiplied by (1 − penalty)^n; items without a run are left alone. Stable for equal scores.
 */
export function diversifyRuns<T extends { id: string; score: number }>(fused: readonly T[], runOf: (id: string) => string | null | undefined, penalty: number): T[] {
  if (!(penalty > 0)) return [...fused];
  const seen = new Map<string, number>();
  const out = fused.map((f, order) => {
    const run = runOf(f.id);
    if (!run) return { f, order };
    const n = seen.get(run) ?? 0;
    seen.set(run, n + 1);
    return { f: { ...f, score: f.score * (1 - penalty) ** n }, order };
  });
  out.sort((a, b) => b.f.score - a.f.score || a.order - b.order);
  return out.map((o) => o.f);
}

/**
 * The first `topK` fused items whose cosine similarity to the query reaches `minSimilarity`
 * (an item without a similarity counts as 0).
 */
export function selectTop<T extends { id: string }>(
  fused: readonly T[], similarity: ReadonlyMap<string, number>, topK: number, minSimilarity?: number,
): T[] {
  const out: T[] = [];
  for (const f of fused) {
    if (out.length >= topK) break;
    if (minSimilarity !== undefined && (similarity.get(f.id) ?? 0) < minSimilarity) continue;
    out.push(f);
  }
  return out;
}
