// Why a piece of a document is no fact: page furniture (navigation, badges, tables of contents,
// link lists, cookie and legal lines, calls to action), structure (headings alone, code, lead-ins
// to a list or code), and text too short, too symbolic or too long to stand alone. Each check
// returns the reason a preview shows with explain=true.
import { isImageOnly, links } from './markup.js';

export const DROP_REASONS = [
  'heading', 'navigation', 'badge', 'toc', 'link_list', 'cookie', 'legal', 'call_to_action', 'byline', 'code',
  'lead_in', 'question', 'fragment', 'symbols', 'too_long', 'duplicate', 'already_stored', 'over_limit',
] as const;
export type DropReason = (typeof DROP_REASONS)[number];

export const MIN_CHARS = 15;
export const MIN_WORDS = 3;
export const MAX_CHARS = 500;

const SEPARATORS = /\s[|»›•·⋅∙–—/]\s|\s\|\s?|\s?\|\s/g;
const TOC_HEADING = /^(?:table of contents|contents|toc|index|in this (?:article|document|page|guide|readme)|on this page|navigation|menu|quick links|jump to)$/i;

const FURNITURE_HEADING = /^(?:keyboard shortcuts|share (?:this(?: page| post| article)?|on \w+)|related (?:posts|articles|pages)|comments?|leave a (?:reply|comment)|follow us|subscribe|newsletter|cookie (?:settings|preferences|policy|notice)|site (?:map|navigation)|sitemap|footer|main menu|menu|search results?)$/i;

/** A section that is page furniture as a whole ("Keyboard shortcuts", "Share this", "Related posts"). */
export const isFurnitureHeading = (title: string | null) => !!title && FURNITURE_HEADING.test(title.trim().replace(/[:#*_]+$/g, '').trim());

/** A section titled as a table of contents, or a list of in-page anchors. */
export const isTocHeading = (title: string | null) => !!title && TOC_HEADING.test(title.trim().replace(/[:#*_]+$/g, '').trim());

/** Checks on the raw unit (markdown still in it): furniture made of links and images. */
export function furniture(raw: string, opts: { item: boolean; tocSection: boolean }): DropReason | null {
  const text = raw.trim();
  if (isImageOnly(text)) return 'badge';
  const l = links(text);
  const words = l.rest.replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
  if (l.count > 0) {
    if (opts.tocSection || (l.anchors > 0 && l.anchors === l.count && words.split(' ').filter(Boolean).length <= 3)) return 'toc';
    // Several links and little else: a navigation strip ("Docs · Blog · Discord").
    if (l.count >= 2 && words.split(' ').filter(Boolean).length <= l.count) return 'navigation';
    // One link and nothing of substance: an entry of a link list.
    if (words.split(' ').filter(Boolean).length <= 2) return 'link_list';
  }
  if (opts.tocSection && opts.item) return 'toc';
  // Words strung together by separators: "Home | Pricing | Blog | Contact".
  const seps = text.match(SEPARATORS)?.length ?? 0;
  if (seps >= 2) {
    const segs = text.split(SEPARATORS).map((s) => s.trim()).filter(Boolean);
    if (segs.length >= 3 && segs.every((s) => s.split(/\s+/).length <= 4 && !/[.!?]$/.test(s))) return 'navigation';
  }
  return null;
}

const LEGAL = new RegExp([
  '\\ball rights reserved\\b', '^\\s*(?:copyright|©|\\(c\\))', '©', '\\bpermission is hereby granted\\b',
  '\\bthe software is provided ["“]?as is\\b', '\\bwithout warranties or conditions of any kind\\b',
  '\\blicensed under the apache license\\b', '\\bin no event shall the\\b', '\\bthe above copyright notice\\b',
  '\\bterms (?:of (?:service|use)|and conditions)\\b.*\\b(?:apply|agree)\\b', '\\bagree to (?:our|the) (?:terms|privacy|use of)',
].join('|'), 'i');
const COOKIE = /\b(?:(?:use|uses|using|accept|allow|reject|decline|manage|set)(?: all| of| our| the)* cookies|cookie (?:policy|settings|preferences|consent|banner|notice)|(?:read|see|view|review) our (?:privacy|cookie) (?:policy|notice)|this (?:site|website) uses cookies)\b/i;
const FURNITURE_WORDS = new RegExp([
  '\\bskip to (?:main )?content\\b', '\\benable javascript\\b', '\\bjavascript (?:is )?(?:required|disabled)\\b', '\\bpowered by\\b',
  '\\b(?:previous|next) (?:post|article|page|chapter)\\b', '\\bloading\\.\\.\\.', '\\bjump to navigation\\b', '\\bbreadcrumb\\b',
  '\\bedit (?:this|on) (?:page|github)\\b', '\\bprint this page\\b', '\\bkeyboard shortcuts\\b',
].join('|'), 'i');
// Calls to action: furniture as a short line or when they lead it, ordinary words inside a statement.
const CALL_TO_ACTION = [
  'cookies?', 'accept all', 'privacy (?:policy|notice|settings)', 'terms (?:of|and) (?:service|use|conditions)', 'click here',
  'read more', 'subscribe', 'sign (?:up|in)', 'log ?in', 'newsletter', 'share (?:this|on)', 'follow us', 'back to top',
  'advertisement', 'table of contents', 'learn more', 'for more (?:information|details)', 'get started', 'download now',
  'try it (?:now|free)', 'contact us', 'star us', 'give us a star', 'buy me a coffee', 'sponsor',
].join('|');
const CTA_ANYWHERE = new RegExp(`\\b(?:${CALL_TO_ACTION})\\b`, 'i');
const CTA_LEADING = new RegExp(`^\\W*(?:${CALL_TO_ACTION})\\b`, 'i');
const CTA_MAX_WORDS = 5;
/** A pointer elsewhere: "See the documentation for more information.", "Head to the Getting Started." */
const POINTER = /^(?:please )?(?:see|check out|head (?:over )?to|refer to|go to|take a look at|have a look at|visit|read|explore|browse|find)\b(?:(?!\b(?:because|since|when|if)\b).){0,80}\b(?:for (?:more|details|further|an? |the |info)|documentation|docs|guide|page|section|branch|here|below|above|link|website|site|tutorial|examples?|demo|getting started|reference|faq|wiki|readme|changelog|discussions?|issues?)\b[^.!?]{0,40}[.!?]?$/i;

/** A changelog signature (" -- Name <mail>  date") or an attribution line ("Posted by … on …"). */
const BYLINE = /^(?:--\s+\S.*(?:[\w.+-]+@[\w-]+\.[\w.]+|\d{4} \d\d:\d\d)|(?:posted|written|published|last (?:updated|modified|edited)) (?:by|on)\b)/i;

/** Checks on one cleaned sentence or record. */
export interface SentenceContext {
  record?: boolean;
  maxChars?: number;
  /**
   * Words an unterminated unit needs to stand alone: 6 for prose, fewer for list items and
   * changelog entries, which are statements without a final period.
   */
  unterminatedWords?: number;
}

export function sentenceReason(s: string, ctx: SentenceContext = {}): DropReason | null {
  const record = ctx.record ?? false;
  if (s.length > (ctx.maxChars ?? MAX_CHARS)) return 'too_long';
  const words = s.split(/\s+/).filter((w) => /\p{L}/u.test(w));
  if (BYLINE.test(s)) return 'byline';
  const visible = s.replace(/\s/g, '');
  const letters = (s.match(/\p{L}/gu) ?? []).length;
  // A record's dates and numbers are its point; its column names carry the letters.
  if (visible.length === 0 || letters / visible.length < (record ? 0.2 : 0.5)) return 'symbols';
  if (LEGAL.test(s)) return 'legal';
  if (COOKIE.test(s)) return 'cookie';
  if (FURNITURE_WORDS.test(s)) return 'navigation';
  if (CTA_LEADING.test(s) || (words.length <= CTA_MAX_WORDS && CTA_ANYWHERE.test(s))) return 'call_to_action';
  if (words.length <= 16 && POINTER.test(s)) return 'navigation';
  if (s.length < MIN_CHARS || words.length < MIN_WORDS) return 'fragment';
  if (record) return null;
  if (/:\s*$/.test(s)) return 'lead_in';
  if (/\?\s*["”’)]*\s*$/.test(s)) return 'question';
  // A unit that does not end as a sentence and is short is a label or a fragment of one.
  if (!/[.!?。！？…]["'”’)\]]*$/.test(s) && words.length < (ctx.unterminatedWords ?? 6)) return 'fragment';
  return null;
}
