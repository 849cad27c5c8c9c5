// Extracts (subject, predicate, object) triples from short memory texts with pattern rules over
// common phrasings ("Alice lives in Berlin", "The price of the Pro plan is $20", "Bob reports to
// Carol"). Precision over coverage: anything unclear (pronoun subjects, reported speech,
// compound subjects) yields nothing rather than a guess.
import { speakerLines, withoutOpener } from './speakers.js';
import { attributePredicate, canonicalPredicate, normalizeObject, parseDate, predicateSpec, stripQualifiers } from './predicates.js';

export interface Triple {
  /** Normalised subject: lower case, no leading article/possessive determiner, no "'s". */
  subject: string;
  /** Canonical predicate (see predicates.ts). */
  predicate: string;
  /** Object as written (trimmed of trailing qualifiers). */
  object: string;
  /** Normalised object, for comparison. */
  object_norm: string;
  /** "does not live in", "no longer works at", "used to", "left <employer>". */
  negated: boolean;
}

/** A negation before the verb ("does not", "no longer", "never", "used to"). */
const NEG = String.raw`(?<neg>(?:(?:does|do|did|is|are|was|were|has|have|had|can|will|would) not|no longer|never|not|used to) )?`;
/** Adverbs that do not change the fact. */
const ADV = String.raw`(?:(?:now|currently|still|also|recently|just|finally|officially|already|actually|meanwhile|since then) )*`;
const SUBJ = String.raw`(?<s>[^,;:]{1,60}?)`;
const OBJ = String.raw`(?<o>.+)`;
const STATUS_WORDS = String.raw`on[ -]track|at[ -]risk|blocked|stuck|on[ -]hold|paused|in[ -]progress|ongoing|underway|done|complete|completed|finished|cancell?ed|shipped|released|launched|delayed|approved|rejected|pending|deprecated`;
const ATTR_AFTER_SUBJECT = String.raw`status|version|price|cost|pricing|deadline|due date|release date|launch date|headquarters|hq|address|email|e-mail|phone number|ceo|cto|cfo|timezone|time zone|manager|age|location`;
const TITLES = String.raw`ceo|cto|cfo|coo|president|owner|(?:project |team |tech )?lead|head`;

type PredicateFn = (m: RegExpExecArray, original: string) => string | null;

interface Rule {
  re: RegExp;
  predicate: string | PredicateFn;
  /** The object is the subject and vice versa ("Jane is the CEO of Acme" → acme ceo jane). */
  inverse?: boolean;
  /** Always negated ("left Google" ends works_at). */
  negated?: boolean;
  /** The object must start with a capital letter in the original text (proper names). */
  properObject?: boolean;
}

const r = (src: string) => new RegExp(src, 'i');

const RULES: Rule[] = [
  // "Jane Doe is the CEO of Acme" → (acme, ceo, jane doe)
  {
    re: r(String.raw`^${SUBJ} (?:is|was|has been|became|will be) ${ADV}(?:the |a |an )?(?<a>${TITLES}) (?:of|at|for) ${OBJ}$`),
    predicate: (m) => attributePredicate(m.groups!.a),
    inverse: true,
  },
  // "The price of the Pro plan is $20", "The deadline for the Q3 report is September 30"
  {
    re: r(String.raw`^(?:the )?(?<a>[a-z][a-z -]{1,30}?) (?:of|for) ${SUBJ}(?: (?:is|are|was|has been|will be)|\s*[:=]) ${NEG}${ADV}${OBJ}$`),
    predicate: (m) => attributePredicate(m.groups!.a),
  },
  // "Acme's headquarters moved to Austin"
  {
    re: r(String.raw`^${SUBJ}'s (?<a>[a-z][a-z -]{1,30}?) (?:has |have )?(?:moved|relocated|changed|switched) to ${OBJ}$`),
    predicate: (m) => attributePredicate(m.groups!.a),
  },
  // "Frank's role is senior engineer", "Mia's phone number is 555-0100"
  {
    re: r(String.raw`^${SUBJ}'s (?<a>[a-z][a-z -]{1,30}?)(?: (?:is|are|was|has been)|\s*[:=]) ${NEG}${ADV}${OBJ}$`),
    predicate: (m) => attributePredicate(m.groups!.a),
  },
  // "Project X status is blocked", "Project X status: done", "The Q3 report deadline is October 15"
  {
    re: r(String.raw`^${SUBJ} (?<a>${ATTR_AFTER_SUBJECT})(?: (?:is|are|was|has been|is now|changed to|moved to|went to)|\s*[:=]) ${NEG}${ADV}${OBJ}$`),
    predicate: (m) => attributePredicate(m.groups!.a),
  },
  // "Olivia worked at Amazon before joining Netflix" → works at Netflix
  {
    re: r(String.raw`^${SUBJ} (?:worked|was working|used to work|had worked) (?:at|for) .+? (?:before|until) (?:joining|moving to|starting at|going to) ${OBJ}$`),
    predicate: 'works_at',
  },
  // "Sara left Google", "Alice moved out of Berlin": the old employer/place no longer holds.
  {
    re: r(String.raw`^${SUBJ} ${ADV}(?:has |have )?${ADV}(?:left|quit|resigned from|moved out of|moved away from|departed|was laid off from|was fired from) ${OBJ}$`),
    predicate: 'left',
    negated: true,
    properObject: true,
  },
  // lives_in
  {
    re: r(String.raw`^${SUBJ} ${NEG}${ADV}(?:lives?|living|is living|resides?|has lived|has been living) (?:in|at) ${OBJ}$`),
    predicate: 'lives_in',
  },
  {
    re: r(String.raw`^${SUBJ} ${ADV}(?:has |have )?${ADV}(?:moved|relocated|relocates|moves|is moving|is relocating|will move) (?:from .+? )?(?:to|into) ${OBJ}$`),
    predicate: 'lives_in',
  },
  {
    re: r(String.raw`^${SUBJ} (?:is|are) ${NEG}${ADV}(?:based|located|situated) (?:in|at) ${OBJ}$`),
    predicate: 'located_in',
  },
  {
    re: r(String.raw`^${SUBJ} (?:is|are) ${NEG}${ADV}headquartered (?:in|at) ${OBJ}$`),
    predicate: 'headquartered_in',
  },
  // works_at / role
  {
    re: r(String.raw`^${SUBJ} ${NEG}${ADV}(?:works?|working|is working|has worked|has been working) as (?:a |an |the )?${OBJ}$`),
    predicate: 'role',
  },
  {
    re: r(String.raw`^${SUBJ} ${NEG}${ADV}(?:works?|working|is working|has worked|has been working) (?:at|for) ${OBJ}$`),
    predicate: 'works_at',
  },
  {
    re: r(String.raw`^${SUBJ} ${ADV}(?:has |have )?${ADV}(?:joined|started (?:working )?(?:at|with)|signed with|was hired by|got hired (?:by|at)|has been hired by) ${OBJ}$`),
    predicate: 'works_at',
    properObject: true,
  },
  {
    re: r(String.raw`^${SUBJ} (?:is|are) ${NEG}${ADV}employed (?:by|at) ${OBJ}$`),
    predicate: 'works_at',
  },
  // reports_to
  {
    re: r(String.raw`^${SUBJ} ${NEG}${ADV}(?:reports?|reporting) (?:directly )?to ${OBJ}$`),
    predicate: 'reports_to',
  },
  {
    re: r(String.raw`^${SUBJ} (?:is|was) ${NEG}${ADV}(?:managed|supervised) by ${OBJ}$`),
    predicate: 'reports_to',
  },
  // married_to
  {
    re: r(String.raw`^${SUBJ} (?:is|got|was) ${NEG}${ADV}married to ${OBJ}$`),
    predicate: 'married_to',
  },
  // age
  {
    re: r(String.raw`^${SUBJ} (?:is|was) ${NEG}${ADV}(?:aged )?(?<o>\d{1,3})(?: (?:years?|yrs?) old| years of age)?$`),
    predicate: 'age',
  },
  {
    re: r(String.raw`^${SUBJ} ${ADV}turned (?<o>\d{1,3})\b.*$`),
    predicate: 'age',
  },
  // price
  {
    re: r(String.raw`^${SUBJ} (?:(?:is|are) )?${NEG}${ADV}(?:costs?|priced at|sells? for|goes for|charged at) ${OBJ}$`),
    predicate: 'price',
  },
  // version: "We use Postgres version 15", "We upgraded Postgres to version 16", "The app is on version 4.0"
  {
    re: r(String.raw`^(?:we|i|they|the team|our team) ${NEG}${ADV}(?:use|run|are on|are using|are running|deploy|have) (?<s>[a-z][\w.+#-]*(?: [a-z][\w.+#-]*)??) (?:version |v)?(?<o>\d+(?:\.\d+)*)\b.*$`),
    predicate: 'version',
  },
  {
    re: r(String.raw`^(?:we |i |they |the team |our team )?(?:have |has |just |recently )*(?:upgraded|updated|bumped|downgraded|migrated|moved) (?<s>.+?) (?:from (?:version |v)?[\d.]+ )?to (?:version |v)?(?<o>\d+(?:\.\d+)*)\b.*$`),
    predicate: 'version',
  },
  {
    re: r(String.raw`^${SUBJ} (?:is|are|runs|is running) ${NEG}${ADV}(?:on |at |running )?(?:version |v)(?<o>\d+(?:\.\d+)*)\b.*$`),
    predicate: 'version',
  },
  // status: "Project Apollo is blocked (on …)"
  {
    re: r(String.raw`^${SUBJ} (?:is|are|was|has been|remains) ${NEG}${ADV}(?<o>${STATUS_WORDS})\b.*$`),
    predicate: 'status',
  },
  // born
  {
    re: r(String.raw`^${SUBJ} was ${NEG}born (?:on|in) ${OBJ}$`),
    predicate: (m) => (/^\s*(?:\d{4}|\w+ \d{1,2}|\d{1,2} \w+)/.test(m.groups!.o) && parseDate(m.groups!.o) ? 'born_on' : 'born_in'),
  },
  // deadline: "The report is due on Friday"
  {
    re: r(String.raw`^${SUBJ} (?:is|are) ${NEG}${ADV}due (?:on |by |in )?${OBJ}$`),
    predicate: 'deadline',
  },
  // multi-valued
  {
    re: r(String.raw`^${SUBJ} ${NEG}${ADV}(?:likes?|loves?|enjoys?|adores?|is fond of|is a fan of|prefers?) ${OBJ}$`),
    predicate: 'likes',
  },
  {
    re: r(String.raw`^${SUBJ} ${NEG}${ADV}(?:dislikes?|hates?|can not stand) ${OBJ}$`),
    predicate: 'dislikes',
  },
  {
    re: r(String.raw`^${SUBJ} (?:has |have |had )?${NEG}${ADV}(?:visited|been to|went to|traveled to|travelled to) ${OBJ}$`),
    predicate: 'visited',
  },
  {
    re: r(String.raw`^${SUBJ} (?:can )?${NEG}${ADV}(?:speaks?|is fluent in) ${OBJ}$`),
    predicate: 'speaks',
  },
  {
    re: r(String.raw`^${SUBJ} (?:is|are) ${NEG}${ADV}(?:a |an )?members? of ${OBJ}$`),
    predicate: 'member_of',
  },
  {
    re: r(String.raw`^${SUBJ} (?:is|are) ${NEG}${ADV}learning ${OBJ}$`),
    predicate: 'learning',
  },
  {
    re: r(String.raw`^${SUBJ} ${NEG}${ADV}(?:supports?|offers?) ${OBJ}$`),
    predicate: 'supports',
  },
  {
    re: r(String.raw`^${SUBJ} ${NEG}${ADV}(?:uses?|is using|are using|relies on|rely on) ${OBJ}$`),
    predicate: 'uses',
  },
];

// Subjects that cannot be resolved from the text alone, or that signal reported speech or a
// clause rather than a noun phrase.
const BAD_SUBJECT_WORDS = new Set([
  'he', 'she', 'they', 'it', 'you', 'him', 'her', 'them', 'this', 'that', 'these', 'those', 'there', 'here',
  'who', 'which', 'what', 'someone', 'somebody', 'everyone', 'everybody', 'nobody', 'one',
  'said', 'says', 'told', 'tells', 'mentioned', 'thinks', 'think', 'believes', 'heard', 'hears', 'reported',
  'and', 'or', 'if', 'when', 'because', 'while', 'whether', 'not', 'me', 'met', 'saw', 'asked',
]);

const ABBREVIATIONS = new Set(['mr', 'mrs', 'ms', 'dr', 'st', 'jr', 'sr', 'inc', 'ltd', 'co', 'corp', 'vs', 'etc', 'e.g', 'i.e', 'no', 'approx', 'dept', 'mt', 'prof']);

/** Splits a text into sentences; keeps abbreviations ("St. Mary's"), decimals and e-mails intact. */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  const parts = text.replace(/\r/g, '').split(/\n+|;\s+/);
  for (const part of parts) {
    let start = 0;
    const re = /[.!?]+(?=\s+["'(]?[A-Z0-9])/g;
    let m: RegExpExecArray | null;
    while ((m = re.exec(part))) {
      const before = part.slice(start, m.index);
      const lastWord = /([A-Za-z.']+)$/.exec(before)?.[1]?.toLowerCase() ?? '';
      if (m[0] === '.' && (ABBREVIATIONS.has(lastWord) || /^[a-z]$/i.test(lastWord))) continue;
      out.push(part.slice(start, m.index + m[0].length));
      start = m.index + m[0].length;
    }
    out.push(part.slice(start));
  }
  return out.map((s) => s.trim()).filter(Boolean);
}

/** Expands contractions so negations read as "not": "doesn't" → "does not", "can't" → "can not". */
export function expandContractions(s: string): string {
  return s
    .replace(/[’‘`]/g, "'")
    .replace(/\bcan't\b/gi, 'can not')
    .replace(/\bcannot\b/gi, 'can not')
    .replace(/\bwon't\b/gi, 'will not')
    .replace(/\bshan't\b/gi, 'shall not')
    .replace(/\b(\w+)n't\b/gi, '$1 not')
    .replace(/\b(I|you|we|they)'re\b/gi, '$1 are')
    .replace(/\b(I|you|we|they)'ve\b/gi, '$1 have')
    .replace(/\bI'm\b/gi, 'I am');
}

// Leading discourse markers that do not belong to the subject.
const LEAD_IN = /^(?:(?:update|note|fyi|correction|actually|btw|by the way|as of [^,]+|now|currently|today|recently|these days|also|so|well|ok|okay|heads up)\s*[:,-]\s*)+/i;

/** Lower case, no leading article or possessive determiner, no "'s", single spaces. */
// "My sister Emma", "our colleague Raj Patel": a relation naming a person is that person.
const RELATION_NAMING = /^(?:(?:my|our|his|her|their|the) )?(?:sister|brother|mother|father|mom|mum|dad|wife|husband|partner|son|daughter|friend|cousin|aunt|uncle|boss|manager|colleague|coworker|co-worker|teammate|neighbou?r|roommate|girlfriend|boyfriend|fianc[eé]e?|niece|nephew|grandma|grandpa|grandmother|grandfather|client|customer) ((?:\p{Lu}[\p{Ll}'-]+)(?: \p{Lu}[\p{Ll}'-]+)?)$/iu;

export function normalizeSubject(raw: string): string {
  const named = RELATION_NAMING.exec(raw.trim());
  if (named && /^\p{Lu}/u.test(named[1])) raw = named[1];
  let s = raw
    .normalize('NFKC')
    .replace(/[’‘`]/g, "'")
    .toLowerCase()
    .replace(/["“”()[\]]/g, ' ')
    .replace(/'s\b/g, '')
    .replace(/s'(?=\s|$)/g, 's')
    .replace(/[.,!?;:]+$/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  s = s.replace(/^(?:the|our|my|a|an) /, '');
  if (s === 'postgresql') s = 'postgres';
  return s;
}

function validSubject(s: string): boolean {
  const words = s.split(' ').filter(Boolean);
  if (words.length === 0 || words.length > 6) return false;
  return !words.some((w) => BAD_SUBJECT_WORDS.has(w));
}

// Clauses after the value that describe circumstances, not the value itself.
const PLACE_ORG_TAIL = /\s+(?:for|with|to be|to join|to work|because|after|before|since|until|when|where|which|who|but|and then|on the|in the|as|so|while|although|though)\b.*$/i;

function cleanObject(o: string, predicate: string): string {
  let s = o.trim().replace(/[.!?;]+$/, '').trim();
  const kind = predicate === 'left' ? 'org' : predicateSpec(predicate)?.kind;
  if (kind === 'place' || kind === 'org' || kind === 'person') s = s.replace(PLACE_ORG_TAIL, '');
  if (kind === 'text' && predicate === 'role') s = s.replace(/\s+(?:at|for|in)\s+.*$/i, '');
  // Qualifiers are only ever cut from the end, so the lower-cased length maps back.
  s = s.slice(0, stripQualifiers(s.toLowerCase()).length);
  return s.trim();
}

function tripleFromSentence(sentence: string): Triple | null {
  const original = sentence.trim().replace(/[.!?]+$/, '').trim();
  const text = expandContractions(original).replace(LEAD_IN, '').replace(/\s+/g, ' ').trim();
  if (!text || text.length > 300) return null;
  for (const rule of RULES) {
    const m = rule.re.exec(text);
    if (!m?.groups) continue;
    const pred = typeof rule.predicate === 'function' ? rule.predicate(m, text) : rule.predicate;
    if (!pred) continue;
    const predicate = pred === 'left' ? 'left' : canonicalPredicate(pred);
    if (!predicate) continue;
    let subjectRaw = m.groups.s;
    let objectRaw = m.groups.o;
    if (!subjectRaw || !objectRaw) continue;
    if (rule.inverse) [subjectRaw, objectRaw] = [objectRaw, subjectRaw];
    if (rule.properObject && !/^[A-Z0-9]/.test(objectRaw.trim())) continue;
    let subject = normalizeSubject(subjectRaw);
    if (subject === 'i' || subject === 'we') subject = subject === 'i' ? 'i' : 'we';
    else if (!validSubject(subject)) continue;
    const object = cleanObject(objectRaw, predicate);
    if (!object) continue;
    const negated = Boolean(rule.negated || m.groups.neg);
    return {
      subject,
      predicate,
      object,
      object_norm: predicate === 'left' ? normalizeObject(object, 'works_at') : normalizeObject(object, predicate),
      negated,
    };
  }
  return null;
}

/** Every triple found, one per sentence at most, in text order. */
export function extractTriples(text: string): Triple[] {
  if (!text) return [];
  const out: Triple[] = [];
  const named = new Set<string>();
  for (const { sentence: s, speaker } of spokenSentences(text)) {
    let t = tripleFromSentence(s) ?? resolvedPronoun(s, named);
    // A chat line's "I" is its speaker ("Nadia: I moved to York" is about Nadia; another speaker's "I" is someone else).
    if (t && speaker && t.subject === 'i') t = { ...t, subject: normalizeSubject(speaker) };
    if (t) out.push(t);
    // Capitalised words inside a sentence (not its first word) are names it gives.
    for (const m of s.matchAll(/(?<=\S\s+)\b\p{Lu}\p{Ll}+\b/gu)) named.add(m[0]);
  }
  return out;
}

/** A sentence and the speaker of its line (speakers.ts), null when the line has no label. */
export interface Spoken { sentence: string; speaker: string | null }

/** Sentences of a text with the speaker of their line, its label taken off. */
export function spokenSentences(text: string): Spoken[] {
  return speakerLines(text).flatMap((line) => splitSentences(line.text).map((x) => ({ sentence: withoutOpener(x), speaker: line.speaker })));
}

/**
 * "Met Tom today; he told me he moved to Lisbon": a clause led by "he" or "she", read with the one
 * name the memory gave before it. With no name, or more than one, nothing is guessed.
 */
function resolvedPronoun(sentence: string, named: Set<string>): Triple | null {
  const clause = /\b(?:he|she)\s+((?:(?!\b(?:he|she)\b).)+)$/i.exec(sentence);
  if (!clause) return null;
  // names given before the clause: earlier sentences, and this one up to the clause
  const local = new Set(named);
  for (const m of sentence.slice(0, clause.index).matchAll(/(?<=\S\s+)\b\p{Lu}\p{Ll}+\b/gu)) local.add(m[0]);
  if (local.size !== 1) return null;
  return tripleFromSentence(`${[...local][0]} ${clause[1]}`);
}

/** The first triple of a short memory text, or null when no rule applies confidently. */
export function extractTriple(text: string): Triple | null {
  return extractTriples(text)[0] ?? null;
}

/** A writer-given triple in the same shape as an extracted one. */
export function givenTriple(subject: string, predicate: string, objectValue: string): Triple | null {
  const p = canonicalPredicate(predicate);
  const s = normalizeSubject(subject);
  if (!p || !s || !objectValue.trim()) return null;
  return { subject: s, predicate: p, object: objectValue.trim(), object_norm: normalizeObject(objectValue, p), negated: false };
}
