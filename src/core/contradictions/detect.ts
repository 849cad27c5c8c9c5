// Judges whether a newer memory contradicts an older one. Two kinds of finding:
//  - rdf_conflict: same subject, same single-valued predicate, different value (an update:
//    the older row becomes outdated);
//  - semantic_conflict: the texts are about the same thing (similarity gate) AND carry an
//    explicit contradiction signal: a negation flip, an antonym, or a different number, date,
//    amount or named value in the same slot (the older row becomes conflicted).
// Similarity alone is never a signal: embeddings place "bought a car" next to "sold her car".
import { LRUCache } from 'lru-cache';
import { compareObjects, isSingleValued, MONTHS, numberWord, predicateSpec, slotOf, WEEKDAYS } from './predicates.js';
import { expandContractions, extractTriples, givenTriple, spokenSentences, type Spoken, type Triple } from './triples.js';

export { isSingleValued } from './predicates.js';

/**
 * Cosine similarity (USE-Lite, unit vectors) from which two memories count as "about the same
 * thing". A gate, not a signal: paraphrases and unrelated look-alikes also score 0.7–0.95, so a
 * contradiction signal is always required on top.
 */
export const SEMANTIC_SIMILARITY_THRESHOLD = 0.65;

export type Verdict = 'rdf_conflict' | 'semantic_conflict' | 'none';

export interface MemoryFacts {
  content: string;
  subject?: string | null;
  predicate?: string | null;
  object_value?: string | null;
  /** Similarity of this memory to the other one (as returned by the vector search). */
  similarity?: number | null;
  /** Its triples when already known (the detector extracts each memory's once per detection). */
  triples?: Triple[];
}

export type Reason =
  | 'different_object'
  | 'negation_flip'
  | 'antonym'
  | 'different_value'
  | 'different_named_value'
  | 'different_subjects'
  | 'same_fact'
  | 'compatible'
  | 'below_similarity'
  | 'no_similarity'
  | 'no_signal';

export interface Judgement {
  verdict: Verdict;
  reason: Reason;
  /** Symbolic evidence, e.g. ["same_subject", "predicate:lives_in", "berlin → munich"]. */
  signals: string[];
  newer_triple: Triple | null;
  older_triple: Triple | null;
}

export interface JudgeOptions {
  /** Similarity between the two memories; falls back to older.similarity, then newer.similarity. */
  similarity?: number | null;
  threshold?: number;
}

/** Triples of a memory: the writer's own when given, else extracted from the content. */
export function triplesOf(m: MemoryFacts): Triple[] {
  if (m.triples) return m.triples;
  if (m.subject && m.predicate && m.object_value) {
    const t = givenTriple(m.subject, m.predicate, m.object_value);
    if (t) return [t];
  }
  const text = m.content ?? '';
  let t = tripleCache.get(text);
  if (!t) tripleCache.set(text, (t = extractTriples(text)));
  return t;
}

// Triples extracted from a text, kept for the texts seen last (a tenant's neighbours recur as candidates).
const tripleCache = new LRUCache<string, Triple[]>({ max: 2_000 });

export function judgePair(newer: MemoryFacts, older: MemoryFacts, opts: JudgeOptions = {}): Judgement {
  const tn = triplesOf(newer);
  const to = triplesOf(older);
  const result = (verdict: Verdict, reason: Reason, signals: string[], a: Triple | null = tn[0] ?? null, b: Triple | null = to[0] ?? null): Judgement => ({
    verdict,
    reason,
    signals,
    newer_triple: a,
    older_triple: b,
  });

  // 1. Structured comparison of triples with the same subject and slot.
  let matched: { a: Triple; b: Triple; outcome: Reason } | null = null;
  let multiValuedMatch = false;
  for (const a of tn) {
    for (const b of to) {
      if (a.subject !== b.subject) continue;
      const pred = sharedPredicate(a, b);
      if (!pred) continue;
      const cmp = compareObjects(a.object, b.object, pred);
      const signals = ['same_subject', `predicate:${pred}`];
      if (a.negated !== b.negated) {
        if (cmp === 'same') return result('semantic_conflict', 'negation_flip', [...signals, 'negation_flip', `object:${b.object_norm}`], a, b);
        matched ??= { a, b, outcome: 'compatible' };
        continue;
      }
      if (!isSingleValued(pred)) {
        multiValuedMatch = true;
        matched ??= { a, b, outcome: cmp === 'same' ? 'same_fact' : 'compatible' };
        continue;
      }
      if (!a.negated && cmp === 'different') {
        return result('rdf_conflict', 'different_object', [...signals, 'single_valued', `${b.object_norm} → ${a.object_norm}`], a, b);
      }
      matched ??= { a, b, outcome: cmp === 'same' ? 'same_fact' : 'compatible' };
    }
  }
  // The same single-valued fact (or a refinement of it): nothing to flag.
  if (matched && !multiValuedMatch) return result('none', matched.outcome, ['same_subject', `predicate:${matched.a.predicate}`], matched.a, matched.b);

  // One-sentence memories whose triples name different subjects are about different things.
  const sn = sentencesCached(newer.content ?? '');
  const so = sentencesCached(older.content ?? '');
  if (tn.length > 0 && to.length > 0 && !matched && sn.length <= 1 && so.length <= 1) {
    const pairs = tn.flatMap((a) => to.map((b) => [a, b] as const));
    if (pairs.every(([a, b]) => a.subject !== b.subject && slotOf(a.predicate) === slotOf(b.predicate))) {
      return result('none', 'different_subjects', [`${to[0].subject} ≠ ${tn[0].subject}`]);
    }
  }

  // 2. Semantic signals, only for memories about the same thing.
  const sim = opts.similarity ?? older.similarity ?? newer.similarity;
  if (sim === undefined || sim === null || !Number.isFinite(sim)) return result('none', 'no_similarity', []);
  const threshold = opts.threshold ?? SEMANTIC_SIMILARITY_THRESHOLD;
  if (sim < threshold) return result('none', 'below_similarity', [`similarity:${round(sim)}`]);

  const multiValued = multiValuedMatch || [...tn, ...to].some((t) => t.predicate !== 'left' && predicateSpec(t.predicate)?.singleValued === false);
  for (const { sentence: x, speaker: sx } of sn) {
    for (const { sentence: y, speaker: sy } of so) {
      // Two speakers' sentences are two people's: "I love hiking" / "I hate hiking" disagree about nothing.
      if (sx && sy && sx !== sy) continue;
      const s = sentenceSignal(x, y, multiValued);
      if (s) return result('semantic_conflict', s.reason, [`similarity:${round(sim)}`, ...s.signals]);
    }
  }
  return result('none', matched ? matched.outcome : 'no_signal', [`similarity:${round(sim)}`]);
}

/** The predicate two triples share (same slot), with "left X" matching works_at or a location. */
function sharedPredicate(a: Triple, b: Triple): string | null {
  if (a.predicate === 'left' && b.predicate === 'left') return null;
  if (a.predicate === 'left' || b.predicate === 'left') {
    const other = a.predicate === 'left' ? b : a;
    return other.predicate === 'works_at' || slotOf(other.predicate) === 'location' ? other.predicate : null;
  }
  const sa = slotOf(a.predicate);
  return sa !== null && sa === slotOf(b.predicate) ? a.predicate : null;
}

const round = (x: number) => Math.round(x * 1000) / 1000;

// ---------------------------------------------------------------------------------------------
// Sentence-level signals

type Kind = 'word' | 'num' | 'money' | 'pct' | 'time' | 'year' | 'month' | 'weekday' | 'ampm' | 'neg';

interface Tok {
  orig: string;
  norm: string;
  stem: string;
  kind: Kind;
  index: number;
}

const FILLERS = new Set([
  'the', 'a', 'an', 'now', 'currently', 'still', 'also', 'just', 'really', 'actually', 'already', 'recently', 'officially',
  'very', 'her', 'his', 'their', 'its', 'our', 'my', 'your', 'is', 'are', 'was', 'were', 'be', 'been', 'being', 'am',
  'do', 'does', 'did', 'has', 'have', 'had', 'will', 'would', 'so', 'then', 'meanwhile', 'again', 'indeed', 'definitely',
]);
const NEGATIONS = new Set(['not', 'never', 'no', 'no_longer', 'used_to', 'neither', 'nor']);
// Allowed to differ in a negation flip: "has never been to Japan" / "has been to Japan twice".
const FREQUENCY = new Set(['once', 'twice', 'ever', 'always', 'before', 'yet', 'sometimes', 'often', 'times', 'time', 'anymore']);
const VERBS = new Set([
  'is', 'are', 'was', 'were', 'be', 'been', 'am', 'has', 'have', 'had', 'do', 'does', 'did', 'will', 'would', 'can', 'could',
  'should', 'may', 'might', 'must', 'shall', 'went', 'ran', 'got', 'made', 'took', 'gave', 'left', 'came', 'became', 'began',
  'grew', 'rose', 'fell', 'won', 'lost', 'paid', 'sold', 'bought', 'met', 'said', 'told', 'kept', 'held', 'ran', 'run', 'leave',
  'leaves', 'meet', 'meets', 'start', 'starts', 'end', 'ends', 'open', 'opens', 'close', 'closes', 'cost', 'costs', 'use',
  'uses', 'live', 'lives', 'work', 'works', 'pass', 'passes', 'fail', 'fails', 'return', 'returns', 'contain', 'contains',
  'support', 'supports', 'need', 'needs', 'take', 'takes', 'ship', 'ships', 'depart', 'departs', 'arrive', 'arrives',
]);
const SINGLE_VALUE_CUES = new Set([
  'default', 'main', 'primary', 'only', 'official', 'capital', 'ceo', 'cto', 'cfo', 'headquarters', 'hq', 'deadline',
  'manager', 'owner', 'lead', 'favorite', 'favourite', 'preferred', 'current', 'sole', 'single',
]);
const ANTONYM_PAIRS: Array<[string, string]> = [
  ['open', 'closed'], ['open', 'shut'], ['enabled', 'disabled'], ['on', 'off'], ['active', 'inactive'],
  ['available', 'unavailable'], ['allowed', 'forbidden'], ['allowed', 'prohibited'], ['allowed', 'banned'],
  ['permitted', 'forbidden'], ['true', 'false'], ['passes', 'fails'], ['passed', 'failed'], ['passing', 'failing'],
  ['succeeded', 'failed'], ['success', 'failure'], ['won', 'lost'], ['win', 'lose'], ['accepted', 'rejected'],
  ['approved', 'rejected'], ['approved', 'denied'], ['granted', 'denied'], ['increased', 'decreased'], ['rose', 'fell'],
  ['up', 'down'], ['higher', 'lower'], ['more', 'less'], ['above', 'below'], ['likes', 'dislikes'], ['likes', 'hates'],
  ['loves', 'hates'], ['agrees', 'disagrees'], ['public', 'private'], ['required', 'optional'], ['mandatory', 'optional'],
  ['present', 'absent'], ['included', 'excluded'], ['online', 'offline'], ['visible', 'hidden'], ['valid', 'invalid'],
  ['legal', 'illegal'], ['safe', 'unsafe'], ['healthy', 'unhealthy'], ['possible', 'impossible'], ['correct', 'incorrect'],
  ['alive', 'dead'], ['full', 'empty'], ['paid', 'unpaid'], ['free', 'paid'], ['started', 'stopped'], ['dark', 'light'],
  ['stable', 'unstable'], ['secure', 'insecure'], ['compatible', 'incompatible'], ['supported', 'unsupported'],
  ['encrypted', 'unencrypted'], ['locked', 'unlocked'], ['connected', 'disconnected'],
  ['remote', 'onsite'], ['remotely', 'onsite'], ['internal', 'external'], ['minimum', 'maximum'], ['early', 'late'],
];

function stem(w: string): string {
  let s = w.toLowerCase().replace(/'s$/, '');
  if (s.length <= 3) return s;
  if (s.endsWith('ies') && s.length > 4) s = s.slice(0, -3) + 'y';
  else if (/(?:ss|x|z|ch|sh)es$/.test(s)) s = s.slice(0, -2);
  else if (s.endsWith('s') && !s.endsWith('ss') && !s.endsWith('us') && !s.endsWith('is')) s = s.slice(0, -1);
  if (s.endsWith('ing') && s.length > 5) s = s.slice(0, -3);
  else if (s.endsWith('ed') && s.length > 4) s = s.slice(0, -2);
  if (s.endsWith('e') && s.length > 3) s = s.slice(0, -1);
  return s;
}

const ANTONYMS = new Set(ANTONYM_PAIRS.flatMap(([a, b]) => [`${stem(a)}|${stem(b)}`, `${stem(b)}|${stem(a)}`]));
const MONTH_NAMES = new Set([...MONTHS, ...MONTHS.map((m) => m.slice(0, 3)), 'sept']);

const TOKEN_RE = /[$€£¥]\d+(?:[.,]\d+)*(?:[kmb]n?)?|\d+(?:[.:]\d+)*(?:%|[kmb]n?\b)?|[A-Za-z][A-Za-z0-9@._+'_-]*[A-Za-z0-9]|[A-Za-z]|%/g;

function kindOf(norm: string, prev: Tok | undefined): Kind {
  if (NEGATIONS.has(norm)) return 'neg';
  if (/^[$€£¥]\d/.test(norm)) return 'money';
  if (/%$/.test(norm)) return 'pct';
  if (/^\d{1,2}:\d{2}$/.test(norm)) return 'time';
  if (/^(?:19|20|21)\d{2}$/.test(norm)) return 'year';
  if (/^\d+(?:\.\d+)*(?:[kmb]n?)?$/.test(norm)) return 'num';
  if ((norm === 'am' || norm === 'pm') && prev && (prev.kind === 'num' || prev.kind === 'time')) return 'ampm';
  if (MONTH_NAMES.has(norm)) return 'month';
  if (WEEKDAYS.includes(norm.replace(/s$/, ''))) return 'weekday';
  return 'word';
}

// The detector judges a memory against each of its candidates, and a tenant's neighbours come back
// write after write: sentence splits and tokenisations are kept (pure functions of the text).
const sentenceCache = new LRUCache<string, Spoken[]>({ max: 2_000 });
const tokenCache = new LRUCache<string, Tok[]>({ max: 8_000 });

function sentencesCached(text: string): Spoken[] {
  let s = sentenceCache.get(text);
  if (!s) sentenceCache.set(text, (s = spokenSentences(text)));
  return s;
}

function tokenizeCached(sentence: string): Tok[] {
  let t = tokenCache.get(sentence);
  if (!t) tokenCache.set(sentence, (t = tokenize(sentence)));
  return t;
}

export function tokenize(sentence: string): Tok[] {
  const text = expandContractions(sentence)
    .replace(/\bno longer\b/gi, 'no_longer')
    .replace(/\bused to\b/gi, 'used_to')
    .replace(/(\d),(?=\d{3}\b)/g, '$1');
  const out: Tok[] = [];
  for (const m of text.matchAll(TOKEN_RE)) {
    let orig = m[0].replace(/'s$/i, '');
    if (orig.endsWith('.')) orig = orig.slice(0, -1);
    let norm = orig.toLowerCase();
    const nw = numberWord(norm);
    if (nw !== undefined && norm !== 'one') norm = String(nw);
    const kind = kindOf(norm, out[out.length - 1]);
    out.push({ orig, norm, stem: kind === 'word' ? stem(norm) : norm, kind, index: out.length });
  }
  return out;
}

const isFiller = (t: Tok) => FILLERS.has(t.norm) && t.kind === 'word';
const isValue = (t: Tok) => t.kind !== 'word' && t.kind !== 'neg';
const polarity = (ts: Tok[]) => ts.filter((t) => t.kind === 'neg').length % 2;

/** First verb-like token: copulas, auxiliaries, common verbs, or an -s/-ed word after the first token. */
function firstVerb(ts: Tok[]): number {
  for (const t of ts) {
    if (t.kind !== 'word' && t.kind !== 'neg') continue;
    if (VERBS.has(t.norm) || t.kind === 'neg') return t.index;
    if (t.index > 0 && t.norm.length > 3 && /(?:[^s]s|ed)$/.test(t.norm) && /^[a-z]/.test(t.orig)) return t.index;
  }
  return ts.length;
}

interface Hunk {
  a: Tok[];
  b: Tok[];
}

/**
 * Stems as small integers, so the LCS compares numbers instead of strings (it runs for every
 * sentence pair of two memories: most of the judge's time on long texts). The numbering is reset
 * when it grows past STEM_IDS_MAX; codes of an earlier numbering are recomputed on use.
 */
const STEM_IDS_MAX = 200_000;
const stemIds = new Map<string, number>();
let stemEpoch = 0;
const stemCodeCache = new WeakMap<Tok[], { epoch: number; codes: Int32Array }>();

function stemCodes(ts: Tok[]): Int32Array {
  const had = stemCodeCache.get(ts);
  if (had && had.epoch === stemEpoch) return had.codes;
  const codes = new Int32Array(ts.length);
  ts.forEach((t, i) => {
    let id = stemIds.get(t.stem);
    if (id === undefined) stemIds.set(t.stem, (id = stemIds.size));
    codes[i] = id;
  });
  stemCodeCache.set(ts, { epoch: stemEpoch, codes });
  return codes;
}

/** The LCS table, reused between calls (grown when a pair needs more). */
let lcsTable = new Uint16Array(4_096);

/** Differences between two token lists (LCS on stems), fillers dropped from every hunk. */
export function diff(x: Tok[], y: Tok[]): Hunk[] {
  const n = x.length;
  const m = y.length;
  if (stemIds.size > STEM_IDS_MAX) {
    stemIds.clear();
    stemEpoch++;
  }
  const cx = stemCodes(x);
  const cy = stemCodes(y);
  // LCS lengths of the suffixes, row-major in one array: L(i, j) = L[i * w + j].
  const w = m + 1;
  const size = (n + 1) * w;
  if (lcsTable.length < size) lcsTable = new Uint16Array(Math.max(size, lcsTable.length * 2));
  const L = lcsTable;
  L.fill(0, n * w, size); // row n: past the end of x
  for (let i = n - 1; i >= 0; i--) {
    const row = i * w;
    L[row + m] = 0; // column m: past the end of y
    const xi = cx[i];
    for (let j = m - 1; j >= 0; j--) {
      L[row + j] = xi === cy[j] ? L[row + w + j + 1] + 1 : Math.max(L[row + w + j], L[row + j + 1]);
    }
  }
  const hunks: Hunk[] = [];
  let cur: Hunk | null = null;
  let i = 0;
  let j = 0;
  const flush = () => {
    if (cur) {
      const h = { a: cur.a.filter((t) => !isFiller(t)), b: cur.b.filter((t) => !isFiller(t)) };
      if (h.a.length || h.b.length) hunks.push(h);
    }
    cur = null;
  };
  while (i < n || j < m) {
    if (i < n && j < m && cx[i] === cy[j]) {
      flush();
      i++;
      j++;
    } else if (j < m && (i >= n || L[i * w + j + 1] >= L[(i + 1) * w + j])) {
      cur ??= { a: [], b: [] };
      cur.b.push(y[j++]);
    } else {
      cur ??= { a: [], b: [] };
      cur.a.push(x[i++]);
    }
  }
  flush();
  return hunks;
}

/** A canonical reading of a value span: times as H:MM, amounts without separators. */
function valueKey(ts: Tok[]): string {
  const s = ts.map((t) => t.norm).join(' ');
  const time = /^(\d{1,2})(?::(\d{2}))?\s*(am|pm)?$/.exec(s);
  if (time) {
    let h = Number(time[1]);
    if (time[3] === 'pm' && h < 12) h += 12;
    if (time[3] === 'am' && h === 12) h = 0;
    return `${h}:${time[2] ?? '00'}`;
  }
  return s.replace(/\.0+\b/g, '');
}

const DATE_KINDS = new Set<Kind>(['year', 'month', 'weekday', 'time', 'ampm']);

interface SentenceSignal {
  reason: Reason;
  signals: string[];
}

/** Stems of a sentence's tokens, kept with the (cached) token list. */
const stemSets = new WeakMap<Tok[], Set<string>>();
const stemsOf = (ts: Tok[]) => stemSets.get(ts) ?? stemSets.set(ts, new Set(ts.map((t) => t.stem))).get(ts)!;

/** Whether x's tokens that are no filler and whose stem y lacks could still be one hunk of a signal. */
function fewUnmatched(x: Tok[], y: Tok[]): boolean {
  const ys = stemsOf(y);
  let n = 0;
  let valuesOnly = true;
  for (const t of x) {
    if (isFiller(t) || ys.has(t.stem)) continue;
    n++;
    valuesOnly &&= isValue(t);
    if (n > 3 && !valuesOnly) return false;
  }
  return true;
}

/** Contradiction signal between two sentences, or null. */
function sentenceSignal(newer: string, older: string, multiValued: boolean): SentenceSignal | null {
  const a = tokenizeCached(older);
  const b = tokenizeCached(newer);
  if (a.length === 0 || b.length === 0) return null;

  // Negation flip: same content once negations, fillers and frequency words are set aside.
  if (polarity(a) !== polarity(b)) {
    const core = (ts: Tok[]) => ts.filter((t) => t.kind !== 'neg' && !isFiller(t) && !FREQUENCY.has(t.norm) && !(t.kind === 'num' && FREQUENCY.has(ts[t.index + 1]?.norm ?? ''))).map((t) => t.stem);
    const ca = core(a);
    const cb = core(b);
    if (ca.length >= 2 && ca.join(' ') === cb.join(' ')) return { reason: 'negation_flip', signals: ['negation_flip'] };
    return null; // one side denies something else: no comparable claim
  }

  // Every word of one side found nowhere in the other falls in the diff's hunks, and a signal
  // (below) is one hunk of at most three words, or of figures only: a pair that cannot make one
  // is passed over before the alignment, which is most of the cost across two long memories.
  if (!fewUnmatched(a, b) || !fewUnmatched(b, a)) return null;
  const hunks = diff(a, b);
  if (hunks.length !== 1) return null;
  const h = hunks[0];
  if (h.a.length === 0 || h.b.length === 0) return null; // an addition or an omission

  // A difference inside the subject ("floor 3 printer" / "floor 4 printer") is another subject.
  const endA = h.a[h.a.length - 1].index;
  const endB = h.b[h.b.length - 1].index;
  if (endA < firstVerb(a) && endB < firstVerb(b)) return null;

  const span = (ts: Tok[]) => ts.map((t) => t.orig).join(' ');
  if (h.a.length === 1 && h.b.length === 1 && ANTONYMS.has(`${h.a[0].stem}|${h.b[0].stem}`)) {
    return { reason: 'antonym', signals: ['antonym', `${span(h.a)} → ${span(h.b)}`] };
  }

  if (h.a.every(isValue) && h.b.every(isValue)) {
    // Event dates of a multi-valued fact ("visited Paris in 2019" / "in 2021") are two events.
    const dateLike = [...h.a, ...h.b].every((t) => DATE_KINDS.has(t.kind));
    if (multiValued && dateLike) return null;
    if (valueKey(h.a) === valueKey(h.b)) return null;
    return { reason: 'different_value', signals: ['different_value', `${span(h.a)} → ${span(h.b)}`] };
  }

  // A different proper name in a slot that holds one value ("returns JSON by default").
  const named = (ts: Tok[]) => ts.length <= 3 && ts.every((t) => t.index > 0 && /^[A-Z0-9]/.test(t.orig));
  if (!multiValued && named(h.a) && named(h.b)) {
    const cue = [...a, ...b].some((t) => SINGLE_VALUE_CUES.has(t.norm));
    if (cue) return { reason: 'different_named_value', signals: ['different_named_value', `${span(h.a)} → ${span(h.b)}`] };
  }
  return null;
}
