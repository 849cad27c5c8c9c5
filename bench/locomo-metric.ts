// LoCoMo retrieval metric and evidence repair, pure (bench/locomo.ts runs the benchmark).
// See /work/shared/bench/README.md (../shared/bench/README.md from the repository root).

export const CATEGORIES: Record<number, string> = {
  1: 'multi-hop', 2: 'temporal', 3: 'open-domain', 4: 'single-hop', 5: 'adversarial',
};
export const ADVERSARIAL = 5;
export const KS = [5, 10, 20] as const;

/** What repairing the evidence of the questions changed, counted over every question seen. */
export interface RepairCounts {
  /** Evidence strings holding several ids ("D8:6; D9:17"), split. */
  split_strings: number;
  /** Ids rewritten to the D<session>:<turn> form ("D:11:26" → "D11:26"). */
  fixed_ids: number;
  /** Ids (or fragments) naming no turn of the conversation, dropped, as written. */
  dropped_ids: string[];
  /** Questions left without evidence (none given, or all of it dropped), not asked. */
  dropped_questions: number;
}

export const emptyRepairCounts = (): RepairCounts => ({ split_strings: 0, fixed_ids: 0, dropped_ids: [], dropped_questions: 0 });

/**
 * The evidence dia_ids of one question, repaired: each string is split on `;`, `,` and
 * whitespace; an id is normalised to D<session>:<turn> (a stray colon after the D, leading
 * zeros); ids not among `known` are dropped; duplicates removed, order kept. Counts go to `counts`.
 */
export function repairEvidence(raw: readonly unknown[], known: ReadonlySet<string>, counts: RepairCounts): string[] {
  const out: string[] = [];
  for (const r of raw) {
    const parts = String(r).split(/[;,\s]+/).filter((x) => x.length > 0);
    if (parts.length > 1) counts.split_strings++;
    for (const part of parts) {
      const m = /^D:?(\d+):(\d+)$/.exec(part);
      const id = m ? `D${Number(m[1])}:${Number(m[2])}` : part;
      if (m && id !== part) counts.fixed_ids++;
      if (!known.has(id)) {
        counts.dropped_ids.push(part);
        continue;
      }
      if (!out.includes(id)) out.push(id);
    }
  }
  if (out.length === 0) counts.dropped_questions++;
  return out;
}

export interface QuestionScore {
  /** Evidence recall at each k of KS, 0–1. */
  recall: Record<(typeof KS)[number], number>;
  /** 1 / rank of the first result holding evidence, 0 if none does. */
  rr: number;
}

/**
 * Scores one question. `ranked` is the search's result list, best first, each entry the dia_ids
 * that result stands for (usually one; a memory whose text several turns repeat stands for all).
 */
export function scoreQuestion(ranked: readonly (readonly string[])[], evidence: readonly string[]): QuestionScore {
  if (evidence.length === 0) throw new Error('a question without evidence cannot be scored');
  const ev = new Set(evidence);
  const recall = {} as QuestionScore['recall'];
  for (const k of KS) {
    const found = new Set<string>();
    for (const ids of ranked.slice(0, k)) for (const id of ids) if (ev.has(id)) found.add(id);
    recall[k] = found.size / ev.size;
  }
  const first = ranked.findIndex((ids) => ids.some((id) => ev.has(id)));
  return { recall, rr: first < 0 ? 0 : 1 / (first + 1) };
}

export interface Aggregate {
  n: number;
  /** Percentages, one decimal. */
  r5: number;
  r10: number;
  r20: number;
  mrr: number;
}

const pct = (x: number) => Math.round(x * 1000) / 10;

export function aggregate(scores: readonly QuestionScore[]): Aggregate {
  const n = scores.length;
  const mean = (f: (s: QuestionScore) => number) => (n ? scores.reduce((a, s) => a + f(s), 0) / n : 0);
  return { n, r5: pct(mean((s) => s.recall[5])), r10: pct(mean((s) => s.recall[10])), r20: pct(mean((s) => s.recall[20])), mrr: pct(mean((s) => s.rr)) };
}

/** Per category, overall excluding adversarial (category 5), and overall including it. */
export function summarise(scored: readonly { category: number; score: QuestionScore }[]) {
  const byCategory: Record<string, Aggregate> = {};
  for (const c of Object.keys(CATEGORIES).map(Number)) {
    byCategory[`${c} ${CATEGORIES[c]}`] = aggregate(scored.filter((s) => s.category === c).map((s) => s.score));
  }
  return {
    by_category: byCategory,
    overall_excl_adversarial: aggregate(scored.filter((s) => s.category !== ADVERSARIAL).map((s) => s.score)),
    overall_incl_adversarial: aggregate(scored.map((s) => s.score)),
  };
}
