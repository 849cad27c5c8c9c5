// Extractive fact finding for ingest preview: text → candidate memories a person would keep.
// Pure and deterministic (no model). The text is normalised first (HTML and entities, blockquote
// markers, link definitions: markup.ts), split into sections and units (paragraphs, list items,
// table rows) with hard wraps and hyphenation joined, and page furniture and structure dropped
// with a reason (boilerplate.ts). Short list items are merged with their lead-in into one
// statement; a sentence opening with "It" names its subject where that is clear (subject.ts).
// Each fact is typed and titled by the same rules as a write (src/core/enrich), scored for
// salience, and near-duplicates are removed. The client reviews the list before committing it.
import { createHash } from 'node:crypto';
import { classifyType } from '../enrich/classify.js';
import { deriveTitle } from '../enrich/title.js';
import type { InferredType } from '../enrich/types.js';
import { DROP_REASONS, furniture, isFurnitureHeading, isTocHeading, MAX_CHARS, sentenceReason, type DropReason } from './boilerplate.js';
import { cleanInline, htmlToText } from './markup.js';
import {
  changelogSection, markPlainStructure, SECTION_SEPARATOR, splitPieces, TERMINAL, type Piece, type Section,
} from './structure.js';
import { definedSubject, nameLike, resolveSubject } from './subject.js';

export type SuggestedType = InferredType;
export { DROP_REASONS, type DropReason };

export interface ExtractedFact {
  content: string;
  suggested_type: SuggestedType;
  /** A short label (src/core/enrich/title.ts). */
  title: string;
  source_uri: string | null;
  salience: number;
  /** Headings above the fact, outermost first ("Fastify › Core features"); null before any heading. */
  section: string | null;
}

/** A unit that did not become a fact, and why (preview with explain=true). */
export interface DroppedUnit {
  text: string;
  reason: DropReason;
  section: string | null;
}

export interface FactExtraction {
  facts: ExtractedFact[];
  sections: number;
  /** Only with `explain`: what was dropped, in document order (at most MAX_DROPPED listed). */
  dropped?: DroppedUnit[];
  /** Only with `explain`: how many units each reason dropped (all of them, listed or not). */
  dropped_counts?: Partial<Record<DropReason, number>>;
}

export interface ExtractFactsOptions {
  /** Terms the caller cares about: sentences that mention them rank higher. */
  focus?: string;
  sourceUri?: string;
  maxFacts?: number;
  /** Report the dropped units and why. */
  explain?: boolean;
  /** The document's own title (HTML <title>, document properties): a subject for "It …" sentences. */
  title?: string | null;
}

export const DEFAULT_MAX_FACTS = 200;
/** Dropped units listed by explain; the counts cover all of them. */
export const MAX_DROPPED = 1000;
const DUPLICATE_JACCARD = 0.85;
/** List items up to this many words, without a sentence end, are fragments merged with their lead-in. */
const FRAGMENT_ITEM_WORDS = 20;
/** Items of a list without a lead-in are merged under its heading only when they are this short. */
const HEADED_ITEM_WORDS = 8;
/** A lead-in with its list may make a longer statement than one sentence. */
const MERGED_MAX_CHARS = 1000;
const DROPPED_TEXT_CHARS = 200;

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
// Salience

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
// Units: the statements that may become facts

interface Unit {
  text: string;
  section: number;
  /** Index of the statement within its section. */
  position: number;
  /** A table row or "key: value" record: stands alone without sentence punctuation. */
  record: boolean;
}

interface Walk {
  units: Unit[];
  sections: Section[];
  count: number;
  dropped: DroppedUnit[];
  counts: Map<DropReason, number>;
}

const clip = (s: string) => (s.length > DROPPED_TEXT_CHARS ? `${s.slice(0, DROPPED_TEXT_CHARS - 1)}…` : s);

/** The document's subject: its first top heading when name-like, its title, or the first "<Name> is a …". */
function documentSubject(pieces: Piece[], sections: Section[], title: string | null | undefined): string | null {
  const firstHeading = pieces.find((p) => p.kind === 'heading');
  if (firstHeading && !sections[firstHeading.section].path?.includes(SECTION_SEPARATOR)) {
    const n = nameLike(firstHeading.raw);
    if (n) return n;
  }
  const t = nameLike(title);
  if (t) return t;
  for (const p of pieces) {
    if (p.kind !== 'para') continue;
    const s = definedSubject(cleanInline(p.raw));
    if (s) return s;
  }
  return null;
}

function walk(text: string, opts: ExtractFactsOptions): Walk {
  const { pieces, sections, count } = splitPieces(markPlainStructure(htmlToText(text.normalize('NFC'))));
  const units: Unit[] = [];
  const dropped: DroppedUnit[] = [];
  const counts = new Map<DropReason, number>();
  const positions = new Map<number, number>();
  const docSubject = documentSubject(pieces, sections, opts.title);
  let subject = docSubject;
  let subjectSection = -1;

  const drop = (t: string, reason: DropReason, section: number) => {
    counts.set(reason, (counts.get(reason) ?? 0) + 1);
    if (opts.explain && dropped.length < MAX_DROPPED && t.trim()) dropped.push({ text: clip(t.trim()), reason, section: sections[section]?.path ?? null });
  };
  const emit = (t: string, section: number, record: boolean) => {
    const position = positions.get(section) ?? 0;
    positions.set(section, position + 1);
    units.push({ text: t, section, position, record });
  };
  /** A paragraph, item or record: split into sentences, each checked and made self-contained. */
  const statements = (t: string, section: number, kind: 'para' | 'item' | 'record', leadInAllowed: boolean, whole = false): string | null => {
    const record = kind === 'record';
    const unterminatedWords = kind === 'item' || changelogSection(sections, section) ? 3 : 6;
    if (section !== subjectSection) {
      subject = docSubject;
      subjectSection = section;
    }
    const sentences = record || whole ? [t] : splitSentences(t);
    const max = whole ? MERGED_MAX_CHARS : MAX_CHARS;
    let leadIn: string | null = null;
    sentences.forEach((s0, i) => {
      const s1 = s0.replace(/^["'“‘]\s*(?=.*[^"'”’]$)/u, '').trim();
      for (const s of s1.length > max ? s1.split(/;\s+/) : [s1]) {
        const reason = sentenceReason(s, { record, maxChars: max, unterminatedWords });
        if (reason === 'lead_in' && leadInAllowed && i === sentences.length - 1) {
          leadIn = s;
          continue;
        }
        if (reason) {
          drop(s, reason, section);
          continue;
        }
        const defined = definedSubject(s);
        emit(resolveSubject(s, subject), section, record);
        if (defined) subject = defined;
      }
    });
    return leadIn;
  };

  let pendingLeadIn: { text: string; section: number } | null = null;
  const settleLeadIn = () => {
    if (pendingLeadIn) drop(pendingLeadIn.text, 'lead_in', pendingLeadIn.section);
    pendingLeadIn = null;
  };

  for (let i = 0; i < pieces.length; i++) {
    const p = pieces[i];
    const sec = sections[p.section];
    if (p.kind === 'heading' || p.kind === 'code') {
      settleLeadIn();
      drop(p.raw, p.kind, p.section);
      continue;
    }
    const toc = isTocHeading(sec.title);
    const reason = isFurnitureHeading(sec.title) ? 'navigation' : furniture(p.raw, { item: p.kind === 'item', tocSection: toc });
    if (reason) {
      drop(cleanInline(p.raw) || p.raw, reason, p.section);
      continue;
    }
    if (p.kind === 'item') {
      // The whole list: merged into one statement when its items are fragments with a lead-in.
      const group: Piece[] = [p];
      while (i + 1 < pieces.length && pieces[i + 1].kind === 'item' && pieces[i + 1].list === p.list) {
        const next = pieces[i + 1];
        const r = furniture(next.raw, { item: true, tocSection: toc });
        i++;
        if (r) drop(cleanInline(next.raw) || next.raw, r, next.section);
        else group.push(next);
      }
      const items = group.map((g) => cleanInline(g.raw)).filter(Boolean);
      // Items that are no sentences ("Type of issue", "Fast and small") say something only with their lead.
      const fragments = items.every((t) => t.split(/\s+/).length <= FRAGMENT_ITEM_WORDS && !TERMINAL.test(t.replace(/\s*\([^()]*\)$/, '')));
      // Without a lead-in, a list of short labels ("Fast", "Small footprint") takes its heading as one.
      const lead = pendingLeadIn?.section === p.section
        ? pendingLeadIn.text.replace(/:\s*$/, '')
        : items.every((t) => t.split(/\s+/).length <= HEADED_ITEM_WORDS) && !changelogSection(sections, p.section) ? headedLead(sec.title, docSubject) : null;
      const merged = lead && items.length >= 2 && fragments ? `${lead}: ${items.map((t) => t.replace(/[;,]\s*$/, '')).join('; ')}.` : null;
      if (merged && merged.length <= MERGED_MAX_CHARS) {
        pendingLeadIn = null;
        statements(merged, p.section, 'para', false, true);
      } else {
        // A lead-in to a list of whole statements is a statement itself ("Rust provides three tiers …").
        const held = pendingLeadIn as { text: string; section: number } | null;
        pendingLeadIn = null;
        if (held && held.section === p.section && held.text.split(/\s+/).length >= 6 && !/^(?:to|for example|e\.g\.|example)\b/i.test(held.text)) {
          statements(`${held.text.replace(/:\s*$/, '')}.`, held.section, 'para', false, true);
        } else if (held) drop(held.text, 'lead_in', held.section);
        for (const t of items) statements(t, p.section, 'item', false);
      }
      continue;
    }
    settleLeadIn();
    const leadIn = statements(cleanInline(p.raw), p.section, p.kind === 'record' ? 'record' : 'para', p.kind === 'para');
    if (leadIn) pendingLeadIn = { text: leadIn, section: p.section };
  }
  settleLeadIn();
  return { units, sections, count, dropped, counts };
}

/** Number of sections of a text, as `extractFacts` counts them (headings, else blank-line blocks). */
export function countSections(text: string): number {
  return splitPieces(markPlainStructure(htmlToText(text.normalize('NFC')))).count;
}

/**
 * Drops exact and near-duplicate facts (the first wording is kept, with the strongest salience
 * of its repeats) and keeps at most `maxFacts`, chosen by salience, in order of appearance.
 * Shared by the rule-based extractor and the LLM path.
 */
export function dedupeFacts(
  facts: readonly ExtractedFact[], maxFacts = DEFAULT_MAX_FACTS,
  opts: { exactOnly?: (index: number) => boolean; onDrop?: (fact: ExtractedFact, reason: 'duplicate' | 'over_limit') => void } = {},
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
      opts.onDrop?.(f, 'duplicate');
      return;
    }
    exact.set(key, kept.length);
    kept.push({ ...f, order: kept.length });
  });

  const limit = Math.max(0, maxFacts);
  let chosen = kept;
  if (kept.length > limit) {
    const ranked = [...kept].sort((a, b) => b.salience - a.salience || a.order - b.order);
    for (const f of ranked.slice(limit)) opts.onDrop?.(f, 'over_limit');
    chosen = ranked.slice(0, limit).sort((a, b) => a.order - b.order);
  }
  return chosen.map(({ order: _order, ...f }) => f);
}

/** A heading as the lead of its list: "Features" of Zod reads "Zod features". */
function headedLead(title: string | null, subject: string | null): string | null {
  if (!title) return null;
  if (!subject || title.toLowerCase().includes(subject.toLowerCase()) || nameLike(title)) return title;
  return `${subject} ${/^\p{Lu}\p{Ll}/u.test(title) ? title.charAt(0).toLowerCase() + title.slice(1) : title}`;
}

/** A record's title: its first values ("Ana Lopez – database lead"), not its column names. */
function recordTitle(text: string): string | null {
  const values = text.split(/;\s+/).map((kv) => kv.replace(/^[^:]{1,40}:\s*/, '').trim()).filter(Boolean);
  return deriveTitle(values.slice(0, 2).join(' – ') || text);
}

/** A fact built from a statement found elsewhere (the LLM path): typed, titled and scored by the rules where it lacks them. */
export function factOf(
  content: string, opts: { type?: SuggestedType; title?: string; salience?: number; section?: string | null; sourceUri?: string | null; focus?: string },
): ExtractedFact {
  const type = opts.type ?? classifyType(content).type;
  const s = opts.salience ?? salience(content, type, Number.POSITIVE_INFINITY, focusTerms(opts.focus));
  return {
    content, suggested_type: type, title: opts.title ?? deriveTitle(content) ?? content.slice(0, 80),
    source_uri: opts.sourceUri ?? null, salience: Math.round(Math.min(1, Math.max(0, s)) * 1000) / 1000, section: opts.section ?? null,
  };
}

/**
 * Candidate facts of a document, in order of appearance: at most `maxFacts` (default 200),
 * chosen by salience when there are more. With `explain`, also what was dropped and why.
 */
export function extractFacts(text: string, opts: ExtractFactsOptions = {}): FactExtraction {
  const focus = focusTerms(opts.focus);
  const w = walk(text, opts);
  // Repeated statements are typed and titled once.
  const labels = new Map<string, { type: SuggestedType; title: string }>();
  const facts = w.units.map((u): ExtractedFact => {
    const changelog = changelogSection(w.sections, u.section);
    const key = `${changelog ? 1 : 0}${u.record ? 1 : 0}${u.text}`;
    let label = labels.get(key);
    if (!label) {
      label = {
        type: classifyType(u.text, { changelog }).type,
        title: (u.record ? recordTitle(u.text) : deriveTitle(u.text)) ?? u.text.slice(0, 80),
      };
      labels.set(key, label);
    }
    const type = label.type;
    return {
      content: u.text,
      suggested_type: type,
      title: label.title,
      source_uri: opts.sourceUri ?? null,
      salience: salience(u.text, type, u.position, focus),
      section: w.sections[u.section]?.path ?? null,
    };
  });
  const onDrop = (f: ExtractedFact, reason: DropReason) => {
    w.counts.set(reason, (w.counts.get(reason) ?? 0) + 1);
    if (opts.explain && w.dropped.length < MAX_DROPPED) w.dropped.push({ text: clip(f.content), reason, section: f.section });
  };
  // Table rows differing in one cell are different records: only exact repeats of them are dropped.
  const kept = dedupeFacts(facts, opts.maxFacts ?? DEFAULT_MAX_FACTS, { exactOnly: (i) => w.units[i].record, onDrop });
  if (!opts.explain) return { facts: kept, sections: w.count };
  return { facts: kept, sections: w.count, dropped: w.dropped, dropped_counts: Object.fromEntries(w.counts) };
}

/** Salience of one fact found elsewhere (the LLM path) when it gives none: the rule-based score. */
export function ruleSalience(content: string, type: SuggestedType, focus?: string): number {
  // Its place in the document is unknown: no lead-sentence bonus.
  return salience(content, type, Number.POSITIVE_INFINITY, focusTerms(focus));
}
