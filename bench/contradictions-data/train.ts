// Trains the contradiction judge's logistic regression (src/core/contradictions/classifier.ts) on
// the TUNE split of the development set only, and writes its weights and threshold to
// src/core/contradictions/contradiction-model.json. The held-out split is never read here.
//
// Examples: every tune pair (real changelog lines and LoCoMo turns), plus unrelated pairs drawn
// across tune pairs (what most candidates of a real tenant are). The inputs the service has at
// detection time are computed the same way here: USE-Lite cosine of the two texts, entities
// shared by the two memories (the write's extractor), the rule judge's verdict.
// A pair's positive label sits on one of its sentence pairs, unknown which: training alternates
// (multiple-instance style) between picking the best-scoring sentence pair of each conflict and
// fitting on those plus every aligned sentence pair of the non-conflicts.
// The threshold is chosen by 5-fold cross-validation over source documents: the lowest score
// that keeps precision ≥ TARGET_PRECISION on the out-of-fold predictions.
//
// Run: npx tsx bench/contradictions-data/train.ts   (LOCI_TRAIN_FIXTURES=1 adds the hand-written
// fixtures of test/fixtures/contradictions*.json to the training data; LOCI_TRAIN_OUT=file writes
// the model there instead, to compare it with the committed one; LOCI_TRAIN_ERRORS=1 prints the
// cross-validated misses and false alarms)
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyzeMemory, FEATURES, pairViews, type MemoryInfo, type PairContext } from '../../src/core/contradictions/pair-features.js';
import { scoreVector, vectorOf, type Model } from '../../src/core/contradictions/classifier.js';
import { judgePair } from '../../src/core/contradictions/detect.js';
import { DEV_FILES, devSets, type ResolvedPair } from './dev-set.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const OUT = process.env.LOCI_TRAIN_OUT ?? join(root, 'src/core/contradictions/contradiction-model.json');
const TARGET_PRECISION = 0.9;
const L2 = 0.5;

// What the features say before any data: log-odds an analyst would give each piece of evidence
// (a change marker, a replaced value or name, the same subject for; another subject, time, plan
// or addition against). Training moves the weights away from these only as far as the data
// insists (a penalty on the distance from the prior, PRIOR_STRENGTH), and never across zero: the
// tune split is narrow (few phrasings of each kind), so the prior keeps it from learning its
// accidents and keeps evidence it never shows (ownership moving, "no longer") where it belongs.
const PRIOR: Record<(typeof FEATURES)[number], number> = {
  cos: 1.5, cos_hi: 1, overlap: 2, shared_names: 0.5, single_hunk: 0.5, hunks: -1, val_diff: 1.5, val_same: -1.5, version_diff: 0.5,
  date_only: -2, name_change: 1, subj_same: 1.5, subj_diff: -3, first_both: 0, change_new: 1.5, negchange_new: 1.5, soft_new: 1,
  history: -2.5, hypo: -2.5, future: -1, multi_new: -1.5, ordinal_diff: -2, neg_flip: 2.5, rule_rdf: 3, rule_sem: 3, entities: 0.3,
  kv_both: 0.5, same_text: -3, val_diff_same_subj: 1, name_change_same_subj: 1, change_x_overlap: 1, val_diff_x_diff_subj: -1,
  added_only: -1.5, attr_change: -2.5, time_diff: -2.5, ownership_change: 3, replaced: 0.5, date_moved: 2.5, date_event: -2, retired: 3, other_time: -3, multi_verb: -2, date_fixed: 2,
  marked_replacement: 3, stopped: 3, swap: 2.5, swap_chain: 3, swap_elsewhere: -3, holder_new: 3, kv_replace: 4.5, topic_disjoint: -2.5,
  own_subject_replaced: 2.5, value_replaced: 2.5,
};
const PRIOR_BIAS = -5;
const PRIOR_STRENGTH = Number(process.env.LOCI_TRAIN_PRIOR ?? 0.05);

export interface TrainPair {
  id: string;
  older: string;
  newer: string;
  conflict: boolean;
  group: string;
  weight: number;
}

/** Embeddings and entity names of texts, computed once and cached in the temp dir. */
export async function textContext(texts: string[]): Promise<Map<string, { vec: Float32Array; entities: Set<string> }>> {
  const cacheFile = join(tmpdir(), 'loci-contradictions-text-cache.json');
  const cache: Record<string, { v: number[]; e: string[] }> = existsSync(cacheFile) ? JSON.parse(readFileSync(cacheFile, 'utf8')) : {};
  const h = (t: string) => createHash('sha1').update(t).digest('hex');
  const missing = [...new Set(texts.filter((t) => !cache[h(t)]))];
  if (missing.length) {
    const { UseLiteEmbedder } = await import('../../src/providers/embedder/use-lite.js');
    const { createEntityExtractor } = await import('../../src/providers/entities/index.js');
    const embedder = new UseLiteEmbedder({ workers: 1 });
    const extractor = createEntityExtractor();
    await embedder.init();
    await extractor.init();
    for (let i = 0; i < missing.length; i += 32) {
      const batch = missing.slice(i, i + 32);
      const [vecs, ents] = await Promise.all([embedder.embed(batch), extractor.extractMany(batch)]);
      batch.forEach((t, j) => {
        cache[h(t)] = { v: Array.from(vecs[j], (x) => Math.round(x * 1e5) / 1e5), e: ents[j].entities.map((e) => `${e.type}:${e.normalized}`) };
      });
    }
    await embedder.close();
    await extractor.close();
    writeFileSync(cacheFile, JSON.stringify(cache));
  }
  return new Map(texts.map((t) => [t, { vec: Float32Array.from(cache[h(t)].v), entities: new Set(cache[h(t)].e) }]));
}

const cosine = (a: Float32Array, b: Float32Array) => {
  let d = 0;
  for (let i = 0; i < a.length; i++) d += a[i] * b[i];
  return d;
};

export interface Prepared {
  pair: TrainPair;
  /** Feature vectors of the aligned sentence pairs. */
  xs: number[][];
  ctx: PairContext;
}

export async function prepare(pairs: TrainPair[]): Promise<Prepared[]> {
  const ctxs = await textContext(pairs.flatMap((p) => [p.older, p.newer]));
  const infos = new Map<string, MemoryInfo>();
  const info = (t: string) => infos.get(t) ?? infos.set(t, analyzeMemory(t)).get(t)!;
  return pairs.map((pair) => {
    const o = ctxs.get(pair.older)!;
    const n = ctxs.get(pair.newer)!;
    const cos = cosine(o.vec, n.vec);
    let shared = 0;
    for (const e of n.entities) if (o.entities.has(e)) shared++;
    const rule = process.env.LOCI_TRAIN_NO_RULE === '1' ? 'none' : judgePair({ content: pair.newer }, { content: pair.older }, { similarity: cos }).verdict;
    const ctx: PairContext = { cosine: cos, sharedEntities: shared, rule };
    const older = info(pair.older);
    const newer = info(pair.newer);
    // Only sentence pairs the judge would score (something differs) are examples.
    const xs = pairViews(newer, older, ctx).filter((v) => v.eligible).map((v) => vectorOf(v.features));
    return { pair, xs, ctx };
  });
}

/** Weighted logistic regression on the raw features, pulled towards PRIOR and sign-constrained, by gradient descent. */
function fit(X: number[][], y: number[], w: number[]): Omit<Model, 'threshold' | 'features'> {
  const d = FEATURES.length;
  const prior = FEATURES.map((f) => PRIOR[f]);
  const weights = [...prior];
  let bias = PRIOR_BIAS;
  const W = w.reduce((a, b) => a + b, 0);
  const lr = 0.3;
  for (let it = 0; it < 3000; it++) {
    const g = new Array(d).fill(0);
    let gb = 0;
    for (let i = 0; i < X.length; i++) {
      let z = bias;
      for (let j = 0; j < d; j++) z += weights[j] * X[i][j];
      const e = (1 / (1 + Math.exp(-z)) - y[i]) * w[i];
      for (let j = 0; j < d; j++) g[j] += e * X[i][j];
      gb += e;
    }
    for (let j = 0; j < d; j++) {
      weights[j] -= lr * (g[j] / W + PRIOR_STRENGTH * (weights[j] - prior[j]));
      if (prior[j] * weights[j] < 0) weights[j] = 0;
    }
    bias -= lr * (gb / W + PRIOR_STRENGTH * (bias - PRIOR_BIAS));
  }
  return { weights: weights.map((x) => Math.round(x * 1e4) / 1e4), bias: Math.round(bias * 1e4) / 1e4 };
}

const pairScore = (m: Model, p: Prepared) => Math.max(0, ...p.xs.map((x) => scoreVector(m, x)));

/** Multiple-instance training: conflicts on their best sentence pair, non-conflicts on all of theirs. */
export function train(data: Prepared[], rounds = 3): Model {
  let model: Model | null = null;
  for (let r = 0; r < rounds; r++) {
    const X: number[][] = [];
    const y: number[] = [];
    const w: number[] = [];
    for (const p of data) {
      if (!p.xs.length) continue;
      if (p.pair.conflict) {
        const best = model ? p.xs.reduce((a, b) => (scoreVector(model!, b) > scoreVector(model!, a) ? b : a)) : p.xs[0];
        X.push(best);
        y.push(1);
        w.push(p.pair.weight);
      } else {
        for (const x of p.xs) {
          X.push(x);
          y.push(0);
          w.push(p.pair.weight / p.xs.length);
        }
      }
    }
    model = { features: FEATURES, threshold: 0.5, ...fit(X, y, w) };
  }
  return model!;
}

/** The lowest threshold whose precision on `scored` stays at or above `target` (and its recall). */
export function chooseThreshold(scored: Array<{ s: number; y: boolean }>, target: number) {
  const sorted = [...scored].sort((a, b) => b.s - a.s);
  const positives = scored.filter((x) => x.y).length;
  let tp = 0;
  let fp = 0;
  let best = { threshold: 0.99, precision: 1, recall: 0 };
  for (let i = 0; i < sorted.length; i++) {
    if (sorted[i].y) tp++;
    else fp++;
    if (i + 1 < sorted.length && sorted[i + 1].s === sorted[i].s) continue;
    const precision = tp / (tp + fp);
    if (precision >= target && tp / positives >= best.recall) best = { threshold: sorted[i].s, precision, recall: tp / positives };
  }
  return best;
}

function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function trainingPairs(dev: ResolvedPair[], withFixtures: boolean): TrainPair[] {
  const tune = dev.filter((p) => p.split === 'tune');
  const out: TrainPair[] = tune.map((p) => ({ id: p.id, older: p.older, newer: p.newer, conflict: p.label !== 'none', group: p.docs[0], weight: 1 }));
  // Unrelated candidates: memories of two different tune pairs.
  const rand = rng(7);
  for (let i = 0; i < 200 && tune.length > 1; i++) {
    const a = tune[Math.floor(rand() * tune.length)];
    const b = tune[Math.floor(rand() * tune.length)];
    if (a.docs[0] === b.docs[0]) continue;
    out.push({ id: `u${i}`, older: a.older, newer: b.newer, conflict: false, group: a.docs[0], weight: 0.5 });
  }
  if (withFixtures) {
    for (const f of ['contradictions.json', 'contradictions-holdout.json']) {
      const rows = JSON.parse(readFileSync(join(root, 'test/fixtures', f), 'utf8')) as Array<{ older: unknown; newer: unknown; expected: string }>;
      rows.forEach((r, i) => {
        if (typeof r.older !== 'string' || typeof r.newer !== 'string') return;
        out.push({ id: `${f}#${i}`, older: r.older, newer: r.newer, conflict: r.expected !== 'none', group: `fixture:${f}:${i % 5}`, weight: 0.7 });
      });
    }
  }
  return out;
}

async function main() {
  const sets = devSets();
  const skipped = sets.reduce((a, s) => a + s.skipped, 0);
  if (skipped) console.warn(`${skipped} LoCoMo pairs left out (no data set at ${sets[0].locomo ?? 'LOCI_LOCOMO_PATH'})`);
  const withFixtures = process.env.LOCI_TRAIN_FIXTURES === '1';
  const pairs = trainingPairs(sets.flatMap((s) => s.pairs), withFixtures);
  const data = await prepare(pairs);

  // Out-of-fold scores, folds by source document.
  const fold = (g: string) => createHash('sha1').update(g).digest().readUInt8(0) % 5;
  const oof: Array<{ s: number; y: boolean; p: Prepared }> = [];
  for (let k = 0; k < 5; k++) {
    const m = train(data.filter((p) => fold(p.pair.group) !== k));
    for (const p of data.filter((q) => fold(q.pair.group) === k)) oof.push({ s: pairScore(m, p), y: p.pair.conflict, p });
  }
  const real = oof.filter((x) => !x.p.pair.id.startsWith('u'));
  const chosen = chooseThreshold(oof, TARGET_PRECISION);
  const at = (t: number, xs: typeof oof) => {
    const tp = xs.filter((x) => x.y && x.s >= t).length;
    const fp = xs.filter((x) => !x.y && x.s >= t).length;
    const fn = xs.filter((x) => x.y && x.s < t).length;
    return { precision: +(tp / Math.max(1, tp + fp)).toFixed(3), recall: +(tp / Math.max(1, tp + fn)).toFixed(3), tp, fp, fn };
  };
  const model: Model = { ...train(data), threshold: Math.round(chosen.threshold * 1e4) / 1e4 };
  // The hand-written fixtures, never trained on here: a check that the model holds on memories
  // phrased as agents write them (they are regression tests, not a result).
  let fixtureCheck: unknown = null;
  if (!withFixtures) {
    const fx = await prepare(trainingPairs([], true).filter((p) => p.id.includes('.json#')));
    const scored = fx.map((p) => ({ s: pairScore(model, p), y: p.pair.conflict, p }));
    fixtureCheck = at(model.threshold, scored);
    if (process.env.LOCI_TRAIN_ERRORS === '1') {
      for (const x of scored.filter((r) => (r.s >= model.threshold) !== r.y)) {
        console.log(`FIX-${x.y ? 'MISS' : 'FALSE'} ${x.s.toFixed(3)} ${x.p.pair.id}: ${x.p.pair.older}  →  ${x.p.pair.newer}`);
      }
    }
  }
  const bySet = Object.fromEntries(sets.map((s) => [s.name, at(model.threshold, real.filter((x) => s.pairs.some((p) => p.id === x.p.pair.id)))]));
  const summary = {
    examples: data.length,
    conflicts: data.filter((p) => p.pair.conflict).length,
    with_fixtures: withFixtures,
    cv_5fold_by_document: at(model.threshold, real),
    cv_by_set: bySet,
    target_precision: TARGET_PRECISION,
    prior_strength: PRIOR_STRENGTH,
    fixtures_check: fixtureCheck,
  };
  writeFileSync(OUT, JSON.stringify({ ...model, trained: { on: `${DEV_FILES.join(', ')}: tune splits only`, by: 'bench/contradictions-data/train.ts', ...summary } }, null, 1) + '\n');
  console.log(JSON.stringify(summary));
  console.log(FEATURES.map((f, i) => `${f}=${model.weights[i]}`).join(' '));
  if (process.env.LOCI_TRAIN_ERRORS === '1') {
    for (const t of [0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95]) console.log(`at ${t}: ${JSON.stringify(at(t, real))} ${JSON.stringify(Object.fromEntries(sets.map((s) => [s.name, at(t, real.filter((x) => s.pairs.some((p) => p.id === x.p.pair.id)))])))}`);
    const shown = Number(process.env.LOCI_TRAIN_AT ?? model.threshold);
    for (const x of real.filter((r) => (r.s >= shown) !== r.y)) {
      console.log(`${x.y ? 'MISS' : 'FALSE'} ${x.s.toFixed(3)} ${x.p.pair.id}: ${x.p.pair.older.slice(0, 110).replace(/\n/g, ' / ')}  →  ${x.p.pair.newer.slice(0, 110).replace(/\n/g, ' / ')}`);
    }
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
