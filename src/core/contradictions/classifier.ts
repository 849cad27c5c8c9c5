// The learned contradiction judge: a logistic regression over the pair features of
// pair-features.ts, trained in-repo on the tune split of the development set
// (bench/contradictions-data/train.ts writes contradiction-model.json). A memory pair is scored on
// its few best-aligned sentence pairs and the best score counts, so one sentence inside a longer
// memory can carry the update. The kind comes from what changed: a replaced value, or a change
// marker → rdf_conflict (the older row is outdated); a claim and its denial, or a different value
// of a past, fixed fact without a marker → semantic_conflict (conflicted).
import { readFileSync } from 'node:fs';
import { LRUCache } from 'lru-cache';
import { analyzeMemory, FEATURES, pairViews, type FeatureVector, type MemoryInfo, type PairContext, type SentencePairView } from './pair-features.js';

export interface Model {
  features: readonly string[];
  weights: number[];
  bias: number;
  /** Score from which a pair is a conflict. */
  threshold: number;
  trained?: unknown;
}

let cached: Model | undefined;

/** The committed model (contradiction-model.json beside this file). */
export function defaultModel(): Model {
  if (!cached) {
    const m = JSON.parse(readFileSync(new URL('./contradiction-model.json', import.meta.url), 'utf8')) as Model;
    if (m.features.length !== FEATURES.length || m.features.some((f, i) => f !== FEATURES[i])) {
      throw new Error('contradiction-model.json does not match the feature list: retrain it (bench/contradictions-data/train.ts)');
    }
    cached = m;
  }
  return cached;
}

export function vectorOf(f: FeatureVector): number[] {
  return FEATURES.map((n) => f[n]);
}

export function scoreVector(model: Model, x: number[]): number {
  let z = model.bias;
  for (let i = 0; i < x.length; i++) z += model.weights[i] * x[i];
  return 1 / (1 + Math.exp(-z));
}

export interface LearnedJudgement {
  verdict: 'rdf_conflict' | 'semantic_conflict' | 'none';
  /** Probability of a conflict from the model (best sentence pair). */
  score: number;
  best: SentencePairView | null;
}

/**
 * Kind of a conflict found on a sentence pair: a claim and its plain denial, or what the rules
 * call a disagreement (a different figure for a fixed fact: "Q2 revenue was $1.2M" / "$1.5M"), is
 * semantic_conflict unless the newer memory marks a change; every replaced value is rdf_conflict.
 */
export function kindOf(v: SentencePairView, ruleVerdict: PairContext['rule']): 'rdf_conflict' | 'semantic_conflict' {
  if (v.changeMarked) return 'rdf_conflict';
  if (v.negFlip && !v.valueChange) return 'semantic_conflict';
  if (ruleVerdict === 'semantic_conflict' || v.fixedEvent) return 'semantic_conflict';
  return 'rdf_conflict';
}

/** Judges a memory pair from its analysed texts. */
export function judgeLearned(newer: MemoryInfo, older: MemoryInfo, ctx: PairContext, model: Model = defaultModel()): LearnedJudgement {
  let best: SentencePairView | null = null;
  let score = 0;
  for (const view of pairViews(newer, older, ctx)) {
    const modelled = view.eligible ? scoreVector(model, vectorOf(view.features)) : 0;
    // (an update as agents note it is one whatever the model says: pair-features.ts, markedUpdate)
    const s = view.decisive ? Math.max(modelled, model.threshold) : modelled;
    if (s > score || !best) {
      score = s;
      best = view;
    }
  }
  if (!best || score < model.threshold) return { verdict: 'none', score, best };
  return { verdict: kindOf(best, ctx.rule), score, best };
}

export { analyzeMemory };

// A tenant's neighbours come back as candidates write after write: their analysis is kept.
const analyses = new LRUCache<string, MemoryInfo>({ max: 2_000 });

/** analyzeMemory, remembered for the last 2,000 texts. */
export function analyzeCached(text: string): MemoryInfo {
  let info = analyses.get(text);
  if (!info) {
    info = analyzeMemory(text);
    analyses.set(text, info);
  }
  return info;
}
