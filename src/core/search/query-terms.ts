// Candidate entity names of a query: its word n-grams, normalised the way stored entity names
// are, so a lookup on (tenant_id, normalized_name) finds the entities a question names without
// running a model. Pure.
import { normalizeEntityName } from '../../providers/entities/normalize.js';
import { HONORIFICS, STOPWORDS } from '../../providers/entities/lexicon.js';

/** Words no entity is named by alone, on top of the extractor's stopwords (question words, auxiliaries). */
const QUERY_STOPWORDS = new Set([
  'how', 'when', 'where', 'why', 'did', 'do', 'does', 'done', 'is', 'are', 'was', 'were', 'be', 'been', 'being',
  'has', 'have', 'had', 'can', 'could', 'should', 'would', 'will', 'shall', 'may', 'might', 'must', 'about', 'any',
  'all', 'some', 'there', 'here', 'not', 'so', 'as', 'if', 'than', 'then', 'also', 'into', 'over', 'up', 'out',
]);

/** Most keys looked up per query (a 5,000-character query has thousands of n-grams). */
export const MAX_QUERY_KEYS = 300;

export function queryEntityKeys(query: string, maxNgram: number): string[] {
  const words = query.split(/\s+/).filter(Boolean);
  const keys = new Set<string>();
  for (let n = Math.min(maxNgram, words.length); n >= 1; n--) {
    for (let i = 0; i + n <= words.length; i++) {
      const key = normalizeEntityName(words.slice(i, i + n).join(' '));
      if (!isCandidate(key, n)) continue;
      keys.add(key);
      if (keys.size >= MAX_QUERY_KEYS) return [...keys];
    }
  }
  return [...keys];
}

function isCandidate(key: string, n: number): boolean {
  if (!/[\p{L}\p{N}]/u.test(key)) return false;
  if (n > 1) {
    // A multi-word key must start and end with content words ("of Paris" is covered by "paris").
    const parts = key.split(' ');
    return !isStopword(parts[0]) && !isStopword(parts[parts.length - 1]);
  }
  if (key.length < 2 && !/\d/.test(key)) return false;
  return !isStopword(key);
}

const isStopword = (w: string) => STOPWORDS.has(w) || QUERY_STOPWORDS.has(w) || HONORIFICS.has(w);
