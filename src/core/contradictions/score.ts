// Scores the detector on labelled pairs: precision, recall and F1 for "conflict vs none" and
// per class, plus the confusion matrix. Similarity comes from an embedder when one is given,
// otherwise from a lexical stand-in (cosine over word counts) so tests need no model.
import type { Embedder } from '../../providers/embedder/types.js';
import { judgePair, type JudgeOptions, type Judgement, type MemoryFacts, type Verdict } from './detect.js';

export interface LabelledPair {
  older: string | MemoryFacts;
  newer: string | MemoryFacts;
  expected: Verdict;
  note?: string;
}

export interface PairResult {
  older: string;
  newer: string;
  expected: Verdict;
  got: Verdict;
  similarity: number;
  reason: Judgement['reason'];
  signals: string[];
  note?: string;
}

export interface Prf {
  precision: number;
  recall: number;
  f1: number;
  tp: number;
  fp: number;
  fn: number;
}

export interface ScoreReport {
  n: number;
  similarity_source: string;
  threshold?: number;
  /** Any conflict (either class) vs none. */
  conflict_vs_none: Prf & { tn: number; accuracy: number };
  per_class: Record<Verdict, Prf>;
  /** confusion[expected][got] */
  confusion: Record<Verdict, Record<Verdict, number>>;
  errors: PairResult[];
  results: PairResult[];
}

const VERDICTS: Verdict[] = ['rdf_conflict', 'semantic_conflict', 'none'];

const asFacts = (x: string | MemoryFacts): MemoryFacts => (typeof x === 'string' ? { content: x } : x);

function words(s: string): Map<string, number> {
  const m = new Map<string, number>();
  for (const w of s.toLowerCase().match(/[a-z0-9$%.:]+/g) ?? []) m.set(w, (m.get(w) ?? 0) + 1);
  return m;
}

/** Cosine over word counts: a crude stand-in for embedding similarity (tests, no model). */
export function lexicalSimilarity(a: string, b: string): number {
  const x = words(a);
  const y = words(b);
  let dot = 0;
  let nx = 0;
  let ny = 0;
  for (const [w, c] of x) {
    nx += c * c;
    dot += c * (y.get(w) ?? 0);
  }
  for (const c of y.values()) ny += c * c;
  return nx && ny ? dot / Math.sqrt(nx * ny) : 0;
}

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

function prf(tp: number, fp: number, fn: number): Prf {
  const precision = tp + fp ? tp / (tp + fp) : 1;
  const recall = tp + fn ? tp / (tp + fn) : 1;
  const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
  const r = (x: number) => Math.round(x * 1000) / 1000;
  return { precision: r(precision), recall: r(recall), f1: r(f1), tp, fp, fn };
}

/** Wilson score interval (95 % by default) of k successes out of n: [0, 1] when n is 0. */
export function wilson(k: number, n: number, z = 1.96): [number, number] {
  if (n === 0) return [0, 1];
  const p = k / n;
  const d = 1 + (z * z) / n;
  const c = p + (z * z) / (2 * n);
  const m = z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  const r = (x: number) => Math.round(x * 1000) / 1000;
  return [r(Math.max(0, (c - m) / d)), r(Math.min(1, (c + m) / d))];
}

/** Metrics over judged pairs. */
export function summarize(results: PairResult[]): Omit<ScoreReport, 'similarity_source' | 'threshold' | 'results'> {
  const confusion = Object.fromEntries(VERDICTS.map((e) => [e, Object.fromEntries(VERDICTS.map((g) => [g, 0]))])) as ScoreReport['confusion'];
  for (const r of results) confusion[r.expected][r.got]++;
  const isC = (v: Verdict) => v !== 'none';
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let tn = 0;
  for (const r of results) {
    if (isC(r.expected) && isC(r.got)) tp++;
    else if (!isC(r.expected) && isC(r.got)) fp++;
    else if (isC(r.expected) && !isC(r.got)) fn++;
    else tn++;
  }
  const per_class = Object.fromEntries(
    VERDICTS.map((v) => {
      const t = results.filter((r) => r.expected === v && r.got === v).length;
      const f = results.filter((r) => r.expected !== v && r.got === v).length;
      const n = results.filter((r) => r.expected === v && r.got !== v).length;
      return [v, prf(t, f, n)];
    }),
  ) as Record<Verdict, Prf>;
  return {
    n: results.length,
    conflict_vs_none: { ...prf(tp, fp, fn), tn, accuracy: Math.round(((tp + tn) / Math.max(1, results.length)) * 1000) / 1000 },
    per_class,
    confusion,
    errors: results.filter((r) => r.expected !== r.got),
  };
}

/** Judges every pair (newer against older) and scores the verdicts. */
export async function scorePairs(
  pairs: LabelledPair[],
  opts: { embedder?: Pick<Embedder, 'embed' | 'modelId'>; threshold?: number } = {},
): Promise<ScoreReport> {
  const olders = pairs.map((p) => asFacts(p.older));
  const newers = pairs.map((p) => asFacts(p.newer));
  let sims: number[];
  if (opts.embedder) {
    const vecs = await opts.embedder.embed(pairs.flatMap((_, i) => [olders[i].content, newers[i].content]));
    sims = pairs.map((_, i) => cosine(vecs[2 * i], vecs[2 * i + 1]));
  } else {
    sims = pairs.map((_, i) => lexicalSimilarity(olders[i].content, newers[i].content));
  }
  const judgeOpts = (i: number): JudgeOptions => ({ similarity: sims[i], threshold: opts.threshold });
  const results: PairResult[] = pairs.map((p, i) => {
    const j = judgePair(newers[i], olders[i], judgeOpts(i));
    return {
      older: olders[i].content,
      newer: newers[i].content,
      expected: p.expected,
      got: j.verdict,
      similarity: Math.round(sims[i] * 1000) / 1000,
      reason: j.reason,
      signals: j.signals,
      note: p.note,
    };
  });
  return {
    similarity_source: opts.embedder ? `embedder:${opts.embedder.modelId}` : 'lexical',
    threshold: opts.threshold,
    ...summarize(results),
    results,
  };
}
