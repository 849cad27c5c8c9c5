// Entity and relation extraction from plain text, synchronous and CPU-bound (≈5–15 ms for a
// few hundred characters): run it in a worker (see extractor.ts), not on the event loop.
//
// compromise types people, organisations and places and (with compromise-dates) resolves dates;
// wink-nlp adds proper nouns compromise misses (e.g. "iPhone", sentence-initial "Acme") and dates
// of its own. Neither knows products, so a small lexicon and camel-case/version patterns mark them.
// Relations are deliberately shallow: one verb phrase between two mentions in a sentence
// (or a short noun phrase after it), and co-occurrence of mentions within a sentence.
import nlp from 'compromise';
import datesPlugin from 'compromise-dates';
import winkNLP, { type ItemToken, type WinkMethods } from 'wink-nlp';
import winkModel from 'wink-eng-lite-web-model';
import type { EntityType, ExtractedEntity, ExtractedRelation, Extraction } from './types.js';
import { normalizeEntityName } from './normalize.js';
import { DATE_LEAD, HONORIFICS, MONTHS, PRODUCTS, PRODUCT_SUFFIX, ROLE_WORDS, STOPWORDS, WEEKDAY_OR_MONTH, YEAR_OR_NUMERIC_DATE } from './lexicon.js';

interface Engines {
  wink: WinkMethods;
  /** compromise's known words: a capitalised sentence-initial word found here is a common word. */
  lexicon: Record<string, unknown>;
}

// The one piece of module state: loading the models and registering the plugin is expensive.
let engines: Engines | undefined;

export function loadEngines(): Engines {
  if (!engines) {
    nlp.plugin(datesPlugin);
    // The date tagger is the plugin's hook on every parse; only a text that can hold a calendar
    // date (isCalendarDate) reads dates, so it runs on those alone (extractSync says what it costs).
    // The chunker (noun/verb phrases for `<Noun>` matches) is read by nothing here: without it the
    // output is the same (8,098 texts compared) and a call ~10 % cheaper.
    const world = (nlp as unknown as { world(): { hooks: string[] } }).world();
    world.hooks = world.hooks.filter((h) => h !== 'dates' && h !== 'chunks');
    // No sentiment or negation: unused, and each is a pipeline stage like any other.
    const wink = winkNLP(winkModel, ['sbd', 'pos', 'ner']);
    const lexicon = (nlp.model() as { one: { lexicon: Record<string, unknown> } }).one.lexicon;
    engines = { wink, lexicon };
  }
  return engines;
}

// ---------------------------------------------------------------------------------------------
// Tokens and spans

interface CTerm {
  text: string;
  normal?: string;
  root?: string;
  tags: string[];
  post: string;
  index?: [number, number];
  offset: { start: number; length: number };
}

interface Tok {
  text: string;
  normal: string;
  root: string;
  tags: Set<string>;
  start: number;
  end: number;
  post: string;
  sent: number;
}

interface Span {
  start: number;
  end: number;
  type: EntityType;
  /** ISO date (YYYY, YYYY-MM, YYYY-MM-DD) when the text names an absolute one. */
  iso?: string;
  /** Confirmed a proper noun by compromise (wink alone over-tags sentence-initial words). */
  proper?: boolean;
}

interface Mention extends Span {
  name: string;
  normalized: string;
  sent: number;
  t0: number;
  t1: number;
}

const ORG_SUFFIX = new Set(['corp', 'inc', 'ltd', 'co', 'llc', 'plc', 'gmbh', 'ag', 'bv', 'nv', 'pty']);
const CLAUSE_BREAK = /[,;:!?()[\]"“”—–]/;
const TYPE_RANK: Record<EntityType, number> = { person: 5, organization: 4, place: 3, product: 2, date: 1, other: 0 };

const isLowerWord = (w: string) => /^\p{Ll}/u.test(w) && !/\p{Lu}/u.test(w);
const coreOf = (w: string) => w.replace(/^[^\p{L}\p{N}]+/u, '').replace(/[^\p{L}\p{N}+#]+$/u, '');

/** Trims a span to its name: no edge stopwords, lowercase words, punctuation or possessive. */
function clean(text: string, start: number, end: number, type: EntityType): [number, number] | null {
  const words: { s: number; e: number; w: string }[] = [];
  const re = /\S+/g;
  const sub = text.slice(start, end);
  for (let m = re.exec(sub); m; m = re.exec(sub)) words.push({ s: start + m.index, e: start + m.index + m[0].length, w: m[0] });
  const drop = (w: string, lead: boolean) => {
    const c = coreOf(w);
    if (!c) return true;
    const lower = c.toLowerCase();
    if (type === 'date') return lead && DATE_LEAD.has(lower);
    if (STOPWORDS.has(lower)) return true;
    // Keep lowercase connectors inside a name ("Bank of America"), not at its edges.
    return isLowerWord(c) && !(type === 'product' && !lead);
  };
  while (words.length && drop(words[0].w, true)) words.shift();
  while (words.length && drop(words[words.length - 1].w, false)) words.pop();
  if (!words.length) return null;
  const first = words[0];
  const last = words[words.length - 1];
  // Leading punctuation goes, except the dot of ".NET".
  const s = first.s + /^(?:[^\p{L}\p{N}.]|\.(?!\p{L}))*/u.exec(first.w)![0].length;
  let w = last.w;
  // Trailing punctuation goes, except in initialisms ("U.S.") and C++ / C#.
  w = /^(\p{L}\.)+$/u.test(w) ? w : w.replace(/[^\p{L}\p{N}+#]+$/u, '');
  w = w.replace(/['’]s$/i, '').replace(/(s)['’]$/i, '$1');
  const e = last.s + w.length;
  return e > s ? [s, e] : null;
}

function overlaps(a: { start: number; end: number }, b: { start: number; end: number }): boolean {
  return a.start < b.end && b.start < a.end;
}

/** The parts of `span` not covered by any of `blockers`. */
function subtract(span: Span, blockers: Span[]): Span[] {
  let parts: Span[] = [span];
  for (const b of blockers) {
    const next: Span[] = [];
    for (const p of parts) {
      if (!overlaps(p, b)) {
        next.push(p);
        continue;
      }
      if (p.start < b.start) next.push({ ...p, end: b.start });
      if (b.end < p.end) next.push({ ...p, start: b.end });
    }
    parts = next;
  }
  return parts;
}

/** compromise's character offsets, checked against the text (and searched for when they drift). */
function locate(text: string, word: string, hint: number, cursor: number): number {
  if (word && text.startsWith(word, hint)) return hint;
  const found = word ? text.indexOf(word, cursor) : -1;
  return found >= 0 ? found : hint;
}

// ---------------------------------------------------------------------------------------------
// Products

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const PRODUCT_LIST_RE = new RegExp(
  `(?<![\\p{L}\\p{N}])(?:${[...PRODUCTS].sort((a, b) => b.length - a.length).map(escapeRe).join('|')})(?![\\p{L}\\p{N}])`,
  'gu',
);
// iPhone, macOS, eBay, MySQL, PostgreSQL, GitHub, SQLite, Node.js, C++, C#, .NET
const CAMEL_RE = /(?<![\p{L}\p{N}.])(?:[a-z]+[A-Z][\p{L}\p{N}]*|[A-Z][a-z]+[A-Z][\p{L}\p{N}]*|[A-Z]{2,}[a-z]+[\p{L}\p{N}]*)(?![\p{L}\p{N}])/gu;
const JS_RE = /(?<![\p{L}\p{N}])(?:[A-Z][\p{L}]*\.js|C\+\+|C#|F#|\.NET)(?![\p{L}\p{N}+#])/gu;
// Surnames with an inner capital are names, not products.
const NAME_PREFIX = /^(Mc|Mac|De|Di|Da|Du|Le|La|Van|Von|Del|Della|St)[A-Z]/;
const VERSION_TAIL = /^(?:[ \t]+(?:v?\d+(?:\.\d+)*[a-z]?|[A-Z][A-Za-z]*)(?![\p{L}\p{N}]))+/u;

function productSpans(text: string): Span[] {
  const out: Span[] = [];
  const add = (start: number, end: number) => {
    // Extend over a version or edition: "iPhone 15 Pro", "Postgres 16.2", "Windows 11".
    const tail = VERSION_TAIL.exec(text.slice(end));
    if (tail) {
      let keep = 0;
      for (const m of tail[0].matchAll(/[ \t]+(\S+)/g)) {
        const w = m[1];
        if (!/^v?\d+(\.\d+)*[a-z]?$/.test(w) && !PRODUCT_SUFFIX.test(w)) break;
        keep = m.index! + m[0].length;
      }
      end += keep;
    }
    out.push({ start, end, type: 'product', proper: true });
  };
  for (const m of text.matchAll(PRODUCT_LIST_RE)) add(m.index!, m.index! + m[0].length);
  for (const m of text.matchAll(CAMEL_RE)) if (!NAME_PREFIX.test(m[0])) add(m.index!, m.index! + m[0].length);
  for (const m of text.matchAll(JS_RE)) add(m.index!, m.index! + m[0].length);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Dates

function isoOf(text: string, d: { start?: string; end?: string; unit?: string } | undefined): string | undefined {
  // Only when the year is written: compromise-dates guesses a year otherwise, and resolves
  // relative dates against the clock, which is wrong for text written on another day.
  if (!d?.start || !/\b\d{4}\b/.test(text)) return undefined;
  if (d.unit === 'day') return d.start.slice(0, 10);
  if (d.unit === 'month') return d.start.slice(0, 7);
  if (d.unit === 'year') return d.start.slice(0, 4);
  return undefined;
}

/**
 * A calendar date names a month or a year, or writes a day and month in figures. "yesterday",
 * "Tuesday", "in 3 weeks", "5pm" are not: as keys they would link every memory that says them.
 * Also the test for running the date tagger at all (extractSync).
 */
const isCalendarDate = (s: string) => MONTHS.test(s) || YEAR_OR_NUMERIC_DATE.test(s);

// ---------------------------------------------------------------------------------------------
// Extraction

export interface ExtractOptions {
  /** Most entities per sentence paired for co_occurs (pairs grow quadratically). */
  maxCooccurring?: number;
}

export function extractSync(text: string, opts: ExtractOptions = {}): Extraction {
  if (!text.trim()) return { entities: [], relations: [] };
  const { wink, lexicon } = loadEngines();
  const doc = nlp(text);
  const calendar = isCalendarDate(text);
  if (calendar) doc.compute('dates');
  doc.compute('root');

  // Tokens (compromise) with character offsets, and sentences. Both libraries read "Acme Corp. Bob
  // lives…" as one sentence, so a sentence is also cut after a company suffix before a capital.
  const sentences = doc.json({ offset: true }) as { terms: CTerm[] }[];
  const toks: Tok[] = [];
  const cToks: Tok[][] = []; // by compromise's own [sentence][term] index
  const bySent: Tok[][] = [];
  const sentStart: number[] = [];
  let cursor = 0;
  let row: Tok[] = [];
  const endSentence = () => {
    if (!row.length) return;
    bySent.push(row);
    sentStart.push(row.find((t) => t.text)?.start ?? row[0].start);
    row = [];
  };
  for (const s of sentences) {
    const cRow: Tok[] = [];
    s.terms.forEach((t, ti) => {
      const start = locate(text, t.text, t.offset.start, cursor);
      const tok: Tok = {
        text: t.text,
        normal: (t.normal ?? t.text).toLowerCase(),
        root: t.root ?? '',
        tags: new Set(t.tags),
        start,
        end: start + t.text.length,
        post: t.post ?? '',
        sent: bySent.length,
      };
      if (t.text) cursor = tok.end;
      row.push(tok);
      cRow.push(tok);
      toks.push(tok);
      const next = s.terms[ti + 1];
      if (next && ORG_SUFFIX.has(tok.normal.replace(/\.$/, '')) && /^\.\s/.test(tok.post) && /^\p{Lu}/u.test(next.text)) endSentence();
    });
    cToks.push(cRow);
    endSentence();
  }
  const termSpan = (terms: CTerm[]): [number, number] | null => {
    const a = terms[0]?.index;
    const b = terms[terms.length - 1]?.index;
    const ta = a && cToks[a[0]]?.[a[1]];
    const tb = b && cToks[b[0]]?.[b[1]];
    return ta && tb ? [ta.start, tb.end] : null;
  };

  // Typed candidates.
  const typed: Span[] = [];
  const addTyped = (start: number, end: number, type: EntityType) => {
    // "Austin, Texas" is two places: one key each links them to other mentions.
    let from = start;
    for (let i = start; i <= end; i++) {
      if (i < end && !CLAUSE_BREAK.test(text[i])) continue;
      const c = clean(text, from, i, type);
      if (c) typed.push({ start: c[0], end: c[1], type, proper: true });
      from = i + 1;
    }
  };
  const views: [EntityType, { json(o: object): unknown }][] = [
    ['person', doc.people()],
    ['organization', doc.organizations()],
    ['place', doc.places()],
  ];
  for (const [type, view] of views) {
    for (const m of view.json({ offset: true }) as { terms: CTerm[] }[]) {
      const r = termSpan(m.terms);
      if (r) addTyped(r[0], r[1], type);
    }
  }
  const cDates: Span[] = [];
  // compromise-dates is about a third of a call's cost; only calendar dates are kept, so it is
  // skipped when the text names none. Parsing a match (its ISO date) costs more than finding it,
  // and only a match with a written year has one (isoOf): the others are found without parsing.
  type DateView = { json(o: object): unknown; eq(i: number): { dates(o: object): DateView } };
  const dateView = calendar ? (doc as unknown as { dates(o: object): DateView }).dates({ timezone: 'UTC' }) : null;
  const found = (dateView?.json({ offset: true, dates: false }) ?? []) as { terms: CTerm[] }[];
  found.forEach((m, i) => {
    const r = termSpan(m.terms);
    if (!r) return;
    const c = clean(text, r[0], r[1], 'date');
    if (!c) return;
    const surface = text.slice(c[0], c[1]);
    const parsed = /\b\d{4}\b/.test(surface)
      ? ((dateView!.eq(i).dates({ timezone: 'UTC' }).json({ offset: false }) as { dates?: { start?: string; unit?: string } }[])[0]?.dates)
      : undefined;
    cDates.push({ start: c[0], end: c[1], type: 'date', iso: isoOf(surface, parsed) });
  });
  typed.push(...cDates);
  typed.push(...productSpans(text).flatMap((p) => {
    const c = clean(text, p.start, p.end, 'product');
    return c ? [{ ...p, start: c[0], end: c[1] }] : [];
  }));

  // wink: tokens located in the text, its DATE entities and PROPN runs.
  const wdoc = wink.readDoc(text);
  const its = wink.its;
  const wtoks: { start: number; end: number; pos: string }[] = [];
  let wc = 0;
  wdoc.tokens().each((t: ItemToken) => {
    const v = t.out();
    const at = text.indexOf(v, wc);
    if (at < 0 || at - wc > 64) {
      wtoks.push({ start: -1, end: -1, pos: 'X' });
      return;
    }
    wc = at + v.length;
    wtoks.push({ start: at, end: wc, pos: t.out(its.pos) as string });
  });
  const entityTypes = wdoc.entities().out(its.type) as string[];
  const entitySpans = wdoc.entities().out(its.span) as unknown as [number, number][];
  entitySpans.forEach(([a, b], i) => {
    if (entityTypes[i] !== 'DATE') return;
    const s = wtoks[a]?.start;
    const e = wtoks[b]?.end;
    if (s === undefined || e === undefined || s < 0 || e < 0) return;
    const span: Span = { start: s, end: e, type: 'date' };
    // compromise's span carries the resolved date: prefer it where both found one.
    if (cDates.some((d) => overlaps(d, span))) return;
    const c = clean(text, s, e, 'date');
    if (c) typed.push({ start: c[0], end: c[1], type: 'date' });
  });

  // Resolve typed overlaps: the longer span wins, then the more specific type.
  typed.sort((a, b) => b.end - b.start - (a.end - a.start) || TYPE_RANK[b.type] - TYPE_RANK[a.type] || a.start - b.start);
  const accepted: Span[] = [];
  for (const s of typed) if (!accepted.some((a) => overlaps(a, s))) accepted.push(s);

  // Untyped proper-noun runs from both libraries.
  const untyped: Span[] = [];
  for (const row of bySent) {
    let run: Tok[] = [];
    const flush = () => {
      if (run.length) untyped.push({ start: run[0].start, end: run[run.length - 1].end, type: 'other', proper: true });
      run = [];
    };
    for (const t of row) {
      if (t.tags.has('ProperNoun') && t.text) run.push(t);
      else flush();
      const post = t.post.replace(/\s+/g, '');
      if (CLAUSE_BREAK.test(post) || (post.includes('.') && !t.tags.has('Abbreviation'))) flush();
    }
    flush();
  }
  {
    let run: typeof wtoks = [];
    const flush = () => {
      if (run.length) untyped.push({ start: run[0].start, end: run[run.length - 1].end, type: 'other', proper: false });
      run = [];
    };
    for (const t of wtoks) {
      if (t.pos === 'PROPN' && t.start >= 0) run.push(t);
      else flush();
    }
    flush();
  }
  // Remove what is typed, merge what both libraries found, split at sentence ends.
  const pieces = untyped
    .flatMap((u) => subtract(u, accepted))
    .flatMap((p) => {
      const c = clean(text, p.start, p.end, 'other');
      return c ? [{ ...p, start: c[0], end: c[1] }] : [];
    })
    .sort((a, b) => a.start - b.start);
  const merged: Span[] = [];
  for (const p of pieces) {
    const last = merged[merged.length - 1];
    if (last && overlaps(last, p)) {
      last.end = Math.max(last.end, p.end);
      last.proper = last.proper || p.proper;
    } else merged.push({ ...p });
  }
  const others: Span[] = [];
  for (const m of merged) {
    const cuts = sentStart.filter((b) => b > m.start && b < m.end);
    let parts: Span[] = [m];
    for (const b of cuts) parts = parts.flatMap((p) => (b > p.start && b < p.end ? [{ ...p, end: b }, { ...p, start: b }] : [p]));
    for (const p of parts) {
      let c = clean(text, p.start, p.end, 'other');
      if (!c) continue;
      // A capitalised common word opening a sentence ("Budget review went fine") is not a name.
      if (!p.proper && sentStart.includes(c[0])) {
        const firstWord = /^\S+/.exec(text.slice(c[0], c[1]))![0];
        if (coreOf(firstWord).toLowerCase() in lexicon) c = clean(text, c[0] + firstWord.length, c[1], 'other');
      }
      if (!c) continue;
      // "Google Cloud": a capitalised word right after (or before) a typed name belongs to it.
      const host = accepted.find(
        (t) => t.type !== 'date' && ((t.end + 1 === c![0] && text[t.end] === ' ') || (c![1] + 1 === t.start && text[c![1]] === ' ')),
      );
      if (host) {
        host.start = Math.min(host.start, c[0]);
        host.end = Math.max(host.end, c[1]);
      } else others.push({ ...p, start: c[0], end: c[1] });
    }
  }

  // Mentions, in text order.
  const mentions: Mention[] = [];
  for (const s of [...accepted, ...others].sort((a, b) => a.start - b.start)) {
    const name = text.slice(s.start, s.end);
    if (s.type === 'date' && !isCalendarDate(name)) continue;
    if (s.type === 'other' && WEEKDAY_OR_MONTH.test(name)) continue;
    const normalized = s.iso ?? normalizeEntityName(name);
    if (normalized.length < 2 && !/\d/.test(normalized)) continue;
    if (STOPWORDS.has(normalized) || ROLE_WORDS.has(normalized) || HONORIFICS.has(normalized)) continue;
    if (!/[\p{L}\p{N}]/u.test(normalized)) continue;
    const t0 = toks.findIndex((t) => t.end > s.start && t.text);
    let t1 = t0;
    while (t1 + 1 < toks.length && toks[t1 + 1].start < s.end) t1++;
    if (t0 < 0) continue;
    mentions.push({ ...s, name, normalized, sent: toks[t0].sent, t0, t1 });
  }

  // Entities: one per normalized name, the most specific type seen.
  const entities = new Map<string, ExtractedEntity>();
  for (const m of mentions) {
    const seen = entities.get(m.normalized);
    if (!seen) entities.set(m.normalized, { name: m.name, normalized: m.normalized, type: m.type });
    else if (seen.type === 'other' && m.type !== 'other') entities.set(m.normalized, { ...seen, name: m.name, type: m.type });
  }
  // A mention's type follows its entity's final type.
  for (const m of mentions) m.type = entities.get(m.normalized)!.type;

  return { entities: [...entities.values()], relations: relations(toks, mentions, opts.maxCooccurring ?? 8) };
}

// ---------------------------------------------------------------------------------------------
// Relations

const PREPS = new Set([
  'at', 'in', 'on', 'to', 'for', 'from', 'with', 'of', 'by', 'into', 'onto', 'about', 'under', 'near', 'as',
  'after', 'before', 'over', 'via', 'through', 'across', 'against', 'within', 'inside', 'outside', 'behind',
]);
const PARTICLES = new Set(['up', 'out', 'off', 'down', 'back', 'away', 'over', 'along']);
const CONNECTIVES = new Set(['and', 'or', 'but', 'nor', 'so', 'because', 'while', 'although', 'though', 'if', 'that', 'who', 'which', 'where', 'when', 'whose', 'whom']);
const NEGATIONS = new Set(['not', "n't", 'never', 'no', 'neither', 'nor', 'hardly']);
const MODALS = new Set(['will', 'would', 'can', 'could', 'may', 'might', 'should', 'must', 'shall', "'ll", "'d"]);
const COPULAS = new Set(['is', 'am', 'are', 'was', 'were', 'be', 'been', 'being']);
const AUXES = new Set(['has', 'have', 'had', 'having', 'do', 'does', 'did']);
const DETS = new Set(['the', 'a', 'an', 'my', 'his', 'her', 'their', 'our', 'its', 'your', 'this', 'that']);

const snake = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '');

/** "work" → "works": predicates read as present-tense statements ("alice works_at acme"). */
export function thirdPerson(verb: string): string {
  const v = verb.toLowerCase();
  const irregular: Record<string, string> = { be: 'is', have: 'has', do: 'does', go: 'goes' };
  if (irregular[v]) return irregular[v];
  if (/(s|sh|ch|x|z|o)$/.test(v)) return `${v}es`;
  if (/[^aeiou]y$/.test(v)) return `${v.slice(0, -1)}ies`;
  return `${v}s`;
}

const has = (t: Tok, tag: string) => t.tags.has(tag);
const isNeg = (t: Tok) => has(t, 'Negative') || NEGATIONS.has(t.normal);
const isModal = (t: Tok) => has(t, 'Modal') || MODALS.has(t.normal);
const isCopula = (t: Tok) => has(t, 'Copula') || COPULAS.has(t.normal);
const isPrep = (t: Tok) => PREPS.has(t.normal);
const isMainVerb = (t: Tok) => has(t, 'Verb') && !isCopula(t) && !has(t, 'Auxiliary') && !has(t, 'Particle');
const isNounish = (t: Tok) => (has(t, 'Noun') || has(t, 'Adjective')) && !has(t, 'Pronoun') && !has(t, 'ProperNoun') && !has(t, 'Verb');

interface VerbPhrase {
  kind: 'verb' | 'copula';
  predicate: string;
  /** Ends in a preposition: what follows is not a direct object. */
  hasPrep: boolean;
  /** Index in the token list after the phrase. */
  next: number;
}

/** Auxiliaries and adverbs, then a verb (+ particle, + preposition) or a copula (+ preposition). */
function verbPhrase(g: Tok[]): VerbPhrase | null {
  if (g.some((t) => isNeg(t) || isModal(t))) return null; // negated or hypothetical: not a fact
  let k = 0;
  let copula = false;
  while (k < g.length) {
    const t = g[k];
    if (!t.text) k++;
    else if (isCopula(t)) (copula = true), k++;
    else if (AUXES.has(t.normal) && !isMainVerb(t)) k++;
    else if (has(t, 'Adverb') && !isPrep(t)) k++;
    else break;
  }
  const t = g[k];
  if (t && isMainVerb(t)) {
    k++;
    let particle = '';
    if (g[k] && PARTICLES.has(g[k].normal) && !(g[k + 1] && !isPrep(g[k + 1]) && isNounish(g[k + 1]))) particle = g[k++].normal;
    let prep = '';
    if (g[k] && isPrep(g[k])) prep = g[k++].normal;
    // "was founded by": a participle after a copula is passive; keep the participle ("founded_by").
    const passive = copula && !has(t, 'Gerund');
    if (passive && !prep) return null;
    const base = passive ? t.normal : thirdPerson(t.root || t.normal);
    return { kind: 'verb', predicate: snake([base, particle, prep].filter(Boolean).join('_')), hasPrep: !!prep, next: k };
  }
  if (copula && t && isPrep(t)) return { kind: 'verb', predicate: `is_${t.normal}`, hasPrep: true, next: k + 1 };
  if (copula) return { kind: 'copula', predicate: 'is', hasPrep: false, next: k };
  return null;
}

/** Determiners, then adjectives/nouns ending in a noun: the words of the phrase, and where it ends. */
function nounPhrase(g: Tok[], k: number): { words: string[]; next: number } | null {
  while (g[k] && DETS.has(g[k].normal)) k++;
  const words: string[] = [];
  let lastNoun = -1;
  while (g[k] && isNounish(g[k]) && words.length < 4) {
    words.push(g[k].normal);
    if (has(g[k], 'Noun')) lastNoun = words.length;
    k++;
  }
  if (lastNoun <= 0 || lastNoun !== words.length) return null;
  return { words, next: k };
}

function relations(toks: Tok[], mentions: Mention[], maxCooccurring: number): ExtractedRelation[] {
  const out = new Map<string, ExtractedRelation>();
  const linked = new Set<string>();
  const add = (r: ExtractedRelation) => {
    if (r.subject === r.object) return;
    out.set(`${r.subject}\u0000${r.predicate}\u0000${r.object}`, r);
    if (r.objectIsEntity) linked.add(`${r.subject}\u0000${r.object}`).add(`${r.object}\u0000${r.subject}`);
  };
  const bySent = new Map<number, Mention[]>();
  for (const m of mentions) (bySent.get(m.sent) ?? bySent.set(m.sent, []).get(m.sent)!).push(m);

  for (const ms of bySent.values()) {
    for (let i = 0; i < ms.length; i++) {
      const a = ms[i];
      if (a.type === 'date') continue;
      const before = toks[a.t0 - 1];
      // "The CEO of Acme met Bob": Acme is not the subject; nor is "Alice" in "Alice's brother".
      if (before && before.sent === a.sent && isPrep(before)) continue;
      if (has(toks[a.t1], 'Possessive') || /^['’]s\b/.test(toks[a.t1 + 1]?.text ?? '')) continue;
      const end = sentenceEnd(toks, a.t1);
      const b = ms[i + 1];
      const limit = b ? b.t0 : end;
      // The tokens up to the next mention, cut at the first clause boundary.
      const gap: Tok[] = [];
      let broken = CLAUSE_BREAK.test(toks[a.t1].post);
      for (let k = a.t1 + 1; k < limit && !broken; k++) {
        const t = toks[k];
        if (CONNECTIVES.has(t.normal)) {
          broken = true;
          break;
        }
        gap.push(t);
        if (CLAUSE_BREAK.test(t.post)) broken = true;
      }
      if (gap.length === 0 || gap.length > 8) continue;
      const vp = verbPhrase(gap);
      if (!vp) continue;
      if (b && !broken && vp.next < gap.length && vp.kind === 'copula') {
        // "Sarah is the CEO of Cyberdyne" → is_ceo_of
        const np = nounPhrase(gap, vp.next);
        if (np && np.next === gap.length - 1 && isPrep(gap[np.next])) {
          add({ subject: a.normalized, predicate: snake(`is_${np.words.join('_')}_${gap[np.next].normal}`), object: b.normalized, objectIsEntity: true });
          continue;
        }
      }
      // "Acme hired Mr. Smith's son": the object is the son, not Smith.
      if (b && has(toks[b.t1], 'Possessive')) continue;
      if (b && !broken && vp.next === gap.length && vp.kind === 'verb') {
        const after = toks[b.t1 + 1];
        // "Alice said Bob works at Acme": Bob starts a clause, he is not what Alice said.
        const clause = !!after && after.sent === b.sent && !CLAUSE_BREAK.test(toks[b.t1].post) && (isMainVerb(after) || isCopula(after));
        if (!(clause && !vp.hasPrep)) {
          add({ subject: a.normalized, predicate: vp.predicate, object: b.normalized, objectIsEntity: true });
          continue;
        }
      }
      // A literal object: "Bob likes green tea", "Alice works as an engineer", "Carol is a nurse".
      const np = nounPhrase(gap, vp.next);
      if (!np) continue;
      // The phrase must end there, not run into a name ("met her friend Bob") or a clause.
      const following = gap[np.next];
      const closes = following ? isPrep(following) || CLAUSE_BREAK.test(gap[np.next - 1].post) : broken || !b;
      if (!closes) continue;
      add({ subject: a.normalized, predicate: vp.predicate, object: np.words.join(' '), objectIsEntity: false });
    }

    const keys = [...new Set(ms.map((m) => m.normalized))].slice(0, maxCooccurring);
    for (let i = 0; i < keys.length; i++) {
      for (let j = i + 1; j < keys.length; j++) {
        if (linked.has(`${keys[i]}\u0000${keys[j]}`)) continue;
        add({ subject: keys[i], predicate: 'co_occurs', object: keys[j], objectIsEntity: true });
      }
    }
  }
  return [...out.values()];
}

/** Index after the last token of the sentence containing token i. */
function sentenceEnd(toks: Tok[], i: number): number {
  let k = i;
  while (k + 1 < toks.length && toks[k + 1].sent === toks[i].sent) k++;
  return k + 1;
}
