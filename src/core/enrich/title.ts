// A short title for a memory, by rule: its first sentence or clause, without chatter, markup or
// final punctuation, at most TITLE_MAX_CHARS, cut at a word boundary. A title is a label for
// lists and recall results, not a summary: the content stays the source of truth.
import { TITLE_MAX_CHARS } from './types.js';

/** Leading words that carry nothing a title needs. */
const CHATTER = /^(?:(?:yeah|yep|yes|no|wow|oh|ah|haha|hey|hi|well|so|also|plus|and|but|ok(?:ay)?|cool|great|nice|hmm+|anyway|actually|honestly|btw|by the way|on a different note|fyi|update|re)\b\s*[,!:.—–-]?\s+|(?:note|nb|tip|warning|important)\s*[!:.—–-]\s*(?:[A-Z][a-z]+[,!]\s+)?)+/i;
/** Places a long first sentence may be cut, strongest first. */
const CUTS = [/[;:]\s/g, /\s[—–-]\s/g, /,\s/g, /\s(?:because|since|which|so that|while|whereas|although|but|after|before|when|and)\s/g];
const MIN_TITLE = 16;
/** An opening subordinate clause, up to its comma. */
const SUBORDINATE = /^(?:if|when|whenever|although|though|while|since|because|as|unless|after|before|once|until|even if|in case|to)\b(?:[^,;:()]|\([^()]*\)){3,100},\s+/i;

function firstSentence(text: string): string {
  const m = /^(.+?[.!?…])(?=\s+["'“‘(]?[\p{Lu}\d])/su.exec(text);
  return (m ? m[1] : text).trim();
}

/** Final punctuation off, and an opening quote that never closes. */
function stripEnd(s: string): string {
  const t = s.replace(/[\s.,;:!?…]+$/u, '').trim();
  return /^["“‘]/u.test(t) && !/["”’]/u.test(t.slice(1)) ? t.slice(1).trim() : t;
}

function cutAt(s: string, max: number): string {
  for (const re of CUTS) {
    let best = -1;
    for (const m of s.matchAll(re)) {
      if (m.index! >= MIN_TITLE && m.index! <= max) best = m.index!;
    }
    if (best > 0) return stripEnd(s.slice(0, best));
  }
  const window = s.slice(0, max - 1);
  const space = window.lastIndexOf(' ');
  return `${stripEnd(space >= MIN_TITLE ? window.slice(0, space) : window)}…`;
}

/** The title of a text, or null when it has no words. */
export function deriveTitle(text: string, max = TITLE_MAX_CHARS): string | null {
  const flat = text.replace(/\s+/g, ' ').trim();
  const core = flat.replace(CHATTER, '').replace(/^[-*•>#\s]+/, '') || flat;
  let t = stripEnd(firstSentence(core));
  if (!/[\p{L}\p{N}]/u.test(t)) return null;
  if (t.length > max) {
    // "If X happens, do Y": the main clause says what the memory is about.
    const sub = SUBORDINATE.exec(t);
    if (sub && t.length - sub[0].length >= MIN_TITLE) t = t.slice(sub[0].length);
    if (t.length > max) t = cutAt(t, max);
  }
  return t.charAt(0).toLocaleUpperCase() + t.slice(1);
}
