// Tags of a memory, by rule: the names the write's entity extraction already found (people,
// organisations, places, products), then key phrases (noun phrases found by where they stand, see
// keyPhrases). No second NLP pass. Tags are lowercase, singular where a plural is plain,
// kebab-case, at most TAGS_MAX; the same normalisation applies to a model's tags.
import type { Extraction } from '../../providers/entities/types.js';
import { TAGS_MAX } from './types.js';

const TAG_MAX_CHARS = 40;

const STOP = new Set((
  'a about above after again against all also am an and any are as at be because been before being below between both but by ' +
  'can could did do does doing down during each even every few for from further had has have having he her here hers herself him ' +
  'himself his how i if in into is it its itself just let lets like many me more most much must my myself no nor not now of off ' +
  'on once only or other our ours ourselves out over own same she should so some such than that the their theirs them themselves ' +
  'then there these they this those through to too under until up upon very was we were what when where which while who whom why ' +
  'will with would you your yours yourself yourselves yet via per lot lots really quite always never often still already ever ' +
  'one two three first last next new old good great big small little way ways thing things something anything everything ' +
  'someone anyone everyone time times day days week weeks year years today yesterday tomorrow recently soon maybe perhaps ' +
  'yeah yes ok okay wow oh hey thanks thank please sure well much oneself behalf gonna wanna gotta awesome amazing cool nice'
).split(' '));

/** Common verbs and fillers that make poor tags on their own. */
const WEAK = new Set((
  'get gets got make makes made go goes went gone take takes took come came see saw seen know knew think thought say said ' +
  'tell told give gave find found use used want wants need needs try tried feel felt keep kept put seem seems help helps ' +
  'show shows start started work works call called ask asked look looks looking going doing being having getting making ' +
  'able sure glad happy excited kind sort lot bit part'
).split(' '));

function singular(w: string): string {
  if (w.length <= 3 || /(?:ss|us|is|ics|news|series)$/.test(w)) return w;
  if (/ies$/.test(w)) return `${w.slice(0, -3)}y`;
  if (/(?:ches|shes|xes|zes|sses)$/.test(w)) return w.slice(0, -2);
  if (/[^s]s$/.test(w)) return w.slice(0, -1);
  return w;
}

/** Caura's tag form: lowercase, whitespace and underscores to single hyphens, trimmed of hyphens. */
export function normaliseTag(raw: unknown): string {
  if (typeof raw !== 'string') return '';
  const t = raw.normalize('NFKC').toLowerCase().trim().replace(/[\s_]+/g, '-').replace(/[^\p{L}\p{N}+#.-]/gu, '').replace(/-{2,}/g, '-').replace(/^[-.]+|[-.]+$/g, '');
  return t.length > TAG_MAX_CHARS ? '' : t;
}

/** Deduplicated, normalised, at most TAGS_MAX, first seen first. */
export function normaliseTags(raw: unknown): string[] {
  if (!Array.isArray(raw)) return [];
  const out: string[] = [];
  for (const r of raw) {
    const t = normaliseTag(r);
    if (t && !out.includes(t)) out.push(t);
    if (out.length >= TAGS_MAX) break;
  }
  return out;
}

/** Words after which a noun phrase starts. */
const OPENERS = new Set((
  'a an the my your his her its our their this that these those some any each every no another of for in on at with about ' +
  'from into by via over under between during without within'
).split(' '));

/**
 * Noun phrases, cheaply: runs of content words right after a determiner, possessive or
 * preposition ("the business plan", "in community meetings"), the last two words of each (a
 * head noun and its modifier). Verbs rarely stand there, so no part-of-speech pass is needed.
 * Longer phrases first, then in order of appearance.
 */
function keyPhrases(text: string): string[] {
  const tokens = text.toLowerCase().match(/[\p{L}][\p{L}\p{N}'’+#-]*|[^\s\p{L}]/gu) ?? [];
  const phrases: Array<{ words: string[]; at: number }> = [];
  let cur: string[] | null = null;
  const flush = () => {
    // A run of three or more words has usually crossed into a verb ("the book explores themes").
    const words = cur ?? [];
    const head = words[words.length - 1] ?? '';
    const ok = words.length > 0 && words.length <= 2 && !/ed$/.test(head) && !(words.length === 1 && /ing$/.test(head));
    if (ok) phrases.push({ words, at: phrases.length });
    cur = null;
  };
  for (const raw of tokens) {
    const w = raw.replace(/['’]s$/, '');
    if (OPENERS.has(w)) {
      flush();
      cur = [];
      continue;
    }
    const content = /^\p{L}/u.test(w) && w.length >= 3 && !STOP.has(w) && !WEAK.has(w) && !/ly$/.test(w) && !/['’‘]/.test(w);
    if (cur && content) cur.push(w);
    else flush();
  }
  flush();
  return phrases
    .sort((a, b) => b.words.length - a.words.length || a.at - b.at)
    .map((p) => p.words.map((w, i) => (i === p.words.length - 1 ? singular(w) : w)).join(' '));
}

/** Tags of a text: entity names first, then key phrases. */
export function deriveTags(text: string, extraction?: Extraction | null): string[] {
  const names = (extraction?.entities ?? [])
    .filter((e) => e.type !== 'date' && /^\p{L}/u.test(e.name) && !/['’‘]\p{L}/u.test(e.name.replace(/['’]s$/, '')) && !/^[0-9a-f]{7,}$/i.test(e.name))
    .map((e) => e.name);
  const out: string[] = [];
  for (const raw of [...names, ...keyPhrases(text)]) {
    const t = normaliseTag(raw);
    // A phrase overlapping a tag already chosen ("group" after "support-group") adds nothing.
    if (t && !out.some((o) => o.includes(t) || t.includes(o))) out.push(t);
    if (out.length >= TAGS_MAX) break;
  }
  return out;
}
