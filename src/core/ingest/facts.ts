// Extractive fact finding for ingest preview: text → candidate memories. Pure and
// deterministic (no model): sections and sentences are split by rule, boilerplate dropped,
// each sentence scored for salience and given a suggested memory type from cue words,
// near-duplicates removed. The client reviews the list before committing it.
import { createHash } from 'node:crypto';

export type SuggestedType =
  | 'fact'
  | 'decision'
  | 'preference'
  | 'task'
  | 'plan'
  | 'commitment'
  | 'episode'
  | 'intention'
  | 'action'
  | 'cancellation';

export interface ExtractedFact {
  content: string;
  suggested_type: SuggestedType;
  source_uri: string | null;
  salience: number;
}

export interface FactExtraction {
  facts: ExtractedFact[];
  sections: number;
}

export interface ExtractFactsOptions {
  /** Terms the caller cares about: sentences that mention them rank higher. */
  focus?: string;
  sourceUri?: string;
  maxFacts?: number;
}

export const DEFAULT_MAX_FACTS = 200;
const MIN_CHARS = 15;
const MIN_WORDS = 3;
const MAX_CHARS = 500;
const DUPLICATE_JACCARD = 0.85;

// ---------------------------------------------------------------------------------------------
// Hashing

/** The text as hashed: NFC, whitespace runs collapsed, trimmed. */
export function normaliseForHash(text: string): string {
  return text.normalize('NFC').replace(/\s+/g, ' ').trim();
}

/** sha256 (hex) of the normalised text: the same document hashes the same whatever its line ends. */
export function docHash(text: string): string {
  return createHash('sha256').update(normaliseForHash(text), 'utf8').digest('hex');
}

// ---------------------------------------------------------------------------------------------
// Sections and units

interface Unit {
  text: string;
  section: number;
  /** Index of the sentence within its section. */
  position: number;
  /** A table row or "key: value" record: a unit without sentence punctuation that still stands alone. */
  record: boolean;
}

const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const LIST_ITEM = /^\s*(?:[-*+•◦▪‣]|\d{1,3}[.)]|[a-z][.)])\s+/;
const FENCE = /^ {0,3}(```|~~~)/;
const TABLE_RULE = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;
const TERMINAL = /[.!?。！？…]["'”’)\]]*$/;

function cleanInline(s: string): string {
  return s
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '') // images
    .replace(/\[([^\]]+)\]\((?:[^)(]|\([^)]*\))*\)/g, '$1') // links → their text
    .replace(/<\/?[a-zA-Z][^>]*>/g, ' ') // stray tags
    .replace(/(\*\*|__)(?=\S)(.+?)(?<=\S)\1/g, '$2')
    .replace(/(^|[\s(])[*_](?=\S)([^*_]+?)(?<=\S)[*_](?=[\s).,;:!?]|$)/g, '$1$2')
    .replace(/`([^`]+)`/g, '$1')
    .replace(/^\s*>+\s?/, '')
    .replace(/\s+/g, ' ')
    .trim();
}

function tableRows(lines: string[]): string[] {
  const rows = lines
    .filter((l) => !TABLE_RULE.test(l))
    .map((l) => l.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((c) => cleanInline(c)));
  if (rows.length === 0) return [];
  const header = rows[0];
  const hasHeader = lines.length > 1 && TABLE_RULE.test(lines[1]) && header.length > 1;
  if (!hasHeader) return rows.map((r) => r.filter(Boolean).join(', '));
  return rows.slice(1).map((r) =>
    r
      .map((c, i) => (c ? `${header[i] || `column ${i + 1}`}: ${c}` : ''))
      .filter(Boolean)
      .join('; '),
  );
}

const isRecordLine = (l: string) => /\t/.test(l) || /^[^:;]{1,40}: [^;]+(; [^:;]{1,40}: [^;]+)+$/.test(l.trim());

/**
 * Splits text into sections (markdown headings; without headings, blank-line blocks) and
 * each section into paragraphs, list items and table rows. Hard-wrapped lines are joined;
 * a short unterminated line before a capitalised one is kept apart (a title or label).
 */
function splitBlocks(text: string): { blocks: Array<{ section: number; pieces: Array<{ text: string; record: boolean }> }>; sections: number } {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Array<{ section: number; pieces: Array<{ text: string; record: boolean }> }> = [];
  let section = 0;
  let sawHeading = false;
  let nonEmptyBlocks = 0;
  let sectionHasContent = false;
  let headedSections = 0;
  let current: string[] = [];
  let inFence = false;

  const flush = () => {
    if (current.length === 0) return;
    const pieces: Array<{ text: string; record: boolean }> = [];
    const nonBlank = current.filter((l) => l.trim() !== '');
    if (nonBlank.length > 0 && nonBlank.every((l) => l.trim().startsWith('|'))) {
      for (const row of tableRows(nonBlank)) pieces.push({ text: row, record: true });
    } else {
      // The paragraph's lines, joined on push: checks look at its length and last line only,
      // so a long unbroken paragraph costs linear time, not a re-scan per line.
      let para: string[] = [];
      let paraLength = 0;
      const push = () => {
        const text = para.join(' ');
        if (text.trim()) pieces.push({ text: cleanInline(text), record: false });
        para = [];
        paraLength = 0;
      };
      const add = (line: string) => {
        paraLength += (para.length > 0 ? 1 : 0) + line.length;
        para.push(line);
      };
      for (const raw of current) {
        const line = raw.trim();
        if (!line) continue;
        if (LIST_ITEM.test(line)) {
          push();
          add(line.replace(LIST_ITEM, ''));
          continue;
        }
        if (isRecordLine(line)) {
          push();
          pieces.push({ text: cleanInline(line.replace(/\t+/g, ', ')), record: true });
          continue;
        }
        if (para.length > 0) {
          const last = para[para.length - 1];
          // A short unterminated line before a capitalised one is a title or label.
          const standalone = paraLength < 40 && !TERMINAL.test(para.join(' ')) && /^[\p{Lu}\d"“]/u.test(line);
          if (standalone) push();
          else if (/[\p{L}]-$/u.test(last) && /^\p{Ll}/u.test(line)) {
            // A word hyphenated across a line break.
            para[para.length - 1] = last.slice(0, -1) + line;
            paraLength += line.length - 1;
            continue;
          }
        }
        add(line);
      }
      push();
    }
    if (pieces.length > 0) {
      blocks.push({ section, pieces });
      nonEmptyBlocks++;
      if (!sectionHasContent) {
        sectionHasContent = true;
        headedSections++;
      }
    }
    current = [];
  };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (FENCE.test(line)) {
      // Code is not prose: fenced blocks are skipped.
      flush();
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    const heading = HEADING.exec(line);
    const setext = !heading && i + 1 < lines.length && line.trim() !== '' && current.length === 0 && SETEXT.test(lines[i + 1]);
    if (heading || setext) {
      flush();
      sawHeading = true;
      section++;
      sectionHasContent = false;
      if (setext) i++;
      continue;
    }
    if (line.trim() === '') {
      flush();
      if (!sawHeading) section++;
      continue;
    }
    current.push(line);
  }
  flush();
  return { blocks, sections: sawHeading ? headedSections : nonEmptyBlocks };
}

// ---------------------------------------------------------------------------------------------
// Sentences

const ABBREVIATIONS = new Set(
  (
    'mr mrs ms dr prof sr jr st mt ft vs etc e.g i.e cf al approx dept est fig figs inc ltd co corp llc plc no nos vol ' +
    'pp p ch sec art ed eds rev gen col lt sgt capt cmdr adm gov sen rep jan feb mar apr jun jul aug sep sept oct nov dec ' +
    'mon tue tues wed thu thur thurs fri sat sun u.s u.k e.u a.m p.m ph.d b.a m.a b.sc m.sc resp incl excl min max avg ' +
    'misc nr tel ave blvd rd hr hrs mins sec secs'
  ).split(' '),
);

/**
 * Sentence boundaries: terminal punctuation followed by space and a capital, digit or quote.
 * Not after abbreviations (e.g., Dr.), initials (J. Smith), or inside decimals, URLs and
 * e-mail addresses (no space follows their dots).
 */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  const re = /([.!?…]+|[。！？]+)(["'”’)\]]*)(\s+)(?=["'“‘(\[]?[\p{Lu}\p{Lt}\d])|([。！？]+)/gu;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    const punct = m[1] ?? m[4] ?? '';
    const end = m.index + punct.length + (m[2]?.length ?? 0);
    if (punct === '.') {
      const before = text.slice(start, m.index);
      const word = /([\p{L}.]+)$/u.exec(before)?.[1] ?? '';
      const lower = word.toLowerCase();
      if (ABBREVIATIONS.has(lower) || ABBREVIATIONS.has(lower.replace(/\.$/, ''))) continue;
      // A single capital letter is an initial ("J. Smith"); dotted acronyms ("U.S.") likewise.
      if (/^\p{Lu}$/u.test(word) || /^(\p{L}\.)+\p{L}$/u.test(word)) continue;
    }
    const sentence = text.slice(start, end).trim();
    if (sentence) out.push(sentence);
    start = end;
  }
  const rest = text.slice(start).trim();
  if (rest) out.push(rest);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Boilerplate

// Page furniture that is never content, wherever it appears.
const BOILERPLATE = new RegExp(
  [
    '\\ball rights reserved\\b',
    '^\\s*(copyright|©|\\(c\\))',
    '©',
    '\\bskip to (main )?content\\b',
    '\\benable javascript\\b',
    '\\bjavascript (is )?(required|disabled)\\b',
    '\\bpowered by\\b',
    '\\b(previous|next) (post|article|page)\\b',
    '\\bloading\\.\\.\\.',
    '\\bjump to navigation\\b',
    '\\bbreadcrumb\\b',
    '\\b(use|uses|using|accept|allow|reject|decline)( all| of| our| the)* cookies\\b',
    '\\bcookie (policy|settings|preferences|consent|banner|notice)\\b',
    '\\b(read|see|view|review) our (privacy|cookie|terms)',
    '\\bagree to (our|the) (terms|privacy|use of)',
  ].join('|'),
  'i',
);

// Calls to action ("Sign in", "Read more"): boilerplate as a short line or when they lead the
// sentence, but ordinary words inside a real statement ("Visitors must sign in at the desk").
const CALL_TO_ACTION = [
  'cookies?', 'accept all', 'privacy (policy|notice|settings)', 'terms (of|and) (service|use|conditions)', 'click here',
  'read more', 'subscribe', 'sign (up|in)', 'log ?in', 'newsletter', 'share (this|on)', 'follow us', 'back to top',
  'advertisement', 'table of contents', 'learn more', 'for more (information|details)',
].join('|');
const CTA_ANYWHERE = new RegExp(`\\b(${CALL_TO_ACTION})\\b`, 'i');
const CTA_LEADING = new RegExp(`^\\W*(${CALL_TO_ACTION})\\b`, 'i');
/** Up to this many words, a unit holding a call to action is taken for one. */
const CTA_MAX_WORDS = 5;

function isBoilerplate(s: string): boolean {
  if (s.length < MIN_CHARS || s.length > MAX_CHARS) return true;
  const words = s.split(/\s+/).filter((w) => /\p{L}/u.test(w));
  if (words.length < MIN_WORDS) return true;
  const visible = s.replace(/\s/g, '');
  const letters = (s.match(/\p{L}/gu) ?? []).length;
  // Mostly digits, symbols or punctuation: tables of numbers, separators, code.
  if (letters / visible.length < 0.5) return true;
  if (BOILERPLATE.test(s)) return true;
  if (CTA_LEADING.test(s) || (words.length <= CTA_MAX_WORDS && CTA_ANYWHERE.test(s))) return true;
  // Navigation strips: "Home | About | Blog", "Prev » Next".
  if ((s.match(/\s[|»›•·]\s/g) ?? []).length >= 2) return true;
  return false;
}

// ---------------------------------------------------------------------------------------------
// Types

const MONTHS = 'jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?';
const DATE = new RegExp(
  [
    `\\b(?:${MONTHS})\\.? \\d{1,2}(?:st|nd|rd|th)?\\b`,
    `\\b\\d{1,2}(?:st|nd|rd|th)? (?:${MONTHS})\\b`,
    `\\b(?:in|on|since|during|by|until|from) (?:early |late |mid-)?(?:${MONTHS})\\b`,
    `\\b(?:${MONTHS}) (?:19|20)\\d{2}\\b`,
    '\\b(?:19|20)\\d{2}-\\d{2}-\\d{2}\\b',
    '\\b\\d{1,2}/\\d{1,2}/(?:19|20)?\\d{2}\\b',
    '\\b(?:in|since|during|by|until|from|of) (?:19|20)\\d{2}\\b',
    '\\b(?:yesterday|today|tomorrow|last (?:week|month|year|night|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday))\\b',
    '\\b(?:Q[1-4]|H[12]) (?:19|20)\\d{2}\\b',
  ].join('|'),
  'i',
);
const YEAR = /\b(?:1[89]|20)\d{2}\b/;

const PAST_VERB =
  /\b(?:was|were|had|did|went|met|began|came|took|made|held|gave|got|left|won|lost|sold|bought|built|wrote|ran|saw|found|told|said|became|moved|launched|started|finished|completed|opened|closed|joined|founded|released|shipped|signed|hired|fired|visited|attended|announced|acquired|merged|migrated|deployed|happened|occurred|\w{3,}ed)\b/i;

const CUES: Array<[SuggestedType, RegExp]> = [
  ['cancellation', /\b(?:cancel(?:l)?ed|cancel(?:l)?ation|called off|scrapped|abandoned|rescinded|withdr[ae]wn?|no longer (?:going|planning|happening|needed)|(?:won't|will not) (?:go ahead|happen|take place))\b/i],
  ['decision', /\b(?:decided|decision (?:was|has been|is) (?:made|taken)|(?:we|they|i|team|board|committee|management) (?:have |has |had )?(?:agreed|chose|chosen|opted|resolved|settled on|concluded)|it was agreed|going forward we)\b/i],
  ['commitment', /\b(?:promised?|promises|committed to|commits? to|pledged?|vowed|guaranteed?|undertakes? to|(?:i|we) will make sure|(?:i|we)'ll make sure)\b/i],
  ['task', /\bTODO\b|\bto-do\b|\baction item\b|\b(?:must|needs? to|has to|have to|required to|is required|are required|deadline|due (?:by|on))\b/i],
  ['preference', /\b(?:prefers?|preferred|preference|likes|loves|enjoys|dislikes|hates|favou?rite|would rather|rather than|is fond of|can't stand)\b/i],
  ['intention', /\b(?:intends? to|intention|aims? to|wants? to|hopes? to|(?:am|is|are) going to|would like to|wish(?:es)? to)\b/i],
  ['plan', /\b(?:plans? to|planned|planning to|will|shall|scheduled (?:for|to)|roadmap|is set to|upcoming|next (?:week|month|quarter|year|sprint))\b/i],
];

const ACTOR_PAST = /^(?:i|we|he|she|they|you|the team|our team|[A-Z][a-z]+)\s+(?:\w+ly\s+)?(?:\w{2,}ed|went|made|took|wrote|built|sent|ran|met|gave|sold|bought|set up|spoke|told|found|began)\b/;

export function classify(sentence: string): SuggestedType {
  for (const [type, re] of CUES) if (re.test(sentence)) return type;
  if (PAST_VERB.test(sentence) && (DATE.test(sentence) || YEAR.test(sentence))) return 'episode';
  if (ACTOR_PAST.test(sentence)) return 'action';
  return 'fact';
}

// ---------------------------------------------------------------------------------------------
// Salience

const STOPWORDS = new Set(
  (
    'a an and are as at be been but by for from has have he her his i in is it its of on or our she that the their them ' +
    'they this to was we were will with you your what which who whom how when where why about into than then there these ' +
    'those also can could would should may might do does did not no so if'
  ).split(' '),
);
const DEFINITIONAL = /\b(?:is an?|are an?|is the|are the|means|refers to|is defined as|defined as|consists of|stands for|is known as|is called|is located|was founded|is based|is responsible for|is used (?:to|for))\b/i;
const HEDGE = /\b(?:maybe|perhaps|might|possibly|probably|i think|i guess|sort of|kind of)\b/i;

function tokens(s: string): string[] {
  return s.toLowerCase().match(/[\p{L}\p{N}]+(?:['’.-][\p{L}\p{N}]+)*/gu) ?? [];
}

function focusTerms(focus?: string): string[] {
  if (!focus) return [];
  return [...new Set(tokens(focus).filter((t) => t.length >= 3 && !STOPWORDS.has(t)))];
}

function salience(s: string, type: SuggestedType, position: number, focus: string[]): number {
  let score = 0.3;
  if (/\d/.test(s)) score += 0.1;
  if (/\d\s?%|[$€£¥]\s?\d|\d\s?(?:percent|usd|eur|gbp|k|m|bn|ms|gb|mb|tb)\b/i.test(s)) score += 0.05;
  if (DATE.test(s) || YEAR.test(s)) score += 0.1;
  // Capitalised words after the first: names of people, places, products.
  const names = (s.slice(1).match(/(?<![.!?]\s)\b\p{Lu}[\p{Ll}\p{Lu}\d]+/gu) ?? []).length;
  score += Math.min(names, 3) * 0.05;
  if (/\b[A-Z]{2,}[0-9]*\b/.test(s)) score += 0.05;
  if (DEFINITIONAL.test(s)) score += 0.1;
  if (type !== 'fact') score += 0.1;
  if (position === 0) score += 0.1;
  else if (position === 1) score += 0.05;
  if (s.length >= 40 && s.length <= 220) score += 0.05;
  else if (s.length < 30 || s.length > 320) score -= 0.1;
  if (/\?\s*$/.test(s)) score -= 0.15;
  if (HEDGE.test(s)) score -= 0.05;
  if (focus.length > 0) {
    const have = new Set(tokens(s));
    // Prefix match so "migrate" finds "migration".
    const hits = focus.filter((f) => have.has(f) || [...have].some((t) => t.length >= 4 && (t.startsWith(f) || f.startsWith(t)))).length;
    if (hits > 0) score += 0.35 * (hits / focus.length) + 0.1;
    else score *= 0.8;
  }
  return Math.round(Math.min(1, Math.max(0, score)) * 1000) / 1000;
}

// ---------------------------------------------------------------------------------------------
// Near-duplicate removal (Jaccard on token sets, with a prefix filter so long documents stay fast)

/** Words for duplicate detection: hyphens and apostrophes split, so "two-week" equals "two week". */
function dupTokens(s: string): string[] {
  return s.normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * All-pairs Jaccard ≥ DUPLICATE_JACCARD with a prefix filter and a positional filter (PPJoin,
 * Xiao et al. 2008): in one global token order (rarest first), two such sets share a token in
 * their first n − ⌈t·n⌉ + 1 tokens, and where they first share one, what follows bounds the
 * overlap. Sentences built on one template (report lines, log lines) share many common tokens;
 * without the positional bound each would be compared with hundreds of others in full.
 */
class NearDuplicates {
  /** token → entries whose prefix holds it, with the token's position in that entry's order. */
  private readonly index = new Map<string, Array<{ id: number; pos: number }>>();
  private readonly sets: Array<Set<string>> = [];
  constructor(private readonly rarity: Map<string, number>) {}

  private static prefixLength(n: number): number {
    return n - Math.ceil(DUPLICATE_JACCARD * n) + 1;
  }

  private order(set: Set<string>): string[] {
    return [...set].sort((a, b) => (this.rarity.get(a) ?? 0) - (this.rarity.get(b) ?? 0) || (a < b ? -1 : a > b ? 1 : 0));
  }

  /** Id of a stored set this one nearly duplicates, or -1 after storing it under a new id (dense, from 0). */
  findOrAdd(set: Set<string>): number {
    const sorted = this.order(set);
    const n = sorted.length;
    const prefix = NearDuplicates.prefixLength(n);
    // Overlap found so far in the prefixes, per candidate; -1 marks a candidate ruled out.
    const overlap = new Map<number, number>();
    for (let i = 0; i < prefix; i++) {
      for (const { id, pos } of this.index.get(sorted[i]) ?? []) {
        const seen = overlap.get(id) ?? 0;
        if (seen < 0) continue;
        const m = this.sets[id].size;
        if (Math.min(m, n) < DUPLICATE_JACCARD * Math.max(m, n)) {
          overlap.set(id, -1);
          continue;
        }
        // Jaccard ≥ t ⇔ overlap ≥ t/(1+t)·(n+m); after this shared token at most min(rest of each) more can follow.
        const needed = Math.ceil((DUPLICATE_JACCARD / (1 + DUPLICATE_JACCARD)) * (n + m) - 1e-9);
        overlap.set(id, seen + 1 + Math.min(n - i - 1, m - pos - 1) >= needed ? seen + 1 : -1);
      }
    }
    for (const [id, seen] of overlap) {
      if (seen <= 0) continue;
      const other = this.sets[id];
      let inter = 0;
      for (const x of set) if (other.has(x)) inter++;
      if (inter / (n + other.size - inter) >= DUPLICATE_JACCARD) return id;
    }
    const id = this.sets.length;
    this.sets.push(set);
    for (let pos = 0; pos < prefix; pos++) {
      const list = this.index.get(sorted[pos]);
      if (list) list.push({ id, pos });
      else this.index.set(sorted[pos], [{ id, pos }]);
    }
    return -1;
  }
}

// ---------------------------------------------------------------------------------------------

function units(text: string): { units: Unit[]; sections: number } {
  const { blocks, sections } = splitBlocks(text);
  const out: Unit[] = [];
  const positions = new Map<number, number>();
  for (const block of blocks) {
    for (const piece of block.pieces) {
      const sentences = piece.record ? [piece.text] : splitSentences(piece.text);
      for (let s of sentences) {
        s = s.replace(/^["'“‘]\s*(?=.*[^"'”’]$)/u, '').trim();
        const parts = s.length > MAX_CHARS ? s.split(/;\s+/) : [s];
        for (const p of parts) {
          const position = positions.get(block.section) ?? 0;
          positions.set(block.section, position + 1);
          out.push({ text: p.trim(), section: block.section, position, record: piece.record });
        }
      }
    }
  }
  return { units: out, sections };
}

/** Number of sections of a text, as `extractFacts` counts them (headings, else blank-line blocks). */
export function countSections(text: string): number {
  return splitBlocks(text.normalize('NFC')).sections;
}

/**
 * Drops exact and near-duplicate facts (the first wording is kept, with the strongest salience
 * of its repeats) and keeps at most `maxFacts`, chosen by salience, in order of appearance.
 * Shared by the rule-based extractor and the LLM path.
 */
export function dedupeFacts(
  facts: readonly ExtractedFact[], maxFacts = DEFAULT_MAX_FACTS, opts: { exactOnly?: (index: number) => boolean } = {},
): ExtractedFact[] {
  const tokenSets = facts.map((f) => new Set(dupTokens(f.content)));
  // Global token rarity for the prefix filter.
  const rarity = new Map<string, number>();
  for (const set of tokenSets) for (const t of set) rarity.set(t, (rarity.get(t) ?? 0) + 1);

  const exact = new Map<string, number>();
  const near = new NearDuplicates(rarity);
  /** Kept fact of each set stored in `near` (records are kept without being stored). */
  const keptOfNear: number[] = [];
  const kept: Array<ExtractedFact & { order: number }> = [];
  facts.forEach((f, i) => {
    const key = dupTokens(f.content).join(' ');
    if (!key) return;
    let dup = exact.get(key) ?? -1;
    if (dup < 0 && !opts.exactOnly?.(i)) {
      const nearId = near.findOrAdd(tokenSets[i]);
      if (nearId >= 0) dup = keptOfNear[nearId];
      else keptOfNear.push(kept.length);
    }
    if (dup >= 0) {
      // Keep the first wording, but let a repeated point count for its stronger mention.
      kept[dup].salience = Math.max(kept[dup].salience, f.salience);
      return;
    }
    exact.set(key, kept.length);
    kept.push({ ...f, order: kept.length });
  });

  const limit = Math.max(0, maxFacts);
  let chosen = kept;
  if (kept.length > limit) {
    chosen = [...kept].sort((a, b) => b.salience - a.salience || a.order - b.order).slice(0, limit).sort((a, b) => a.order - b.order);
  }
  return chosen.map(({ order: _order, ...f }) => f);
}

/**
 * Candidate facts of a document, in order of appearance: at most `maxFacts` (default 200),
 * chosen by salience when there are more.
 */
export function extractFacts(text: string, opts: ExtractFactsOptions = {}): FactExtraction {
  const focus = focusTerms(opts.focus);
  const { units: all, sections } = units(text.normalize('NFC'));
  const candidates = all.filter((u) => !isBoilerplate(u.text) && (u.record || TERMINAL.test(u.text) || u.text.split(/\s+/).length >= 6));
  const facts = candidates.map((u): ExtractedFact => {
    const type = classify(u.text);
    return { content: u.text, suggested_type: type, source_uri: opts.sourceUri ?? null, salience: salience(u.text, type, u.position, focus) };
  });
  // Table rows differing in one cell are different records: only exact repeats of them are dropped.
  return { facts: dedupeFacts(facts, opts.maxFacts ?? DEFAULT_MAX_FACTS, { exactOnly: (i) => candidates[i].record }), sections };
}

/** Salience of one fact found elsewhere (the LLM path) when it gives none: the rule-based score. */
export function ruleSalience(content: string, type: SuggestedType, focus?: string): number {
  // Its place in the document is unknown: no lead-sentence bonus.
  return salience(content, type, Number.POSITIVE_INFINITY, focusTerms(focus));
}
