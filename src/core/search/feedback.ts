// Pseudo-relevance feedback (RM3-like, without a language model per document): the words the
// first-ranked memories share, weighted by rarity, name what the question is about in the words
// the memories use ("destress" → "yoga", "painting"); a second keyword search with the query and
// those words reaches evidence sharing few words with the question. Pure: tested without a database.
import { inverseFrequency, type TermFrequencies } from './keyword-plan.js';

export interface FeedbackTermOptions {
  /** Words returned at most. */
  terms: number;
  /** A word must be in at least this many of the documents. */
  minDocs: number;
  /** Words in a larger fraction of all memories are not used (as in the keyword plan). */
  maxTermFrequency: number;
}

/**
 * Expansion words from the lexemes of the first-ranked documents (best first): each word scores
 * the sum over the documents holding it of 1 / rank, times its inverse document frequency; words
 * of the query, common words and one-letter or numeric tokens are left out. Best first, ties by word.
 */
export function feedbackTerms(docs: readonly (readonly string[])[], queryLexemes: readonly string[], stats: TermFrequencies, o: FeedbackTermOptions): string[] {
  const query = new Set(queryLexemes);
  const weight = new Map<string, number>();
  const count = new Map<string, number>();
  docs.forEach((lexemes, i) => {
    for (const l of new Set(lexemes)) {
      if (query.has(l) || l.length < 2 || /^\d+$/.test(l)) continue;
      weight.set(l, (weight.get(l) ?? 0) + 1 / (i + 1));
      count.set(l, (count.get(l) ?? 0) + 1);
    }
  });
  const scored: { l: string; s: number }[] = [];
  for (const [l, w] of weight) {
    if ((count.get(l) ?? 0) < o.minDocs) continue;
    const f = stats.freq.get(l) ?? stats.floor;
    if (f > o.maxTermFrequency) continue;
    scored.push({ l, s: w * inverseFrequency(f, stats.rows) });
  }
  scored.sort((a, b) => b.s - a.s || (a.l < b.l ? -1 : 1));
  return scored.slice(0, o.terms).map((t) => t.l);
}
