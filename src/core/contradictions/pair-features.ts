// Features of a pair of memories for the learned contradiction judge (classifier.ts). Pure and
// cheap: one tokenisation per memory (reused across all its candidates), then a word-level diff
// of the few best-aligned sentence pairs. No NLP pass, no model: what the write already computed
// (the embedding's cosine, the entity links) comes in through `PairContext`.
//
// A memory is split into sentences; each sentence into typed tokens (values, names, pronouns,
// negations, time words) with its subject (the words before the first verb, or the key of a
// `key: value` note) and its markers of change, history, plans and additions.
import { asSaid, holdsManyFacts, LEAD_IN, speakerLines, withoutOpener } from './speakers.js';

export type TokKind = 'word' | 'name' | 'value' | 'ordinal' | 'timeref' | 'pron1' | 'pron' | 'neg';

export interface Tok {
  /** Comparison key: lower case, stemmed words, canonical values. */
  key: string;
  kind: TokKind;
  /** A content token (not a stopword, pronoun or negation). */
  content: boolean;
  /** The word as written, lower case. */
  low: string;
  /** A capitalised word read as a name only because it opens the sentence or a note's value ("Sprints", "Rate limit"). */
  initial?: boolean;
}

export interface SentenceInfo {
  text: string;
  toks: Tok[];
  /** Content keys of the sentence. */
  keys: Set<string>;
  /** Its subject (before the first verb, or the key of a key: value note). */
  subject: Subject;
  subjectKind: 'named' | 'first' | 'pronoun' | 'none';
  /** For each value, the content words just before it (what the value is of), and the names among them. */
  attributes: Set<string>;
  attributeNames: Set<string>;
  /** Nouns counted by a figure ("5 seats", "40 people"): what the number is a number of. */
  counted: Set<string>;
  /** The content word right before each figure ("storage to 500 GB": storage). */
  leading: Set<string>;
  /** Index in toks of the first verb (firstVerb), or -1. */
  verb: number;
  /** The sentence is `key: value`. */
  kv: boolean;
  /** Content keys of a note's value (after the key). */
  kvValue: Set<string>;
  /** The note's value is short: a value, not a sentence. */
  kvShort: boolean;
  polarity: number;
  values: string[];
  versions: number;
  /** Marker flags found in the sentence. */
  marks: Set<Mark>;
  past: boolean;
  /** What the sentence says was replaced, when it says so ("X instead of Y", "from Y to X", "replaced Y with X"). */
  replacement: Replacement | null;
  /** Who says it, when its line opens with a speaker label ("Melanie: …"), lower case. */
  speaker: string | null;
}

/** The old and the new value a sentence names, as content keys (names and figures when it has them). */
export interface Replacement {
  old: string[];
  new: string[];
}

export type Mark = 'change' | 'soft' | 'history' | 'hypo' | 'future' | 'multi' | 'negchange';

/** A subject: its content keys, the names among them, its head (the last content word) and its figures ("floor 3"). */
export interface Subject {
  keys: string[];
  names: string[];
  head: string | null;
  headIsName: boolean;
  values: string[];
  /** Content keys after the head's preposition ("tickets for children": children). */
  mods: string[];
}

export interface MemoryInfo {
  sentences: SentenceInfo[];
  /** Subject of the memory as a whole: the first sentence's subject. */
  anchors: Subject;
  /** The first line is a title (a key or a short line without a verb): its subject is the memory's. */
  titled: boolean;
  /** Content keys of every sentence. */
  keys: Set<string>;
  chars: number;
  text: string;
  /** Words read as names only because they open a sentence: stem → the word, lower case. */
  initialStems: Map<string, string>;
  /** Keys of plain words (not names) of every sentence. */
  wordKeys: Set<string>;
  /** The same text read with some of those opening words as plain words, by the words (computed when a pair needs it). */
  lowered?: Map<string, MemoryInfo>;
  /** The sentences as split from the text, with their speakers: readAgainst reads some of them again. */
  spoken: ReadonlyArray<Spoken>;
}

interface Spoken {
  text: string;
  speaker: string | null;
}

const NO_SUBJECT: Subject = { keys: [], names: [], head: null, headIsName: false, values: [], mods: [] };

// "The timeout for the payments API": the head is the noun before the preposition.
const HEAD_PREP = new Set(['for', 'of', 'with', 'on', 'at', 'in']);

function subjectOf(toks: Tok[]): Subject {
  const content = toks.filter((t) => t.content && t.kind !== 'value');
  const prep = toks.findIndex((t, i) => HEAD_PREP.has(t.low) && toks.slice(0, i).some((x) => x.content && x.kind !== 'value'));
  const head = prep > 0 ? toks.slice(0, prep).filter((t) => t.content && t.kind !== 'value').at(-1) : content.at(-1);
  return {
    keys: content.map((t) => t.key),
    names: content.filter((t) => t.kind === 'name').map((t) => t.key),
    head: head?.key ?? null,
    // (a capitalised word opening a note's key is a word: "Priority for the billing bug: P2")
    headIsName: head?.kind === 'name' && !head.initial,
    mods: prep > 0 ? toks.slice(prep + 1).filter((t) => t.content && t.kind !== 'value').map((t) => t.key) : [],
    // Figures and periods inside a subject tell instances apart ("floor 3", "the Q3 report").
    values: toks.filter((t) => t.kind === 'value' || t.kind === 'timeref').map((t) => t.key),
  };
}

/** Most sentences of one memory considered (long memories: the first ones). */
export const MAX_SENTENCES = 40;
/** Sentence pairs of a memory pair that get the full comparison. */
export const ALIGNED_PAIRS = 3;
/** Below this cosine two memories are about different things, whatever their words share (markedUpdate). */
const MARKED_UPDATE_MIN_COSINE = 0.35;
/** A sentence that asks. */
// (a question followed by a bracketed aside is a question: "Any good movies? [shares a photo: …]")
const QUESTION = /\?\s*(?:\[[^\]]*\]\s*)?$/;

const STOP = new Set(
  ('a an the and or but so to of in on at for with by from as into onto over under about than then that this these those there here ' +
    'is am are was were be been being has have had do does did will would can could should shall may might must ' +
    'it its it\'s just really very too also still only even much many lot lots some any all each every such own same ' +
    'what which who whom whose when where why how if while because until after before since up down out off again ' +
    'oh wow hey yeah yes ok okay well like get got gets getting go goes going gone make made thing things stuff last next ' +
    'now currently still just recently finally officially already actually meanwhile per again new old current latest previous ' +
    'through via across within without between against toward towards around during upon among ' +
    'one ones something anything everything nothing someone anyone everyone lol haha').split(' '),
);
const PRON1 = new Set(['i', 'me', 'my', 'mine', 'myself', 'we', 'us', 'our', 'ours', 'ourselves']);
const PRON = new Set(['he', 'she', 'they', 'him', 'her', 'them', 'his', 'hers', 'their', 'theirs', 'it', 'its', 'you', 'your', 'yours', 'this', 'that']);
const NEG = new Set(['not', 'no', 'never', 'none', 'nobody', 'nothing', 'neither', 'nor', 'cannot']);
const ORDINALS = new Set(['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth']);
const TIMEREF = new Set([
  'yesterday', 'today', 'tonight', 'tomorrow', 'weekend', 'week', 'weeks', 'month', 'months', 'year', 'years', 'morning', 'evening',
  'afternoon', 'night', 'ago', 'recently', 'lately', 'earlier', 'later', 'day', 'days', 'summer', 'winter', 'spring', 'autumn', 'fall',
  'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun',
  'january', 'february', 'march', 'april', 'june', 'july', 'august', 'september', 'october', 'november', 'december',
  'jan', 'feb', 'mar', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec', 'quarter', 'q1', 'q2', 'q3', 'q4',
]);
const PERIOD_REF = new Set(['last', 'this', 'next', 'previous', 'prior', 'past']);
const PERIOD = /^(?:sprints?|iterations?|cycles?|releases?|seasons?|semesters?|terms?|milestones?|quarters?|rounds?)$/i;
const NUMBER_WORDS: Record<string, string> = Object.assign(Object.create(null) as Record<string, string>, {
  zero: '0', two: '2', three: '3', four: '4', five: '5', six: '6', seven: '7', eight: '8', nine: '9', ten: '10', eleven: '11',
  twelve: '12', fifteen: '15', twenty: '20', thirty: '30', forty: '40', fifty: '50', hundred: '100', dozen: '12', half: '0.5',
});
// "one" counts only before what it counts: not "one of", "one more", "one day", nor after "the", "this", "no".
const ONE_IDIOM = /^(?:of|more|another|day|time|way|thing|point|side|hand|by|or|and|to|in|on|at|is|was|that|which|who|else|too|has|had|will|would|can|could|should|must|might|may)$/;
const ONE_BEFORE = new Set(['the', 'this', 'that', 'which', 'each', 'every', 'no', 'any', 'some', 'a', 'an', 'other', 'new', 'old', 'last', 'next', 'first', 'same', 'big', 'little', 'good', 'right', 'wrong']);
// Verbs and auxiliaries that end a subject; other verbs are guessed from -s/-ed endings.
const VERBS = new Set(
  ('is am are was were be been has have had do does did will would can could should shall may might must ' +
    'went ran got made took gave left came became began grew rose fell won lost paid sold bought met said told kept held ' +
    'run runs live lives work works use uses own owns lead leads handle handles manage manages report reports need needs ' +
    'moved switched joined started quit replaced took takes cost costs love loves like likes prefer prefers hate hates ' +
    'want wants think thinks know knows feel feels go goes get gets make makes take takes see sees say says tell tells ' +
    'bump bumped update updated upgrade upgraded set sets add adds added drop drops dropped remove removes removed ' +
    'switch move join start stop stops stopped open opens close closes ship ships release releases moves ' +
    'raised lowered increased decreased reduced extended shortened pushed postponed scaled changed migrated relocated ' +
    'renamed promoted reassigned transferred handed rewrote rewritten downgraded cut resized ' +
    'require requires allow allows happen happens occur occurs cancel cancels cancelled canceled retired put puts shut').split(' '),
);
const VERB_STEMS = new Set([...VERBS].map(stem));
// Capitalised words that open sentences without being names (imperatives of changelogs, notes).
const INITIAL_WORDS = new Set(
  ('new bump bumped update updated upgrade upgraded add added fix fixed remove removed drop dropped use used switch switched move moved ' +
    'cancel cancelled canceled retired sold quit ' +
    'set change changed build install make release import refresh refreshed convert enable disable support include rename replace ' +
    'quick small short big note notes today yesterday tomorrow also please thanks thank met saw heard told asked got went had ' +
    'since after before during while when once now currently lately recently still maybe perhaps finally apparently actually ' +
    'every each some many most all both either neither another other such no yes hey hi hello ok okay well great good nice cool ' +
    'mark standards declare bring stop start keep let looks seems sounds just first second third last next new old team project ' +
    'tickets ticket price prices revenue deploys deploy deployment release notes meeting meetings standup kickoff our my their his her ' +
    'preferred favorite favourite main primary default nightly daily weekly biweekly monthly quarterly yearly annual hourly ' +
    'sadly unfortunately luckily fortunately thankfully happily hopefully honestly basically obviously clearly surprisingly ' +
    'interestingly eventually initially originally previously officially technically personally ' +
    'minimum maximum average total starting opening closing standard typical usual').split(' '),
);
const CONTRACTIONS: Array<[RegExp, string]> = [
  [/[’‘`]/g, "'"], [/\bcan't\b/gi, 'can not'], [/\bcannot\b/gi, 'can not'], [/\bwon't\b/gi, 'will not'],
  [/\b(\w+)n't\b/gi, '$1 not'], [/\b(i|you|we|they)'re\b/gi, '$1 are'], [/\b(i|you|we|they)'ve\b/gi, '$1 have'],
  [/\bi'm\b/gi, 'i am'], [/\b(i|you|we|they|he|she|it)'ll\b/gi, '$1 will'], [/\b(i|you|we|they|he|she)'d\b/gi, '$1 would'],
  // "300/min" is a rate ("300 per min"), "1:1" a meeting, not a time of day.
  [/(\d)\s*\/\s*(sec|second|min|minute|hr|hour)s?\b/gi, '$1 per $2'], [/\b1(?::|-on-)1(s?)\b/gi, 'one-on-one$1'],
];

// Markers, matched on the lower-cased sentence.
const MARKERS: Array<[Mark, RegExp]> = [
  ['change', /\b(?:(?:ownership|responsibility|custody|control)\b[^.;]{0,30}\b(?:went|goes|passed|moved|transferred|shifted) to|relocat(?:ed|es|ing|e)|switch(?:ed|es|ing)?|swapp?(?:ed|ing)?|migrat(?:ed|ing|e)|moved|moving|replac(?:ed|es|ing|ement)|instead|took over|tak(?:es|ing) over|(?:took|takes|taking|take) [^.;]{1,40} over\b(?! to\b)|pick(?:ed|s|ing)? up [^.;]{1,40} from|handed (?:over|off)|hand(?:s|ing)? over|reassigned|transferred|in favou?r of|superseded|succeeded by|renamed|changed|chang(?:es|ing) (?:to|from)|now (?:uses?|runs?|owns?|leads?|handles?|lives?|works?|is|are|at|in|on|with|under|reports?|costs?|points?|belongs?|goes|managed|handled|owned|run|led)|is now|are now|has become|became|taken over|new (?:owner|lead|manager|maintainer|home|address|office|vendor|provider|supplier|host|tool|job|role|team|boss|number|price|plan|version|default|limit|location|contact|target|deadline|eta|due date|launch date|start date|go-live|on-call|point of contact|email|e-mail|phone|url|website|domain|password|username|handle|landlord|accountant|doctor|dentist|gp|therapist|vet|coach|tutor|lawyer|agent|auditor|venue)|convert(?:ed|s)? (?:to|into)|switch(?:ed)? back|(?:found|got|landed|started|took|accepted) (?:a|an|my|his|her|their|our) (?:new )?(?:job|position|role|place|apartment|house)|bump(?:ed|s)?|upgrad(?:ed|e|es|ing)|downgrad(?:ed|e|es|ing)|pushed (?:back |out )?to|postponed|rescheduled|rebook(?:ed|s|ing)?|rotat(?:ed|es|ing)|brought forward|mov(?:es|ed) (?:up |back )?to|move (?:[^.;,]{1,30} )?to\b|scaled\b[^.;]{0,30}\bto|joined (?!(?:the|a|an|our|my|his|her|their|us|them|me|in|as)\b)|hand(?:s|ed|ing)? [^.;]{1,40} (?:(?:over|off) )?to|revis(?:ed|es|ing|e)|(?:re|up|down)siz(?:ed|es|ing)\b[^.;]{0,40}\bto|promoted|(?:is|are|was) gone|went from|rewr(?:ote|itten) (?:it )?in|rebuil(?:t|ds?|ding)\b[^.;]{0,40}\b(?:in|with|on)|trad(?:ed|es|ing) (?:in )?[^.;]{1,40} for|expand(?:ed|s|ing)?\b[^.;]{0,40}\bto\b|(?:tighten|loosen|relax)(?:ed|s|ing)?\b(?! with\b)[^.;]{0,40}\bto\b|(?:has|have) been (?:moved|changed|replaced|reassigned|switched|raised|lowered|increased|reduced|updated)|updat(?:ed|e|es) (?:to|the)|set to|raised|lowered|increased|decreased|reduced|extended|shortened|(?:cut|slashed|trimmed|hiked|updated|slipped|delayed|pushed|upped)\b[^.;]{0,40}\bto\b|(?:has|have) been \w+ing\b[^.;]{0,60}\bsince (?:the|we|i|he|she|they|my|our|his|her|their|(?:\w+ ){1,3}(?:started|began|ended|arrived|moved|changed|opened|closed))\b|re(?:mortgag|financ|brand)\w*|got (?:married|engaged|divorced|separated)\b|turned \d{1,3}\b|made (?:\w+ ){1,3}(?:private|public|optional|mandatory|required|free|read-only|default)\b|went (?:full-time|part-time|freelance|remote|hybrid|vegan|vegetarian|pescatarian|solo|independent)\b|(?:started|starts|starting) (?:at|with) (?!\d|(?:the|a|an|about|around|home|work|noon|midnight)\b)|(?:started|began) (?:eating|drinking|taking|using|working|year|grade|school|college|uni|university|(?:a|my|the) new)\b|renegotiated|adjusted|outsourc(?:ed|ing) to|(?:got|was|been|am|is|were) (?:just )?hired\b|(?<!\b(?:kinds?|sorts?|types?|range|variety|everything|anything) (?:of [^.;]{0,30})?)from [^,.;]{1,40} to|slipp(?:ed|ing)? to|shift(?:ed|s|ing)?\b[^.;]{0,30}\bto|(?:went|gone|goes|going) (?:up|down)\b|got (?:fixed|repaired|resolved|reopened|approved|rejected)|put(?:s|ting)? (?:\w+ ){1,3}(?:up|down)\b|delayed (?:to|until)|pass(?:ed|es|ing)? [^.;]{1,40} (?:over |on )?to|(?:hired|found|got|have|has|assigned (?:us|me|them|him|her)) (?:a|an) new (?:accountant|lawyer|doctor|dentist|landlord|coach|therapist|assistant|agency|bank|designer|contractor|supplier|vendor|provider|manager|boss|ceo|cto|cfo|director|supervisor|advisor|tutor|trainer|vet|mechanic|hairdresser|barber)|(?:is|are|was|were|went|go(?:es)?|dropped|fell|rose|grew|jumped|climbed|shrank|came) (?:back )?(?:down|up) to|(?<=\w) down to (?=[$€£¥\d~])|(?:dropped|fell|rose|grew|grown|jumped|climbed|shrank|shrunk) to)\b|→|->|=>|^(?:the |our |my |a )?new [\w-]+(?: [\w-]+)?(?::| is | are )/],
  ['negchange', /\b(?:lost (?:my|his|her|their|our|the) job|step(?:ped|s|ping)? down|laid off|fired|broke up|sold (?:my|his|her|their|our|the)|gave (?:away|up)|moved out|shut (?:down|off)|(?:is|are|was|were) gone|cancel(?:l?ed|s|l?ing)?|closed down|turned off|switched off|sunsett(?:ed|ing)|(?:is|are|was|were|be|been|being) sunset\b|decommissioned|phased out|wound down|orphan(?:ed|ing)?|no longer|divorced|wiped|uninstalled|pulled out of|dropped out of|backed out of|switched out of|(?:am|i'm|we're|she's|he's|they're) out of (?!(?:town|the office|office|the country|breath|time|ideas|stock|reach|touch)\b)|split up|called it quits|(?:rotated|rolled) off|ripped out|tore out|got rid of|not (?:anymore|any more)|anymore|any more|no more|stopped|quit|left|dropped(?! off\b)|removed|discontinued|retired|deprecated|gave up|isn't .* anymore|ended(?! (?:up|with|on)\b)|passed away|died|went (?:bust|under|out of business)|folded|defer(?:red|s|ring)|(?:was|were|got|been) stolen|(?:gone|went|going) off|let (?:\w+ ){1,4}lapse|(?:is|are|was|were) (?:now )?(?:finished|complete|completed|done|over)(?=\s*(?:[;,.!]|$))|closed(?=\s*(?:[;,.!]|$|down\b))|paused|put (?:\w+ ){0,3}on hold|cut (?:\w+ ){1,3}out\b|passed (?=(?:the|a|an|my|his|her|their)\b)|not (?:been |being )?renewed|(?:is|are|am|was|were|got|came) back from|got (?:\w+ ){1,2}off\b|(?:is|are|was|were|been|got) (?:archived|deleted)|closed (?=(?:the|our|their|its|his|her|my)\b)|(?:finished|completed) (?=(?:the|a|an|my|our|his|her|their|reading|watching|building|writing)\b))\b/],
  ['soft', /\b(?:now|nowadays|these days|currently|as of|since (?:the )?last \w+|(?:since|after) the (?:reorg|reorgani[sz]ation|restructur(?:e|ing)|re-?shuffle|team shuffle|shake-?up|migration|switch|move|change|merger|acquisition|rebrand)|since (?:monday|tuesday|wednesday|thursday|friday|january|february|march|april|may|june|july|august|september|october|november|december|last|yesterday|today)|from (?:now|today|tomorrow|monday|tuesday|wednesday|thursday|friday|saturday|sunday|next|this|the \w+ on)|starting|effective|going forward|henceforth|latest|current|this (?:week|month|year|quarter|fall|autumn|spring|summer|winter|semester|term|season|sprint))\b/],
  ['history', /\b(?:used to|previously|formerly|originally|back (?:in (?:the day|the days|\d|school|college|high school)|when|then)|in the past|at the time|years ago|before (?:the|we|i|he|she|they)|before (?:this|that|the current|the new) one|when (?:i|we|he|she|they) (?:was|were)|as a kid|as a child|growing up|had been|once upon|old days)\b/],
  ['hypo', /\b(?:(?:plan(?:s|ned|ning)|(?:i|we|you|they|to|still|also) plan) (?:to|on)|might|maybe|perhaps|possibly|probably|consider(?:s|ed|ing)?|thinking (?:about|of)|think about|would|could|should|if|unless|whether|hop(?:e|es|ing) to|want(?:s|ed)? to|wanna|wish|intend(?:s|ed)? to|propos(?:e|ed|al)|idea|someday|eventually|tempted|dream(?:s|ing)? of|looking (?:into|for)|(?:i|we|you|he|she|they|it) may|hypothetical|suppose)\b/],
  // ("going to" a place is no plan: "has been going to bed around 10:30")
  ['future', /\b(?:will|going to(?! (?:the|a|an|my|his|her|their|our|your|bed|work|school|church|class|sleep|lunch|dinner|the gym|gym|college|university)\b)|gonna|is to|are to|next (?:week|month|year|quarter|sprint|time|spring|summer|autumn|fall|winter|term|semester|season)|upcoming|soon|tomorrow)\b/],
  ['multi', /\b(?:another|also|too(?=\s*(?:[,.!?;]|$))|as well|additional(?:ly)?|(?<!every )other|both|extra|more|again|add(?:ed|s|ing)?|plus|(?:second|third|fourth|fifth)(?!-)|one more|new (?:hobby|friend|pet|puppy|dog|cat|member|club|class|course))\b/],
];

// What may happen, not what is: a plan, a wish, a maybe.
const PLANNED = /\b(?:might|could|would|maybe|perhaps|possibly|consider(?:s|ed|ing)?|thinking (?:about|of)|(?:plan(?:s|ned|ning)|(?:i|we|you|they|to|still|also) plan) (?:to|on)|want(?:s|ed)? to|hop(?:e|es|ing) to|(?:i|we|you|he|she|they|it) may)\b/;

// "No more nights", "any more": an end, not an addition; nor "moved to another branch".
const NO_MORE = /\b(?:no|any) more\b/g;
const TO_ANOTHER = /\b(?:to|into) another\b/g;
// Idioms with a negation word that deny nothing: "no matter what", "not only … but".
const NOT_NEGATION = /^(?:no (?:matter|doubt|problem|worries|wonder)|not only)\b/;
const NEGCHANGE = new RegExp(MARKERS.find(([m]) => m === 'negchange')![1].source, 'g');
// "I won't quit", "she never left": a denied stop is no change.
const DENIED = /(?:\b(?:not|never)|n't|\bcannot)\s+(?:\w+\s+)?$/;

// Stop words in idioms that stop nothing: "we ended up laughing", "dropped by", "on the left", "what's left".
const IDIOM_AFTER = /^ (?:up|by|in on|over|behind)\b/;
const IDIOM_BEFORE = /(?:\b(?:the|nothing|anything|something|much|little|still) )$/;

// Stops told of what comes before them ("The ramen place closed"), not after.
const STOPPED_BEFORE = /^(?:closed|died|passed away|folded|went (?:bust|under|out of business)|(?:is|are|was|were|got|been) (?:now )?(?:finished|complete|completed|done|over|archived|deleted|stolen))$/;

/** The words a stop names ("stopped drinking oat milk", "left Google", "lost his job") stand in the older sentence. */
function stopsWhatOlderSays(a: SentenceInfo, b: SentenceInfo): boolean {
  // (read in the text's own case: names stay names)
  const words = (from: number, to: number) => tokenizeSentence(b.text.slice(Math.max(0, from), to)).toks.filter((t) => t.content && !VERB_STEMS.has(t.key));
  const named = (toks: Tok[]) => toks.some((t) => a.keys.has(t.key));
  for (const m of b.text.toLowerCase().matchAll(NEGCHANGE)) {
    // (what closed, died, is finished or was archived or stolen is named before: "The ramen place on 5th
    // closed", "The kitchen renovation is finished", "#alerts-prod was archived")
    if (STOPPED_BEFORE.test(m[0]) && (named(words(m.index - 60, m.index).slice(-3)) || b.subject.keys.some((k) => a.keys.has(k)))) return true;
    // (what was finished is its object's first word: "finished the intro to my script" is not the script)
    const done = /^(?:finished|completed)/.test(m[0]);
    if (named(words(m.index + (done ? m[0].length : 0), m.index + m[0].length + 40).slice(0, done ? 1 : 3))) return true;
  }
  return false;
}

/** The sentence says something stopped or ended ("no longer", "quit", "left"), not that it did not. */
function stopsSomething(low: string): boolean {
  // ("anymore", "no longer" go with a negation: "I don't smoke anymore" stopped)
  for (const m of low.matchAll(NEGCHANGE)) {
    if (IDIOM_AFTER.test(low.slice(m.index + m[0].length)) || IDIOM_BEFORE.test(low.slice(0, m.index))) continue;
    if (/^(?:any|no |not )/.test(m[0]) || !DENIED.test(low.slice(0, m.index))) return true;
  }
  return false;
}

const COPULA = new Set(['is', 'are', 'was', 'were', 'be', 'been', 'becomes', 'became']);
const PASSIVE = /\b(?:was|were) (?:\w+ )?\w{3,}(?:ed|en|t)\b/;
// ("the last Friday of the month" is a day of every month, not a past one; "we get groceries
// delivered", "backups are stored", "a shared house" are the present)
const PAST = /\b(?:was|were|had|did|went|ran|got|met|saw|made|took|came|left|bought|sold|won|lost|paid|grew|gave|told|said|wrote|began|spent|ate|drove|flew|ago|yesterday|(?<!the )last (?:week|month|year|time|night|weekend|friday|monday|sunday|saturday))\b|(?<!\b(?:is|are|am|be|being|get|gets|getting)\s+(?:\w+\s+){0,3})(?<!\b(?:a|an|the|my|our|your|his|her|their|its)\s+)\b(?!(?:named|called|based|used to)\b)\w{3,}ed\b/;

function stem(w: string): string {
  // British and American spellings compare equal ("colour" / "color", "favourite" / "favorite").
  let s = w.length > 4 ? w.replace(/our/g, 'or') : w;
  if (s.length === 3 && /[^su]s$/.test(s)) return s.slice(0, -1); // "ads", "ops"
  if (s.length <= 3) return s;
  if (s.endsWith('ies') && s.length > 4) s = s.slice(0, -3) + 'y';
  else if (/(?:ss|x|z|ch|sh)es$/.test(s)) s = s.slice(0, -2);
  else if (s.endsWith('s') && !/(?:ss|us|is)$/.test(s)) s = s.slice(0, -1);
  if (s.endsWith('ing') && s.length > 5) s = s.slice(0, -3);
  else if (s.endsWith('ed') && s.length > 4) s = s.slice(0, -2);
  if (s.endsWith('e') && s.length > 3) s = s.slice(0, -1);
  return s;
}

// (null-prototype tables: they are indexed by words of the text)
const table = (o: Record<string, number>): Record<string, number> => Object.assign(Object.create(null) as Record<string, number>, o);
const wordTable = (o: Record<string, string>): Record<string, string> => Object.assign(Object.create(null) as Record<string, string>, o);
// Words that count occasions: "3 times a week", "4 sessions a month".
const OFTEN_WORD = /^(?:times|x|sessions|classes|nights|days|visits|runs|shifts)$/;
const SCALE = table({ k: 1e3, m: 1e6, mm: 1e6, b: 1e9, bn: 1e9 });
const DURATION = table({
  ms: 0.001, s: 1, sec: 1, secs: 1, second: 1, seconds: 1, min: 60, mins: 60, minute: 60, minutes: 60, h: 3600, hr: 3600, hrs: 3600, hour: 3600, hours: 3600,
  day: 86400, days: 86400, d: 86400, week: 604800, weeks: 604800, wk: 604800, wks: 604800,
});
// "3 weeks ago", "two days later": a point in time, not a length.
const AGO = new Set(['ago', 'later', 'earlier', 'before', 'after', 'back']);
const SIZE = table({ kb: 2 ** 10, mb: 2 ** 20, gb: 2 ** 30, tb: 2 ** 40 });
// Weights in grams ("20 mg", "2kg"): a dose, a parcel.
const MASS = table({ mg: 0.001, g: 1, kg: 1000, lb: 453.6, lbs: 453.6, oz: 28.35 });

/** Canonical reading of a value token, with the unit word after it when there is one. */
function valueKey(raw: string, next: string | undefined): string {
  let s = raw.toLowerCase().replace(/,(?=\d{3}\b)/g, '');
  const money = /^([$€£¥])(\d+(?:\.\d+)?)(k|m|mm|bn|b)?$/.exec(s);
  if (money) return `${money[1]}${Number(money[2]) * (SCALE[money[3] ?? ''] ?? 1)}`;
  const ampm = /^(\d{1,2})(?::(\d{2}))?(am|pm)$/.exec(s) ?? (next === 'am' || next === 'pm' ? /^(\d{1,2})(?::(\d{2}))?()$/.exec(s) : null);
  if (ampm) {
    let h = Number(ampm[1]) % 12;
    if ((ampm[3] || next) === 'pm') h += 12;
    return `${h}:${ampm[2] ?? '00'}`;
  }
  if (/^\d{1,2}:\d{2}$/.test(s)) return s.replace(/^0(\d)/, '$1');
  const unit = /^(\d+(?:\.\d+)?)([a-z]+)$/.exec(s);
  const [num, u] = unit ? [Number(unit[1]), unit[2]] : [Number(s), next ?? ''];
  // "504s", "1990s": a plural of a code or a decade, not seconds (seconds written this way are short: "30s").
  if (unit && u === 's' && unit[1].length >= 3) return unit[1];
  if (Number.isFinite(num)) {
    if (DURATION[u] !== undefined) return `${num * DURATION[u]}s`;
    if (SIZE[u] !== undefined) return `${num * SIZE[u]}B`;
    if (MASS[u] !== undefined) return `${Math.round(num * MASS[u] * 1e6) / 1e6}g`;
    if (unit && SCALE[u] !== undefined) return String(num * SCALE[u]);
    if (unit) return `${num}${u}`;
  }
  s = s.replace(/^v(?=\d)/, '');
  // "16.0" is "16" (longer versions keep their zeros: "0.7.0" is not "0.7").
  s = s.replace(/^(\d+)\.0+$/, '$1');
  return s;
}

/** A capitalised word as it opens a sentence: "Sprints", "Go-live". */
const CAPITALISED = /^\p{Lu}\p{Ll}+(?:-\p{Ll}+)*$/u;
/** A plain word's key: its stem, hyphens left out ("fire-fighting" is "firefighting"). */
const wordKey = (low: string) => (low.includes('-') ? stem(low.replace(/-/g, '')) : stem(low));

// (a channel, a handle or an e-mail address is one name: "#ops-alerts", "@dana", "ap@contoso.com")
const TOKEN_RE = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}|(?<![\p{L}\p{N}])[#@]\p{L}[\p{L}\p{N}_.-]*[\p{L}\p{N}]|[$€£¥]\d[\d,]*(?:\.\d+)?(?:k|m|mm|bn|b)?\b|\d[\d,]*(?:[.:]\d+)*(?:[a-z]{1,7})?(?:[+~][0-9a-z.]*[0-9a-z])*\b|[\p{L}][\p{L}\p{N}'_.+#/-]*[\p{L}\p{N}+#]|[\p{L}]|[:=]|→|->/giu;

/** Opening words to read as plain words (lower case), or none. */
type Lower = ReadonlySet<string> | null;

export function tokenizeSentence(sentence: string, lowerInitial: Lower = null): { toks: Tok[]; raw: string[] } {
  let text = sentence;
  for (const [re, to] of CONTRACTIONS) text = text.replace(re, to);
  const raw = text.match(TOKEN_RE) ?? [];
  const toks: Tok[] = [];
  let atStart = true;
  for (let i = 0; i < raw.length; i++) {
    const r = raw[i].replace(/'s$/i, '').replace(/[.]+$/, '');
    if (r === ':' || r === '=' || r === '→' || r === '->') {
      atStart = true;
      continue;
    }
    const low = r.toLowerCase();
    const next0 = raw[i + 1]?.toLowerCase();
    const next = next0 && /^(?:days?|weeks?)$/.test(next0) && AGO.has(raw[i + 2]?.toLowerCase() ?? '') ? undefined : next0;
    let kind: TokKind;
    let key = low;
    let unitTaken = false;
    let initial = false;
    if (/^\d+[a-z]$/i.test(r) && UNIT_NOUN.test(raw[i - 1] ?? '')) {
      kind = 'name'; // "flat 2B", "gate 4a": a unit's number, no figure
    } else if (/^[$€£¥\d]/.test(r) || /^v\d+(?:\.\d+)*$/i.test(r)) {
      kind = 'value'; // ("the 25th" is a figure; "second", "third" in words stay ordinals)
      key = kind === 'value' ? valueKey(r, next) : low;
      // "at 10" with nothing after it that counts: an hour ("Sprint planning is Monday at 10").
      if (/^\d{1,2}$/.test(key) && Number(key) <= 24 && raw[i - 1]?.toLowerCase() === 'at' && !(next && /^(?:%|percent|per|degrees?|mph|km|miles?|points?|cents?|x|people|persons?|users?|members?|employees?|staff|engineers?|customers?|seats?|kids?|children|guests?)$/.test(next))) key = `${Number(key)}:00`;
      // "2 TB", "10 am", "30 minutes": the unit word is part of the value.
      unitTaken = kind === 'value' && next !== undefined && (DURATION[next] !== undefined || SIZE[next] !== undefined || MASS[next] !== undefined || next === 'am' || next === 'pm') && /^\d[\d,.]*$/.test(r);
    } else if (/^\p{Lu}$/u.test(r) && !atStart && r !== 'I') {
      kind = 'name'; // "Hall B", "plan A" (not "Yesterday I went")
    } else if (r === 'May' && (/^\d{1,2}(?:st|nd|rd|th)?$/.test(raw[i + 1] ?? '') || /^\d{1,2}$/.test(raw[i - 1] ?? '') ||
      /^(?:until|till|through|in|by|since|from|of|early|late|mid|before|after)$/i.test(raw[i - 1] ?? ''))) {
      kind = 'timeref'; // "May 12", "12 May", "until May": the month, not the verb
    } else if (low === 'one' && next && /^[a-z]/.test(next) && !ONE_IDIOM.test(next) && !ONE_BEFORE.has(raw[i - 1]?.toLowerCase() ?? '')) {
      kind = 'value'; // "one approval" / "two approvals" (not "the one", "one of", "one day")
      key = '1';
    } else if (NUMBER_WORDS[low] !== undefined) {
      kind = 'value';
      key = valueKey(NUMBER_WORDS[low], next);
    } else if (ORDINALS.has(low)) kind = 'ordinal';
    // "last sprint" / "this sprint": other periods
    else if (PERIOD_REF.has(low) && PERIOD.test(raw[i + 1] ?? '')) kind = 'timeref';
    else if (NEG.has(low) && !NOT_NEGATION.test(`${low} ${next ?? ''}`)) kind = 'neg';
    // ("IT expanded the drive", "the US office": a team or a place in capitals, not a pronoun)
    else if (PRON1.has(low) && !/^\p{Lu}{2,}$/u.test(r)) kind = 'pron1';
    else if (PRON.has(low) && !/^\p{Lu}{2,}$/u.test(r)) kind = 'pron';
    // ("falls" is a verb: "their birthday falls on 21 March")
    else if (TIMEREF.has(low) || (low.endsWith('s') && TIMEREF.has(low.slice(0, -1)) && low !== 'falls') || low === 'weekdays' || low === 'weekday') kind = 'timeref';
    // A name: an identifier, an all-caps or mixed-case word, a capitalised word inside the
    // sentence, or a capitalised first word that is not a common sentence opener ("Bob took
    // over", but not "New upstream release"). Lower-case hyphenated words are words ("fire-fighting").
    // (an opening "Go-live" is "go-live" when the other memory writes it so)
    else if (!(atStart && lowerInitial?.has(low) && CAPITALISED.test(r)) && (/[\d_@#.]|[a-z][A-Z]|^\p{Lu}{2,}|\p{Lu}[\w]*-/u.test(r) ||
      (/^\p{Lu}/u.test(r) && !STOP.has(low) && (!atStart || !(INITIAL_WORDS.has(low) || doneOpener(r, raw[i + 1])))) ||
      // (a capitalised word before a number is a product's name, whatever the word: "Things 3", "Office 365")
      (!atStart && /^\p{Lu}\p{Ll}+$/u.test(r) && /^\d+$/.test(raw[i + 1] ?? '')))) {
      kind = 'name';
      key = low.replace(/[-_ ]/g, '');
      if (atStart && CAPITALISED.test(r)) initial = true;
    } else {
      kind = 'word';
      key = wordKey(low);
    }
    const content = (kind === 'word' && !STOP.has(low) && low.length > 1) || kind === 'name' || kind === 'value';
    toks.push(initial ? { key, kind, content, low, initial } : { key, kind, content, low });
    atStart = false;
    if (unitTaken) i++;
  }
  // A day next to a month is part of a date, not a figure ("June 3", "30 September").
  const MONTH = /^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)/;
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (t.kind !== 'value' || !/^\d{1,2}$/.test(t.key)) continue;
    const near = [toks[i - 1], toks[i + 1]].some((n) => n && n.kind === 'timeref' && MONTH.test(n.key));
    if (near) toks[i] = { ...t, kind: 'timeref', content: false };
  }
  // "this year" / "last year": two periods, not one.
  for (let i = 1; i < toks.length; i++) {
    if (toks[i].kind === 'timeref' && PERIOD_REF.has(toks[i - 1].low)) toks[i] = { ...toks[i], key: `${toks[i - 1].low}-${toks[i].key}` };
  }
  return { toks, raw };
}

const PARTICIPLE_ADJ = new Set(['supported', 'preferred', 'required', 'allowed', 'recommended', 'estimated', 'expected', 'permitted', 'accepted']);
// "Our accountant is …": the subject is the accountant, not us.
const POSSESSIVE1 = new Set(['my', 'our']);
const DETERMINERS = new Set(['the', 'a', 'an', 'my', 'our', 'your', 'his', 'her', 'their', 'its', 'this', 'that', 'these', 'those']);
const AUX = new Set(['is', 'am', 'are', 'was', 'were', 'be', 'been', 'has', 'have', 'had', 'do', 'does', 'did', 'will', 'would', 'can', 'could', 'should', 'shall', 'may', 'might', 'must']);

// Verbs for the two ends of one thing, as stem pairs: a figure of each is of another attribute.
const OPPOSED = new Set(
  [['start', 'end'], ['begin', 'end'], ['start', 'finish'], ['begin', 'finish'], ['open', 'close'], ['arrive', 'leave'],
    ['arrive', 'depart'], ['land', 'depart'], ['start', 'stop']].flatMap(([x, y]) => [`${stem(x)} ${stem(y)}`, `${stem(y)} ${stem(x)}`]),
);

/** The two sentences' first verbs name the two ends of one thing ("starts at 8:15" / "ends at 3:10"). */
function opposedVerbs(a: SentenceInfo, b: SentenceInfo): boolean {
  return a.verb >= 0 && b.verb >= 0 && OPPOSED.has(`${a.toks[a.verb].key} ${b.toks[b.verb].key}`);
}

/** An auxiliary within three plain words from `from` ("… for students are"; not "… at Google, which is"). */
function pluralBeforeAux(toks: Tok[], from: number): boolean {
  for (let j = from; j < toks.length && j < from + 3; j++) {
    if (AUX.has(toks[j].low)) return j > from;
    if (toks[j].kind !== 'word' && toks[j].kind !== 'name' || /^(?:which|that|who|where|when)$/.test(toks[j].low)) return false;
  }
  return false;
}

// Past forms of change verbs, which open a note of what was done ("Moved the repo to GitLab").
const OPENING_VERBS = new Set(('switched moved migrated replaced swapped bumped upgraded downgraded raised lowered increased decreased ' +
  'changed handed transferred reassigned dropped ditched renamed rescheduled postponed relocated rotated retired').split(' '));
// A past form that can open a note of what its writer did.
// Nouns whose number names one of them ("flat 2B", "room 12a").
const UNIT_NOUN = /^(?:flat|apartment|apt|unit|room|suite|gate|seat|floor|block|building|bay|desk|hall|platform|terminal|ward|bed)$/i;
// Words of how often or how long something holds, not of what a figure counts.
const HOW_OFTEN = /^(?:daily|nightly|weekly|fortnightly|monthly|quarterly|yearly|annually|hourly|twice|once|each|every|now|today|instead|total|again)$/;
// Rates in one word ("1,000 rpm", "50 qps"): the period they count per.
const RATE_WORD = new Map([['rpm', 'minute'], ['qpm', 'minute'], ['rps', 'second'], ['qps', 'second'], ['rph', 'hour']]);
/** Value tokens less the last of each figure a bracketed aside of `text` (words with it) names. */
function withoutAsides(values: Tok[], text: string): Tok[] {
  const out = [...values];
  for (const m of text.matchAll(/\(([^)]*)\)/g)) {
    const toks = tokenizeSentence(m[1]).toks;
    // (a bracket that holds the value itself, "New upstream release (1.3.92)", is no aside)
    if (toks.filter((t) => t.content && t.kind !== 'value').length < 2) continue;
    for (const t of toks) {
      const i = out.findLastIndex((v) => t.kind === 'value' && v.key === t.key);
      if (i >= 0) out.splice(i, 1);
    }
  }
  return out;
}

// The newer names the time something moved to ("move our calls to Wednesday mornings", "is now on
// Tuesdays", "on Saturday mornings now", "now wants them only on Fridays"), or names a new date ("new target is March 28").
// Nouns whose value is a date ("birthday", "deadline"): a sentence about one that names a date gives its value.
const DATE_NOUN = /^(?:birthday|anniversary|deadline|dob|expiry|expiration|go-live)$/;
const dateNoun = (s: SentenceInfo) => s.subject.head !== null && DATE_NOUN.test(s.toks.find((t) => t.key === s.subject.head)?.low ?? '');
/** The times that qualify a sentence's subject, before its head ("The Q3 report deadline"). */
const subjectTimes = (s: SentenceInfo) => s.toks.slice(0, Math.max(0, s.toks.findIndex((t) => t.key === s.subject.head))).filter((t) => t.kind === 'timeref').map((t) => t.key).join(' ');
const NEW_DATE = /^(?:target|date|deadline|eta|due|launch|start|go-live|ship)$/;
const movedToTime = (s: SentenceInfo) => s.toks.some((t, j) => t.kind === 'timeref' &&
  (s.toks[j - 1]?.low === 'to' || (/^(?:next|this|the)$/.test(s.toks[j - 1]?.low ?? '') && s.toks[j - 2]?.low === 'to') ||
    (/^(?:on|every)$/.test(s.toks[j - 1]?.low ?? '') && s.toks.some((x) => x.low === 'now')) ||
    s.toks.slice(Math.max(0, j - 4), j).some((x, i, w) => NEW_DATE.test(x.low) && w[i - 1]?.low === 'new') ||
    // ("departing May 19 instead"; not one week's: "on Saturday instead this week")
    (s.toks[j + 1]?.low === 'instead' && !THIS_PERIOD.test(s.text.toLowerCase()) && !s.toks.some((x) => OCCASION.test(x.key)))));

/** The newer keeps the older's times joined to a new one ("on Tuesdays and Fridays now"): one more, not another. */
function timesJoined(a: SentenceInfo, b: SentenceInfo): boolean {
  const older = new Set(a.toks.filter((t) => t.kind === 'timeref').map((t) => t.key));
  return b.toks.some((t, j) => t.kind === 'timeref' && older.has(t.key) && /^(?:and|&)$/.test(b.toks[j + 1]?.low ?? '') && b.toks[j + 2]?.kind === 'timeref');
}

// The time a sentence says something lasts until ("until May", "through August"), or null.
function endTimeOf(s: SentenceInfo): string | null {
  const i = s.toks.findIndex((t, j) => t.kind === 'timeref' && /^(?:until|till|through|thru)$/.test(s.toks[j - 1]?.low ?? ''));
  return i < 0 ? null : s.toks[i].key;
}

// A note opening with what was done to something: "Finished The Overstory", "Booked the venue".
const DETERMINER = /^(?:the|a|an|my|our|his|her|their)$/i;
const doneOpener = (word: string, next: string | undefined) => /^\p{Lu}[a-z]{2,}ed$/u.test(word) && DETERMINER.test(next ?? '');
const OPENING_ADVERB = /^(?:finally|just|recently|also|officially|already|eventually)$/;
const PAST_OPENER = /^(?:\w{3,}ed|sold|bought|quit|left|got|took|made|began|went|came|gave|kept|ran|put|set|cut|sent|spent|paid|met|found|built|wrote|lost|won)$/;
// "again" after a copula and its value: back to a state ("max team size is 8 again").
const STATE_AGAIN = /\b(?:is|are|was|were|'s|'re)\s+(?:\S+\s+){1,3}?again\b/g;
// Adverbs that stand between a subject and its verb ("backups now kick off", "Dana still leads").
const VERB_ADVERBS = new Set(['now', 'still', 'currently', 'usually', 'always', 'never', 'often', 'typically', 'normally', 'generally', 'mostly', 'rarely', 'sometimes']);

/**
 * Index of the first token that ends the subject (a verb), or -1. Auxiliaries always do; a word
 * that may be a verb or a noun ("report", "run", "updates") only when what follows starts an
 * object (a function word, a name, a figure): "the Q3 report deadline is" keeps "report".
 */
function firstVerb(toks: Tok[]): number {
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (t.kind === 'neg' || AUX.has(t.low)) return i;
    const next = toks[i + 1];
    const prev = toks[i - 1];
    // "Switched outbound SMS to MessageBird": a note that opens with what was done has no subject.
    if (i === 0 && t.kind === 'word' && OPENING_VERBS.has(t.low)) return 0;
    // "backups now kick off at 4:00": after an adverb of time or frequency comes the verb.
    if (i > 0 && t.kind === 'word' && prev && VERB_ADVERBS.has(prev.low)) return i;
    const maybe = VERBS.has(t.low) || (i > 0 && t.kind === 'word' && t.low.length > 3 && /(?:[^su]s|ed)$/.test(t.low));
    if (!maybe || t.kind !== 'word') continue;
    // "Node version for builds is 18": after a preposition or a determiner it is a noun.
    if (prev && !VERBS.has(t.low) && (HEAD_PREP.has(prev.low) || DETERMINERS.has(prev.low))) continue;
    // "Min supported Android version": a participle that qualifies the noun after it.
    if (PARTICIPLE_ADJ.has(t.low) && next && (next.kind === 'name' || (next.content && next.kind === 'word'))) continue;
    // "Annual dues are $150", "Dues for students are $75": an -s form before the verb is a plural noun.
    // (so is one before a verb's plain form: "Nightly backups run at 2:00")
    if (!VERBS.has(t.low) && /[^su]s$/.test(t.low) && next && (AUX.has(next.low) || (HEAD_PREP.has(next.low) && pluralBeforeAux(toks, i + 2)) ||
      (next.kind === 'word' && VERBS.has(next.low) && !/s$/.test(next.low) && !toks[i + 2]?.content))) continue;
    // "the cluster runs version 1.27": an -s/-ed form right after a noun is its verb.
    if (prev && (prev.content || prev.kind === 'name') && /(?:[^su]s|ed)$/.test(t.low)) return i;
    if (!next || !next.content || next.kind === 'name' || next.kind === 'value' || next.kind === 'timeref') return i;
  }
  return -1;
}

// Verbs that state a value of their subject ("runs on Jenkins", "lives in Lyon", "costs $20").
const SLOT_VERBS = new Set(
  ('is are use uses run runs live lives work works drive drives cost costs host hosted keep kept store stored report reports ' +
    'own owns lead leads manage manages handle handles teach teaches attend attends start starts meet meets take takes').split(' '),
);
const SLOT_FILLER = new Set(['a', 'an', 'the', 'my', 'our', 'his', 'her', 'their', 'its', 'on', 'in', 'at', 'with', 'by', 'for', 'to', 'from', 'now', 'still', 'currently', 'dr', 'mr', 'ms', 'mrs']);

/**
 * The sentence gives its subject one value: a short `key: value` note, or a stating verb whose
 * object (a determiner or preposition apart) is a name or a figure ("My manager is Priya Raman",
 * "The repo is hosted on Bitbucket", "My rent is $1,850"); not an account of what someone did or felt
 * ("John is enthusiastic about helping Maria").
 */
function statesValue(s: SentenceInfo): boolean {
  if (s.kv) return s.kvShort;
  const v = s.verb;
  if (v < 0 || !SLOT_VERBS.has(s.toks[v].low)) return false;
  for (let i = v + 1; i < s.toks.length && i <= v + 4; i++) {
    const t = s.toks[i];
    if (t.kind === 'name' || t.kind === 'value') return true;
    if (!SLOT_FILLER.has(t.low) && !(SLOT_VERBS.has(t.low) && i === v + 1)) return false;
  }
  return false;
}

// Words of a time phrase that opens a sentence ("Starting this month", "As of May 1", "From Monday on").
const TIME_OPENER = new Set(['starting', 'from', 'as', 'of', 'since', 'effective', 'beginning', 'this', 'these', 'next', 'last', 'on', 'the']);

/** A subject without the time phrase it opens with ("Starting this month the office" → "the office"). */
function withoutTimeOpener(toks: Tok[]): Tok[] {
  let k = 0;
  let time = false;
  while (k < toks.length && (toks[k].kind === 'timeref' || (toks[k].kind === 'value' && time) || TIME_OPENER.has(toks[k].low))) {
    if (toks[k].kind === 'timeref') time = true;
    k++;
  }
  return time && k < toks.length ? toks.slice(k) : toks;
}

// "… go to Alice, not Bob": a replacement ("instead of Bob"), not a denial.
const NOT_INSTEAD = /,\s*not\s+(?=(?:the\s+|a\s+|an\s+)?[\p{Lu}\d$])/gu;

// Who said it is not what was said: "…, per Lee", "(according to finance)", "According to Dana, …".
// ("per" only before a name or "the …": "per Lee", "per the vendor", never "per month")
// ("via" only after a comma, a dash or a bracket: "sent via Postmark" names the value)
const ATTRIBUTION_END = /(?:[\s,;(—–-]+(?:per (?=\p{Lu}|the )|[Aa]ccording to |[Aa]s (?:told|said|confirmed) by |h\/t )|\s*[,;(—–-]\s*via (?=\p{Lu}))[^,.;:()]{1,40}\)?[.!]?\s*$/u;
const ATTRIBUTION_START = /^(?:[Pp]er (?=\p{Lu}|the )|[Aa]ccording to )[^,;:]{1,40},\s*(?=\S)/u;

// Why it changed is not what changed: "Launch slipped to June 2 because of the payments audit".
// ("due to", "in order to" are kept: in a changelog's line they say what the change is for)
// ("told to avoid ibuprofen" is what was said, not why)
const REASON_END = /(?:[\s,;(—–-]+(?:because|so that)|(?<!\b(?:told|asked|advised|wants?|needs?|decided|chose|tr(?:y|ies|ying)|plans?|going))[\s,;(—–-]+to avoid)\b[^;]{1,100}$/i;

/** A sentence without the source it cites and the reason it gives, if that leaves anything. */
function withoutSourceOrReason(text: string): string {
  const cut = text.replace(ATTRIBUTION_START, '').replace(ATTRIBUTION_END, '').replace(REASON_END, '');
  return cut.trim() ? cut : text;
}

// An opening clause of an event that happened ("After the reserved instances kicked in, …", "Since we
// moved, …"): what follows holds since then.
const SINCE_EVENT = /^\s*(?:after|since|now that|following|once)\b[^,;:]{0,60}\b(?:\w{3,}ed|went|began|got|came|took|left|sold|bought|moved)\b[^,;:]{0,30},\s+\S/i;
// A clause of time or cause that opens a sentence and ends at a comma, before a main clause of its own.
// (not "In Berlin, …", "For the API, …": a place or a purpose may qualify the subject)
// (or, without a comma, at a pronoun that opens the main clause: "After last Thursday's load test we raised the pool limit")
const LEADING_CLAUSE = /^\s*(?:after|since|once|when|whenever|now that|as soon as|because|following|given that|starting|beginning|as of|effective|going forward|from now on|until|before|recently|lately)\b(?:[^,;:]{0,60},\s+(?=\S+\s+\S)|[^,;:]{1,60}?\s(?=(?:we|i|they|he|she)\s+\S+\s+\S))/i;

// References to an issue or a pull request ("See #120.", "(Closes: #411677)") are no values.
// ("Ticket #4812 is assigned to Priya" keeps its number: it names the ticket)
const ISSUE_REF = /\s*\(?\b(?:closes|fixes|fixed|see|bug|issue|pr|lp):?\s*#\d+\)?\.?|\s*\(#\d+\)/gi;

/** A sentence without its issue references ("See #120." alone reads "See issue."). */
function withoutIssueRefs(text: string): string {
  const cut = text.replace(ISSUE_REF, '').trim();
  return cut ? cut : text.replace(/#\d+/g, 'issue');
}

// "open from 8am to 8pm", "from Monday to Friday": a span, not a change from one value to another,
// unless a verb of change comes before it ("moved from Tuesday to Thursday").
const TIME_POINT = String.raw`(?:\d{1,2}(?::\d\d)?\s*(?:am|pm)?|noon|midnight|(?:mon|tues|wednes|thurs|fri|satur|sun)day)`;
const TIME_SPAN = new RegExp(String.raw`\bfrom\s+(${TIME_POINT})\s+(?:to|until|till|through)\s+(${TIME_POINT})\b`, 'gi');
const CHANGE_BEFORE = /\b(?:mov|chang|push|shift|went|go|switch|reschedul|bump|extend|cut|rais|lower|increas|decreas|reduc|shorten|expand|slipp|delay)\w*\s+(?:\S+\s+){0,4}$/i;

// Opening hours in bare figures ("Support hours are 9 to 5", "open 10-6"): clock times, the second after the first.
const HOURS_TALK = /\b(?:hours|open|opens|staffed|available|shift)\b/i;
const BARE_HOURS = /\b(\d{1,2})\s*(?:to|-|–)\s*(\d{1,2})\b(?!\s*(?:%|[ap]m\b|:|[.,]\d|(?:days?|weeks?|months?|years?|hours?|minutes?|mins?|people|persons?|users?|seats?|items?|times|x)\b))/gi;

// A two-week cadence in any of its spellings is "fortnightly": "every other week", "every 2 weeks"
// and "biweekly" restate it, "weekly" replaces it.
const FORTNIGHTLY = /\b(?:(?:once )?every (?:other|2|two) weeks?|bi-?weekly)\b/gi;
// Midnight and noon as a time of day are clock times ("goes to bed around midnight" / "around 10:30").
const NAMED_HOUR = /\b(at|around|about|by|until|till|before|after|from|to) (midnight|noon)\b/gi;
// Service at every hour is the span of a whole day ("24/7", "around the clock").
const ALL_HOURS = /\b24\/7\b|\b(?:a)?round the clock\b/gi;
// ("every other Thursday" is fortnightly, on Thursdays)
const EVERY_OTHER_DAY = /\bevery (?:other|second|2nd) ((?:mon|tues|wednes|thurs|fri|satur|sun)day)\b/gi;
// ("twice a week" is "2 times a week")
const TIMES_A = /\b(once|twice|thrice)(?= (?:a|per) (?:day|week|month|year)\b)/gi;
const TIMES_N = new Map([['once', '1 times'], ['twice', '2 times'], ['thrice', '3 times']]);
const asTimeWords = (text: string) => text.replace(TIMES_A, (w: string) => TIMES_N.get(w.toLowerCase()) ?? w)
  .replace(EVERY_OTHER_DAY, 'fortnightly on $1').replace(FORTNIGHTLY, 'fortnightly').replace(ALL_HOURS, 'between 0:00 and 24:00')
  .replace(NAMED_HOUR, (_, p: string, h: string) => `${p} ${h.toLowerCase() === 'noon' ? '12:00' : '0:00'}`);

function asRanges(text: string): string {
  const spans = text.replace(TIME_SPAN, (m, x: string, y: string, at: number) => (CHANGE_BEFORE.test(text.slice(0, at)) ? m : `between ${x} and ${y}`));
  if (!HOURS_TALK.test(spans)) return spans;
  return spans.replace(BARE_HOURS, (m, x: string, y: string) => {
    const [a, b] = [Number(x), Number(y)];
    if (a < 1 || a > 12 || b < 1 || b > 12) return m;
    return `between ${a}:00 and ${b <= a ? b + 12 : b}:00`;
  });
}

// "Updated shipping address — 480 Harbor Rd": a note's key said to be new.
const REVISED_KEY = /^(?:updated|revised|corrected|changed)\s+(?=[^:=\n]{1,60}(?::|\s[—–])\s)/i;
const KV_RE = /^\s*([^:=\n]{1,60}?)\s*(?::|=|→|->)\s+(\S.*)$/;
// A spaced dash separates a key too ("Shipping address — 480 Harbor Rd"), when the key opens with
// no verb and no word past its first is one ("Got rid of the Tesla — …", "Just finished relocating
// — I live in Vancouver now", "Gym put prices up — …" are clauses).
const DASH_KV_RE = /^\s*(\S+(?:\s+[\w'-]+){0,5}?)\s+[—–]\s+(\S.*)$/;
function keyValue(text: string): RegExpExecArray | null {
  const kv = KV_RE.exec(text);
  if (kv) return kv;
  const dashed = DASH_KV_RE.exec(text);
  const words = dashed?.[1].toLowerCase().split(/\s+/) ?? [];
  return dashed && !VERBS.has(words[0]) && !words.slice(1).some((w) => /(?:ed|ing)$/.test(w) || VERB_STEMS.has(stem(w))) ? dashed : null;
}

function analyzeSentence(full: string, lowerInitial: Lower = null, speaker: string | null = null): SentenceInfo {
  // "Update: …", "Quick note after the reorg: …" introduce the sentence; they are not its subject.
  // (a status label over a short value is a key: "status: job hunting")
  const rest = LEAD_IN.test(full) ? full.replace(LEAD_IN, '').trim() : '';
  const led0 = rest && (!/^\s*(?:status|info)\s*:/i.test(full) || rest.replace(/\s*\([^)]*\)/g, '').split(/\s+/).length > 3 || /[.!?]$/.test(rest)) ? rest : full;
  // "Updated shipping address — 480 Harbor Rd": a note's key said to be new; the word marks a change, the rest is the key.
  const revised = REVISED_KEY.exec(led0);
  const led = revised ? led0.slice(revised[0].length) : led0;
  const text = asTimeWords(asRanges(withoutIssueRefs(withoutSourceOrReason(asSaid(withoutOpener(led)))).replace(NOT_INSTEAD, ', instead of ')));
  const low = text.toLowerCase();
  const kvm = keyValue(text);
  // (a clause before the colon is no key: "Newsletter cadence changed: it now goes out on Tuesdays",
  // "Airline rebooked Kenji: …")
  const kv = Boolean(kvm && kvm[1].split(/\s+/).length <= 6 && !/(?:^|\s)(?:is|are|was|were|has|have|had|said|says)(?:\s|$)/i.test(kvm[1]) &&
    !/\s(?:changed|updated|moved|switched|changes|moves|renegotiated|revised|adjusted|raised|lowered|increased|reduced|extended)$/i.test(kvm[1]) && !/^\S+(?:\s+\S+)?\s+[a-z]+ed\s+[A-Z]/.test(kvm[1]) && !/^\w+ing\s+(?:up|with|to|about|over|through|on|in)\b/i.test(kvm[1]));
  const { toks } = tokenizeSentence(text, lowerInitial);
  // The main clause, after a leading clause of time or cause ("After the reserved instances kicked
  // in, AWS is down to $8k"): its subject is the sentence's. The clause's words stay in the sentence.
  const clause = kv ? null : LEADING_CLAUSE.exec(text);
  const main = clause ? tokenizeSentence(text.slice(clause[0].length), lowerInitial).toks : toks;
  const start = toks.length - main.length;
  // ("Finished the book": an opening past verb before its object is the verb, whatever the word)
  const verb = main[0]?.kind === 'word' && PAST_OPENER.test(main[0].low) && DETERMINER.test(main[1]?.low ?? '') ? 0 : firstVerb(main);
  let subjectToks: Tok[];
  if (kv) {
    subjectToks = tokenizeSentence(kvm![1], lowerInitial).toks;
  } else if (main[0]?.kind === 'pron1' && main[1]?.low !== 'and' && !(POSSESSIVE1.has(main[0].low) && main[1]?.content)) {
    // "We store backups in S3": the subject is "we", whatever the verb ("store" is not in any list).
    subjectToks = [toks[start]];
  } else {
    subjectToks = verb <= 0 ? [] : toks.slice(start, start + verb);
  }
  subjectToks = withoutTimeOpener(subjectToks);
  let subject = subjectOf(subjectToks);
  // "Grace's manager is Heidi": the relation is an attribute of Grace, not another subject.
  const complement = toks[start + subjectToks.length + 1];
  if (!kv && subject.head && RELATIONAL.has(subject.head) && subject.keys.length > 1 && COPULA.has(toks[start + subjectToks.length]?.low ?? '') &&
    complement && complement.kind === 'name') {
    subject = subjectOf(subjectToks.slice(0, -1));
  }
  // A note that opens with what its writer did ("Sold the Golf.", "Switched SMS to MessageBird") speaks in the first person.
  // (after an adverb too: "Finally moved into an apartment")
  const opener = main[0] && OPENING_ADVERB.test(main[0].low) ? 1 : 0;
  // (an opening past verb read as a name for its capital is the verb: "Gave up on the vegetarian thing")
  const doneByWriter = !kv && main[opener] !== undefined && PAST_OPENER.test(main[opener].low) &&
    ((main[opener].kind === 'word' && (verb === 0 || (opener === 1 && verb === 1))) || (opener === 0 && main[0].initial === true && verb < 0));
  const subjectKind: SentenceInfo['subjectKind'] = subjectToks.some((t) => t.kind === 'pron1') || doneByWriter
    ? 'first'
    : subject.keys.length
      ? 'named'
      : subjectToks.some((t) => t.kind === 'pron')
        ? 'pronoun'
        : 'none';
  const marks = new Set<Mark>();
  // ("is 8 again" is a state back to a value, not one more occurrence)
  const multiText = () => low.replace(NO_MORE, '').replace(TO_ANOTHER, '').replace(STATE_AGAIN, '');
  for (const [m, re] of MARKERS) if (m === 'negchange' ? stopsSomething(low) : re.test(m === 'multi' ? multiText() : low)) marks.add(m);
  if (revised || SINCE_EVENT.test(text)) marks.add('change');
  // Rates per second, minute or hour compare per hour ("100 requests per minute" = "6,000 per hour").
  const PER_HOUR = table({ second: 3600, sec: 3600, minute: 60, min: 60, hour: 1, hr: 1 });
  const PER_PERIOD = wordTable({ day: 'd', week: 'w', month: 'mo', year: 'y' });
  // (a note's bracketed aside names no value of its key: "Backup: 3:00 from tonight (maintenance overlaps 1:00)")
  const valueToks = withoutAsides(toks.filter((t) => t.kind === 'value'), kv ? kvm![2] : '');
  const values = valueToks.map((t) => {
    const i = toks.indexOf(t);
    const per = toks.slice(i + 1, i + 4).findIndex((x) => x.low === 'per' || x.low === 'a');
    // ("1,000 rpm", "50 qps": a rate in one word; "60 req/min": what per what)
    const slashed = /^[a-z]+\/([a-z]+)$/.exec(toks[i + 1]?.low ?? '')?.[1];
    const unit = per >= 0 ? toks[i + 2 + per]?.low.replace(/s$/, '') : RATE_WORD.get(toks[i + 1]?.low ?? '') ?? slashed;
    const n = Number(t.key);
    // How often: "three times a week", "five days a week" (a count of days, not a length), "twice a month".
    const days = /^(\d+)s$/.exec(t.key) && Number(t.key.slice(0, -1)) % 86400 === 0 ? Number(t.key.slice(0, -1)) / 86400 : null;
    const often = unit && PER_PERIOD[unit] && (days !== null || OFTEN_WORD.test(toks[i + 1]?.low ?? '')) ? days ?? n : null;
    if (often !== null && Number.isFinite(often)) return `${often}/${PER_PERIOD[unit!]}`;
    return unit && PER_HOUR[unit] && Number.isFinite(n) ? `${n * PER_HOUR[unit]}/h` : t.key;
  });
  // What each value is of: the two content words before it and the one after ("Standards-Version
  // to 4.6.2", "costs $25", "64 GB of RAM"), and the subject when the value is what it is ("the
  // build agents' Node version is 18").
  const attributes = new Set<string>();
  const counted = new Set<string>();
  const rates = new Set(valueToks.filter((_, j) => values[j].endsWith('/h')));
  const leading = new Set<string>();
  toks.forEach((t, i) => {
    if (t.kind !== 'value') return;
    // (a rate counts per time, whether or not it names what: "100 requests per minute" / "300/min")
    if (rates.has(t)) counted.add('/h');
    let n = 0;
    // (a note's key is its subject, not what the figure is of: the look-back stops there)
    const from = kv ? subjectToks.length : 0;
    for (let j = i - 1; j >= from && n < 3; j--) {
      if (!toks[j].content || toks[j].kind === 'value') continue;
      attributes.add(toks[j].key);
      if (n === 0) leading.add(toks[j].key);
      n++;
    }
    // A plain count names what it counts right after it ("5 seats", "40 people", "2 TB of disk").
    // (a version counts nothing: "v4.2 slipped")
    if (/^\d+(?:\.\d+)?(?:B|g)?$/.test(t.key) && !/^v\d/.test(t.low)) {
      const next = toks[i + 1]?.low === 'of' ? toks[i + 2] : toks[i + 1];
      // (a size's own measure is no thing counted: "2 TB of space", "500 GB of storage")
      // (nor how often: "100 mg daily" counts milligrams, not days; "3 times a week" is a frequency)
      // (a figure with decimals counts only things in the plural: "1.5 cups", not the "3.0 quilt" of a version)
      if (next && next.content && next.kind === 'word' && !(dimensionOf(t.key) === 'size' && /^(?:spac|storag|capacit)/.test(next.key)) &&
        !(/^\d+\.\d+$/.test(t.low) && !/s$/.test(next.low)) &&
        !(toks[i + 1] === next && (HOW_OFTEN.test(next.low) || OFTEN_WORD.test(next.low)))) {
        // "500 req/min": what is counted is the part before the rate.
        const what = next.key.split('/')[0] || next.key;
        attributes.add(what);
        counted.add(what);
      } else if (kv && i === subjectToks.length && !next && subject.head && /^\d+$/.test(t.key)) {
        // "Seats: 120": a note's bare count counts what its key names.
        counted.add(subject.head);
      }
    }
    // What a clause's figure is of includes its subject ("the K8s cluster runs version 1.27").
    if (!kv || toks.slice(Math.max(0, i - 3), i).some((x) => COPULA.has(x.low))) for (const k of subject.keys) attributes.add(k);
  });
  const attributeNames = new Set(toks.filter((t) => t.kind === 'name' && attributes.has(t.key)).map((t) => t.key));
  // A note's value, without what it says in brackets ("eu-west-1 (moved for GDPR)", "Marcus (Dana rotated off)").
  const bare = kv ? kvm![2].replace(/\s*\([^)]*\)\s*/g, ' ').trim() : '';
  const kvValueToks = !kv ? [] : bare && bare !== kvm![2].trim() ? tokenizeSentence(bare, lowerInitial).toks : toks.slice(subjectToks.length);
  return {
    text: full,
    toks,
    keys: new Set(toks.filter((t) => t.content).map((t) => t.key)),
    subject,
    subjectKind,
    attributes,
    attributeNames,
    counted,
    leading,
    verb,
    kv,
    kvValue: new Set(kvValueToks.filter((t) => t.content).map((t) => t.key)),
    // a value of at most three words and no verb ("dana", "us-east-1", "$25/month"), not a sentence
    // (a participle in a value of two words is a state: "status: employed", "job hunting")
    kvShort: kv && kvValueToks.filter((t) => t.content).length <= 3 &&
      !kvValueToks.some((t) => t.kind === 'word' && (VERB_STEMS.has(t.key) || (/(?:ed|ing)$/.test(t.low) && kvValueToks.filter((x) => x.content).length > 2))),
    polarity: toks.filter((t) => t.kind === 'neg').length % 2,
    values,
    versions: values.filter((v) => /^\d+\.\d+/.test(v)).length,
    marks,
    past: PAST.test(low),
    replacement: replacementOf(text),
    speaker,
  };
}

// How a sentence names a replaced value, and which side is the old one. `bounded`: the first span
// sits between two words of the phrase ("replaced X with", "from X to"); otherwise it is everything
// before the phrase and its last words are the value.
const REPLACEMENT_FORMS: Array<{ re: RegExp; order: 'old-new' | 'new-old' | 'new' | 'old'; bounded?: boolean }> = [
  { re: /\breplac(?:e|ed|es|ing)\s+(.+?)\s+(?:with|by)\s+(.+)$/i, order: 'old-new', bounded: true },
  { re: /^(.+?)\s+(?:(?:was|were|is|are|has been|have been|got|gets) )?(?:replaced|superseded|succeeded) by\s+(.+)$/i, order: 'old-new' },
  { re: /\bfrom\s+(.+?)\s+(?:to|into)\s+(.+)$/i, order: 'old-new', bounded: true },
  // "moved off Read the Docs to Cloudflare Pages", "quit violin and switched to cello"
  { re: /\b(?:mov(?:ed|es|ing)?|migrat(?:ed|es|ing)?|got|came) off\s+(.+?)\s+(?:to|onto)\s+(.+)$/i, order: 'old-new', bounded: true },
  // "(replaced the Pixel in October)", "(migrated off Jenkins in March)": the old value alone
  { re: /\breplac(?:ed|es|ing)\s+(?:the |my |our |his |her |their )?(?!with\b|by\b)(.+)$/i, order: 'old' },
  { re: /\b(?:mov(?:ed|es|ing)?|migrat(?:ed|es|ing)?|switch(?:ed|es|ing)?|got|came) (?:off|away from)\s+(.+)$/i, order: 'old' },
  // ("ripped out Sentry; errors go to Rollbar")
  { re: /\b(?:quit|dropped|ditched|left|stopped|cancel(?:l)?ed|ripped out|got rid of)\s+(.+?)\s*(?:,|and|;)\s+(?:\w+ ){0,2}?(?:switched|moved|went|changed|turned|go|goes) (?:over )?to\s+(.+)$/i, order: 'old-new', bounded: true },
  // "wiped Ubuntu and installed Fedora"
  { re: /\b(?:wiped|uninstalled|removed|deleted)\s+(.+?)\s+and\s+(?:installed|put on|set up)\s+(.+)$/i, order: 'old-new', bounded: true },
  // "dropped Mixpanel for PostHog", "left Google for Stripe" (a name after "for": not "for health reasons")
  { re: /\b(?:dropped|ditched|abandoned|ripped out|left|quit|swapped)\s+(.+?)\s+(?:for|in favou?r of)\s+(?:(?:a|an|the)\s+)?(?=[\p{Lu}\d])(.+)$/u, order: 'old-new', bounded: true },
  { re: /^(.+?)\s*(?:->|→|=>)\s*(.+)$/, order: 'old-new' },
  { re: /^(.+?)\s+(?:instead of|rather than)\s+(.+)$/i, order: 'new-old' },
  { re: /\bin favou?r of\s+(.+)$/i, order: 'new' },
  { re: /\b(?:took|takes|taking|take)(?: [^.;]{1,40})? over\b(?! to\b).*?\bfrom\s+(.+)$/i, order: 'old' },
];

/**
 * The value a span names: its content words that are not verbs, cut at punctuation and at the
 * clause that follows ("autotools-dev to fix FTBFS" is autotools-dev). A span bounded by the phrase
 * ("from X to") keeps up to three words; otherwise the word next to the phrase.
 */
function valueKeys(span: string, side: 'start' | 'end' | 'bounded'): string[] {
  const parts = span.split(/[,;()[\]]|:\s|\s[-–]\s|\.\s|\s(?:to|for|because|since|so|which|as|and|but|after|when)\s/i).map((x) => x.trim()).filter(Boolean);
  const part = side === 'end' ? parts.at(-1) : parts[0];
  if (!part) return [];
  const ks = tokenizeSentence(part).toks.filter((t) => t.content && !VERB_STEMS.has(t.key)).map((t) => t.key);
  return side === 'bounded' ? ks.slice(0, 3) : side === 'end' ? ks.slice(-1) : ks.slice(0, 1);
}

/** The replacement a sentence states, or null. */
// "From Monday, standup moves to 10:00": a starting time, not an old value.
const FROM_TIME = /^(?:now|today|tomorrow|next|this|then|here|monday|tuesday|wednesday|thursday|friday|saturday|sunday|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|q[1-4]\b|(?:19|20)\d\d\b|the (?:start|beginning|end|first))/i;

function replacementOf(text: string): Replacement | null {
  for (const { re, order, bounded } of REPLACEMENT_FORMS) {
    const m = re.exec(text);
    if (!m) continue;
    if (re.source.startsWith('\\bfrom') && FROM_TIME.test(m[1])) continue;
    if (order === 'new') return { old: [], new: valueKeys(m[1], 'start') };
    if (order === 'old') return { old: valueKeys(m[1], 'start'), new: [] };
    const first = valueKeys(m[1], bounded ? 'bounded' : 'end');
    const second = valueKeys(m[2], 'start');
    const r = order === 'old-new' ? { old: first, new: second } : { old: second, new: first };
    if (r.old.length || r.new.length) return r;
  }
  return null;
}

const ABBREV = new Set(['mr', 'mrs', 'ms', 'dr', 'st', 'jr', 'sr', 'inc', 'ltd', 'co', 'corp', 'vs', 'etc', 'e.g', 'i.e', 'no', 'approx', 'dept', 'prof', 'est', 'avg', 'incl', 'excl', 'appt', 'mgr', 'addr', 'tel', 'ext', 'ca', 'cf']);

/** Sentences of a text: line breaks, bullets and sentence ends (not abbreviations or decimals). */
export function sentencesOf(text: string): string[] {
  const out: string[] = [];
  for (const line of text.replace(/\r/g, '').split(/\n+|\s+[*•]\s+/)) {
    let start = 0;
    const re = /[.!?]+(?=\s+["'(]?[\p{Lu}\d])/gu;
    let m: RegExpExecArray | null;
    while ((m = re.exec(line))) {
      const before = line.slice(start, m.index);
      const last = /([\p{L}.']+)$/u.exec(before)?.[1]?.toLowerCase() ?? '';
      // (an ordinal ends a sentence: "due on the 1st. He …"; "St." after a name does not)
      const ordinal = /\d(?:st|nd|rd|th)$/i.test(before);
      if (m[0] === '.' && !ordinal && (ABBREV.has(last) || /^\p{L}$/u.test(last))) continue;
      out.push(line.slice(start, m.index + m[0].length));
      start = m.index + m[0].length;
    }
    out.push(line.slice(start));
  }
  return out.map((s) => s.replace(/^\s*[-*+•]\s+/, '').trim()).filter((s) => /[\p{L}\d]/u.test(s));
}

/**
 * A lead-in's list of three or more short items, one sentence per item: "Meeting notes 3/4: budget
 * approved, hiring two engineers, launch set for May 12" holds three facts, the last about the launch.
 */
function leadInItems(sentence: string): string[] {
  const m = LEAD_IN.exec(sentence);
  if (!m) return [sentence];
  const items = sentence.slice(m[0].length).split(/\s*[,;]\s+(?:and\s+)?/).map((x) => x.trim());
  if (items.length < 3 || items.some((x) => !x || x.split(/\s+/).length > 10)) return [sentence];
  return [`${m[0]} ${items[0]}`, ...items.slice(1)];
}

/**
 * A record's fields, one sentence each: "Household budget: groceries £400/month, utilities £180,
 * childcare £950" holds three notes ("childcare: £950"), and "Profile: Dana, 34, designer at Loom,
 * lives in Austin" four about Dana ("Dana lives in Austin"). Only under a capitalised key (a
 * changelog's package title stays the subject of its lines).
 */
function fieldItems(sentence: string): string[] {
  const m = KV_RE.exec(sentence);
  if (!m || !/^\s*\p{Lu}/u.test(m[1]) || m[1].split(/\s+/).length > 4 || LEAD_IN.test(sentence)) return [sentence];
  const items = m[2].replace(/[.!]$/, '').split(/\s*[,;]\s+(?:and\s+)?/).map((x) => x.trim());
  if (items.length < 3 || items.some((x) => !x || x.split(/\s+/).length > 8)) return [sentence];
  // (a record that opens with a name is about that one: "Dana, 34, …")
  const who = /^\p{Lu}[\p{L}'-]+(?: \p{Lu}[\p{L}'-]+){0,2}$/u.test(items[0]) ? items[0] : null;
  const field = (item: string) => {
    const figure = /^(\D+?)\s+(?:(?:at|on|for|of|to|is)\s+)?([$€£¥~]?\d.*)$/.exec(item);
    if (who) return firstVerb(tokenizeSentence(item).toks) === 0 ? `${who} ${item}` : `${who}: ${item}`;
    return figure ? `${figure[1]}: ${figure[2]}` : item;
  };
  return [`${m[1]}:`, ...(who ? items.slice(1) : items).map(field)];
}

/** Sentences of a text, each with the speaker of its line. */
const spokenSentences = (text: string) =>
  speakerLines(text).flatMap((line) => sentencesOf(line.text).flatMap(leadInItems).flatMap(fieldItems).map((x) => ({ text: x, speaker: line.speaker })));

/**
 * The clauses of a longer memory's compound sentences, read as sentences of their own after its
 * sentences: in a note of several sentences one change often sits in a clause among others ("We
 * raised the pool limit to 80 connections, and CPU stayed flat"). A memory of one sentence is read
 * as written.
 */
function withClauses(spoken: Spoken[]): Spoken[] {
  // (not a chat line's: its clauses are talk, "Setbacks can be tough, but with your support …")
  if (spoken.length < 2) return spoken;
  const clauses = spoken.filter((x) => x.speaker === null).flatMap((x) => {
    const parts = x.text.split(CLAUSE_JOIN).map((p) => p.trim());
    return parts.length > 1 && parts.every((p) => p.split(/\s+/).length >= 3) ? parts.map((p) => ({ text: p, speaker: x.speaker })) : [];
  });
  return [...spoken, ...clauses];
}
const CLAUSE_JOIN = /,\s+(?:and|so|but|while)\s+|;\s+/i;

export function analyzeMemory(text: string, lowerInitial: Lower = null): MemoryInfo {
  const spoken = withClauses(spokenSentences(text)).slice(0, MAX_SENTENCES);
  return memoryOf(text, spoken, spoken.map((x) => analyzeSentence(x.text, lowerInitial, x.speaker)));
}

/** A memory's reading from its sentences' readings. */
function memoryOf(text: string, spoken: ReadonlyArray<Spoken>, sentences: SentenceInfo[]): MemoryInfo {
  // The memory's subject: the first sentence's. When the first line is a title (a key, or a
  // short line without a verb such as a changelog header), it names the subject of the whole.
  const first = sentences[0];
  let anchors = NO_SUBJECT;
  let titled = false;
  const leadIn = first?.kv && LEAD_IN.test(first.text);
  const firstLine = text.split('\n')[0].trim();
  const header = first && !first.kv && first.subjectKind === 'none' && first.toks.length <= 8 && !/[.!?]$/.test(first.text) &&
    text.includes('\n') && firstLine.startsWith(first.text);
  if ((first?.kv && !leadIn) || header) {
    titled = true;
    anchors = first.kv ? first.subject : subjectOf(first.toks.filter((t) => t.content).slice(0, 1));
  } else if (first?.subjectKind === 'named') {
    anchors = first.subject;
  }
  const keys = new Set<string>();
  for (const x of sentences) for (const k of x.keys) keys.add(k);
  const initialStems = new Map<string, string>();
  const wordKeys = new Set<string>();
  for (const x of sentences) {
    for (const t of x.toks) {
      if (t.initial) initialStems.set(wordKey(t.low), t.low);
      else if (t.kind === 'word' && t.content) wordKeys.add(t.key);
    }
  }
  return { sentences, anchors, titled, keys, chars: text.length, text, initialStems, wordKeys, spoken };
}

/**
 * A word that opens a sentence is capitalised whether or not it is a name: "Sprints are now three
 * weeks" names no one. When the other memory uses that word in lower case, both read it as a word.
 */
function readAgainst(m: MemoryInfo, other: MemoryInfo): MemoryInfo {
  const lower = new Set([...m.initialStems].filter(([k, low]) => other.wordKeys.has(k) || (other.initialStems.has(k) && other.initialStems.get(k) !== low)).map(([, low]) => low));
  if (!lower.size) return m;
  const key = [...lower].sort().join(' ');
  m.lowered ??= new Map();
  let info = m.lowered.get(key);
  if (!info) {
    // Lowering changes only a sentence whose opening word it names (read as a name, `initial`):
    // the others keep their reading, so a long memory is not read again whole for every pair.
    const sentences = m.sentences.map((x, i) => x.toks.some((t) => t.initial && lower.has(t.low))
      ? analyzeSentence(m.spoken[i].text, lower, m.spoken[i].speaker)
      : x);
    info = memoryOf(m.text, m.spoken, sentences);
    if (m.lowered.size < 16) m.lowered.set(key, info);
  }
  return info;
}

/** The two memories as they compare with each other (see readAgainst). */
export function reconcile(newer: MemoryInfo, older: MemoryInfo): [MemoryInfo, MemoryInfo] {
  return [readAgainst(newer, older), readAgainst(older, newer)];
}

/** Feature views of the aligned sentence pairs of two memories. */
export function pairViews(newer0: MemoryInfo, older0: MemoryInfo, ctx: PairContext): SentencePairView[] {
  const [newer, older] = reconcile(newer0, older0);
  const olderValues = new Set(older.sentences.flatMap((s) => s.values));
  const olderTimes = new Set(older.sentences.flatMap((s) => s.toks.filter((t) => t.kind === 'timeref').map((t) => t.key)));
  return alignedPairs(newer, older)
    // The newer sentence's figures all stand in the older memory already: a restatement of it
    // ("timeout raised to 30 seconds" / "set the timeout to 30s"), whichever older sentence aligned
    // (not when it names another day: "every other Monday at 11" / "now every other Tuesday at 11").
    // (nor when it denies what the older said: "supports Python 3.8" / "does not support Python 3.8")
    // (nor when it says a stop of it: "training for a half marathon" / "stopped training for the half marathon")
    .filter(([a, b]) => a.polarity !== b.polarity || antonymSwap(a, b) || (b.marks.has('negchange') && !a.marks.has('negchange')) || !(b.values.length && b.values.every((v) => olderValues.has(v)) &&
      b.toks.every((t) => (t.kind !== 'name' || t.key === 'i' || older.keys.has(t.key)) && (t.kind !== 'timeref' || olderTimes.has(t.key)))))
    .map(([a, b]) => sentencePairFeatures(a, b, older, newer, ctx));
}

// ---------------------------------------------------------------------------------------------
// Comparison

interface Hunk {
  a: Tok[];
  b: Tok[];
}

/** LCS table of diff, reused: L(i, j) = lcs[i * 81 + j] (sentences are compared up to 80 tokens). */
const lcs = new Uint16Array(81 * 81);

/** Differences between two token lists (LCS on keys); only content-bearing tokens kept in hunks. */
function diff(x: Tok[], y: Tok[]): Hunk[] {
  const n = Math.min(x.length, 80);
  const m = Math.min(y.length, 80);
  const w = 81;
  const L = lcs;
  L.fill(0, n * w, n * w + m + 1); // row n: past the end of x
  for (let i = n - 1; i >= 0; i--) {
    const row = i * w;
    L[row + m] = 0; // column m: past the end of y
    const key = x[i].key;
    for (let j = m - 1; j >= 0; j--) L[row + j] = key === y[j].key ? L[row + w + j + 1] + 1 : Math.max(L[row + w + j], L[row + j + 1]);
  }
  const hunks: Hunk[] = [];
  let cur: Hunk | null = null;
  const flush = () => {
    if (cur) {
      const h = { a: cur.a.filter(keep), b: cur.b.filter(keep) };
      if (h.a.length || h.b.length) hunks.push(h);
    }
    cur = null;
  };
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && x[i].key === y[j].key) {
      flush();
      i++;
      j++;
    } else if (j < m && (i >= n || L[i * w + j + 1] >= L[(i + 1) * w + j])) {
      (cur ??= { a: [], b: [] }).b.push(y[j++]);
    } else {
      (cur ??= { a: [], b: [] }).a.push(x[i++]);
    }
  }
  flush();
  return hunks;
}

const keep = (t: Tok) => t.content || t.kind === 'neg' || t.kind === 'ordinal' || t.kind === 'timeref';

const timeKeys = (x: SentenceInfo) => new Set(x.toks.filter((t) => t.kind === 'timeref' || (t.kind === 'value' && /^(?:19|20)\d\d$/.test(t.key))).map((t) => t.key));
/** The two sentences name different times (each has one the other lacks). */
function timeDiffOf(a: SentenceInfo, b: SentenceInfo): boolean {
  const [ta, tb] = [timeKeys(a), timeKeys(b)];
  return [...ta].some((t) => !tb.has(t)) && [...tb].some((t) => !ta.has(t));
}

/** Two sets of attribute words name the same thing: they share a word, and what they do not share is verbs ("bump" / "update"), not other nouns ("upstream version" / "standards version"). */
function attributesMatch(a: Set<string>, b: Set<string>, aKeys: Set<string>, bKeys: Set<string>): boolean {
  if (![...a].some((k) => b.has(k))) return false;
  // (words that say a figure is a bound or an amount, not of what: "max upload size" / "upload cap")
  const verbish = (k: string) => VERB_STEMS.has(k) || /(?:ed|ing)$/.test(k) || BOUND_WORDS.has(k);
  // (nor is a word the other sentence names elsewhere: "Q3 cloud budget for the data platform: $40k" /
  // "the data platform's Q3 cloud budget down to $32k")
  const only = (x: Set<string>, y: Set<string>, yKeys: Set<string>) => [...x].filter((k) => ![...y].some((m) => same(k, m)) && !yKeys.has(k) && !verbish(k));
  const [onlyA, onlyB] = [only(a, b, bKeys), only(b, a, aKeys)];
  return onlyA.length === 0 || onlyB.length === 0;
}

const BOUND_WORDS = new Set(['max', 'maximum', 'min', 'minimum', 'limit', 'cap', 'ceil', 'ceiling', 'quota', 'siz', 'amount', 'total', 'level', 'threshold']);

/** Values of two sentences for comparison: a bare hour matches the other side's "H:00" ("at 8" / "8:00 am"). */
function comparableValues(a0: string[], b0: string[]): [Set<string>, Set<string>] {
  const fix = (xs: string[], other: string[]) =>
    new Set(xs.map((v) => {
      if (/^\d{1,2}$/.test(v)) {
        const clock = other.find((o) => o === `${v}:00` || o === `${Number(v) + 12}:00`);
        if (clock) return clock;
      }
      // A version and its refinement ("15" / "15.4") are the same value.
      const finer = /^\d+$/.test(v) ? other.find((o) => o.startsWith(`${v}.`)) : undefined;
      return finer ?? v;
    }));
  // A bare amount beside one price on the other side is in its currency ("rent: $1,850/mo" / "rent goes up to 1,975");
  // a small number is a count, a year a date.
  const priced = (xs: string[], other: string[]) => {
    const money = other.filter((o) => /^[$€£¥]/.test(o));
    return money.length === 1 && !xs.some((v) => /^[$€£¥]/.test(v)) ? xs.map((v) => (/^\d+(?:\.\d+)?$/.test(v) && Number(v) >= 100 && !/^(?:19|20)\d\d$/.test(v) ? `${money[0][0]}${v}` : v)) : xs;
  };
  const [a, b] = [priced(a0, b0), priced(b0, a0)];
  // Figures of different dimensions never replace each other ("504" errors / a "30s" timeout).
  const dims = (xs: string[]) => new Set(xs.map(dimensionOf));
  const da = dims(a);
  const db = dims(b);
  return [fix(a.filter((v) => db.has(dimensionOf(v))), b), fix(b.filter((v) => da.has(dimensionOf(v))), a)];
}

/** The dimension of a canonical value key (see valueKey): money, duration, size, clock time or a plain figure. */
function dimensionOf(v: string): string {
  if (/^[$€£¥]/.test(v)) return v[0];
  if (/^\d+(?:\.\d+)?s$/.test(v)) return 'duration';
  if (/^\d+(?:\.\d+)?B$/.test(v)) return 'size';
  if (/^\d+(?:\.\d+)?g$/.test(v)) return 'mass';
  if (/^\d{1,2}:\d{2}$/.test(v)) return 'clock';
  return 'figure';
}

const TRANSFER = /\b(?:(?:ownership|responsibility|custody|control|duty|duties)\b[^.;]{0,30}\b(?:went|goes|passed|moved|transferred|shifted|rotates|rotated) to|pick(?:ed|s|ing)? up [^.;]{1,40} from|outsourc(?:ed|ing) to|took over|(?:took|takes|taking|take) [^.;]{1,40} over\b(?! to\b)|pass(?:ed|es|ing)? [^.;]{1,40} (?:over |on )?to|take over|taking over|is taking|hand(?:s|ed|ing)? [^.;]{1,40} (?:(?:over|off) )?to|(?:has|have) been (?:reassigned|handed)|now reports? to|tak(?:es|ing) over|taken over|handed (?:over|off)|hand(?:s|ing)? over|reassigned|transferred|is (?:now )?(?:\w+'s|his|hers|theirs) now|now (?:owns?|leads?|handles?|runs?|manages?)|new (?:owner|lead|manager|maintainer|head|point of contact|dri|on-call)|adopt(?:s|ed|ing)? the (?:package|project|repo)|(?:switch|move)(?:d|s)? maint(?:ainer|ainers|enance)|orphan(?:s|ed|ing)?)\b/;
const HELD_NOW = /\b(?:owned|run|led|managed|handled|maintained|covered) by\b[^.;]{1,40}\bnow\b|\bnow (?:owned|run|led|managed|handled|maintained|covered) by\b/;
// Relations that hold many values at once: a second one is an addition, not a replacement. A
// meeting told twice with another place or person is another meeting ("met Eve in Lisbon" / "in Paris").
const MULTI_VERBS = /\b(?:learn(?:s|ing|ed)?|likes?|lov(?:es|ing)|enjoy(?:s|ing)?|visit(?:s|ed|ing)?|speaks?|plays?|playing|reads?|reading|watch(?:es|ing)?|collects?|member of|hobb(?:y|ies)|fan of|studies|studying|traveled|travelled|been to|went to|met|ran into|had (?:lunch|dinner|breakfast|coffee|drinks|a call|a meeting) with|(?:talked|spoke) (?:to|with))\b/;
// Keys of notes that list many values (last word of the key, stemmed).
const MULTI_KEY = /^(?:lik|hobby|interest|skill|languag|tag|member|friend|pet|allergy|allergi|tool|stack|not|idea|goal|todo|task|project|client|customer|repo|dependency|dep|featur|topic|attend|participant|favorit|visit|book|movy|movi|song|also|other|plu)$/;
// Words of a key that make it hold one value: "preferred language", "main tool".
const SINGLE_KEY = /^(?:prefer|preferr|favorit|main|primary|default|current|first|nativ|mother|preferred|favorite|favourite)$/;
// Who holds a role or owns a thing: a change of holder is an update even though the subjects differ.
// Whom someone has for a service ("our accountant", "the user's GP"): one at a time.
const PERSONAL_ROLES = 'accountant|lawyer|solicitor|doctor|gp|dentist|therapist|vet|landlord|agent|auditor|coach|tutor|assistant|advisor|mechanic|hairdresser|barber|cleaner|nanny|babysitter';
const PERSONAL_ROLE = new RegExp(`\\b(?:${PERSONAL_ROLES})\\b`, 'g');
const OWNERSHIP = new RegExp(String.raw`\b(?:owns?|owned|owner|ownership|admin|administrator|dri|po|product owner|\w+'s (?:job|task|responsibility|area|call)|pm|product manager|project manager|tech lead|assignee|assigned to|contact|approver|reviewer|lead(?:s|ing)?|led by|heads up|headed by|responsible|in charge|handles?|handled|handling|maintain(?:s|ed|er)?|manag(?:es|ed|er|ing)|runs|run by|on[- ]call|point of contact|poc|took over|tak(?:es|ing) over|taken over|handed|assigned|reassigned|belongs|ceo|cto|cfo|coo|head of|chair|president|captain|lead|dri|accountable|point person|goes to|is (?:\w+'s|his|hers|theirs) now|(?:is|are) \w+ed by|covers|on (?:\w+ )?duty|(?:my|our|his|her|their|\w+'s|new) (?:${PERSONAL_ROLES}))\b`);

/** Whether a short name is an abbreviation of a longer one ("pg" / "postgres", "k8s" / "kubernetes"). */
function abbreviates(a: string, b: string): boolean {
  if (a.length > b.length) [a, b] = [b, a];
  if (a.length < 2 || a.length > 5 || a[0] !== b[0] || a === b) return false;
  if (a.length >= 3 && /^\p{L}\d\p{L}$/u.test(a)) return b.length === Number(a[1]) + 2 && b.endsWith(a[2]);
  let k = 0;
  for (const c of b) if (c === a[k]) k++;
  return k === a.length;
}

/** A short name for a word ("pg" / "postgres", "k8s" / "kubernetes"), not an identifier that starts like one ("db" / "db1.internal"). */
const alias = (x: string, y: string) => abbreviates(x, y) && /^\p{L}+$/u.test(x.length > y.length ? x : y);
const same = (x: string, y: string) => x === y || abbreviates(x, y) || (x.length > 3 && y.length > 3 && (x.startsWith(y) || y.startsWith(x)));
const anySame = (a: string[], b: string[]) => a.some((x) => b.some((y) => same(x, y)));
/** Two keys name the same value, identifiers compared by their core ("libasm4-java" / "asm4"). */
const near = (x: string, y: string) => same(x, y) || (x.length >= 4 && y.length >= 4 && (x.includes(y) || y.includes(x))) || synonyms(x, y);
// Words people use for one thing (stems): "switched internet to Community Fibre" is about the broadband provider.
const SYNONYM_GROUPS = [
  'broadband internet isp wifi fibr', 'phon mobil cell cellphon', 'doctor gp physician', 'flat apartment', 'salary compensation wag',
  'pric cost fee', 'car vehicl driv', 'job employer', 'email mail inbox', 'dentist dental', 'vet veterinarian', 'gym fitness',
  'hotel accommodation lodg', 'flight airlin', 'lawyer attorney solicitor', 'boss manager supervisor', 'therapist counsellor counselor',
].map((g) => new Set(g.split(' ')));
const SYNONYM_OF = new Map<string, Set<string>>(SYNONYM_GROUPS.flatMap((g) => [...g].map((w) => [w, g] as const)));
const synonyms = (x: string, y: string) => x !== y && SYNONYM_OF.get(x)?.has(y) === true;
const NEGATION = /\b(?:no|not|never|nothing|none|nobody|without)\b|n't\b/i;
/**
 * `x` denies only in a clause after its first (a comma, a semicolon or a dash apart) that shares no
 * word with `y`: an aside about something else ("Upgraded prod k8s to 1.29, no issues so far").
 */
function asideDenial(x: SentenceInfo, y: SentenceInfo): boolean {
  if (!x.polarity || y.polarity) return false;
  const [head, ...rest] = x.text.split(/[,;]\s+|\s[—–-]\s/);
  if (!rest.length || NEGATION.test(head)) return false;
  return rest.filter((c) => NEGATION.test(c)).every((c) => !tokenizeSentence(c).toks.some((t) => t.content && y.keys.has(t.key)));
}

/** A day of the month as a number: "15th" is the "15" of "Dec 15". */
const dayOf = (k: string) => k.replace(/^(\d{1,2})(?:st|nd|rd|th)$/, '$1');

// Nouns that make another subject of the same name: "Alice's sister", "the Berlin office".
const RELATIONAL = new Set(
  ('sister brother mother mom mum father dad parent wife husband partner son daughter kid child children friend cousin aunt uncle ' +
    'grandma grandpa grandmother grandfather niece nephew boss manager colleague coworker roommate neighbor neighbour girlfriend boyfriend ' +
    'fiance fiancee team office branch store shop account fork mirror clone copy sibling twin dog cat pet').split(' ').map(stem),
);

// Words that tell instances of one kind apart: "the test cluster" is not "the cluster", "staging DB" not "prod DB".
const QUALIFIERS = new Set(
  ('test testing staging stage prod production dev development qa sandbox preview beta canary free pro enterprise basic premium ' +
    'personal mobile web desktop ios android internal external secondary backup legacy frontend backend eu us uk emea apac ' +
    'return outbound inbound connecting').split(' ').map(stem),
);

/** Each sentence names an instance qualifier the other lacks ("staging", "pro"): two instances. */
function qualifierDiff(a: SentenceInfo, b: SentenceInfo): boolean {
  const q = (x: SentenceInfo) => [...x.keys].filter((k) => QUALIFIERS.has(k));
  const [qa, qb] = [q(a), q(b)];
  return qa.some((k) => !qb.includes(k)) || qb.some((k) => !qa.includes(k)) || otherAge(a, b);
}
const AGED = /^(?:old|previous|former)$/;
const ageOf = (x: SentenceInfo) => (x.toks.some((t) => t.low === 'new') ? 'new' : x.toks.some((t) => AGED.test(t.low)) ? 'old' : null);
/** One says the new one, the other the old one: "bought a new car" / "sold her old car". */
function otherAge(a: SentenceInfo, b: SentenceInfo): boolean {
  const [ga, gb] = [ageOf(a), ageOf(b)];
  return ga !== null && gb !== null && ga !== gb;
}

/**
 * The newer sentence says it changed what the older is about: it marks a change and names the
 * older's subject ("The landlord raised my rent" of "My rent"), no qualifier of its own beside it
 * ("We moved the staging repo" is not about "The repo").
 */
function changedIn(s: Subject, z: SentenceInfo): boolean {
  // (a subject of names alone is someone the newer may only mention: "Bob moved in with Alice";
  // one with a plain word is a thing of theirs: "Kenji's flight to Osaka" / "rebooked Kenji: Osaka flight now …")
  if (!s.head || (s.headIsName && s.keys.length === s.names.length) || !(z.marks.has('change') || z.marks.has('negchange'))) return false;
  const named = (k: string) => [...z.keys].some((m) => same(k, m));
  // (most of a longer subject will do, "The standing order for paper" / "the paper order"; its names all)
  const found = s.keys.filter(named).length;
  if (found < Math.max(1, Math.ceil((s.keys.length * 2) / 3)) || !s.names.every(named)) return false;
  return ![...z.keys].some((k) => QUALIFIERS.has(k) && !s.keys.includes(k));
}

// States a person or an arrangement is in one of at a time, each group a list of classes of words
// that say the same: a class replaced by another of its group is a value replaced ("I'm vegetarian"
// / "I guess I'm pescatarian now"); "online" and "virtual" are one class.
const STATE_GROUPS: ReadonlyArray<ReadonlyArray<ReadonlySet<string>>> = [
  'single|dating|engaged|married|divorced|separated|widowed',
  'remote remotely virtual virtually online|hybrid|onsite in-office in-person',
  'vegetarian|vegan|pescatarian|omnivore carnivore|keto',
  'junior|senior|principal|intern',
  'full-time|part-time|freelance freelancer self-employed|unemployed',
  'daily|weekly|fortnightly|monthly|quarterly|yearly annually',
  // (how someone wants things done: one register, one system of units, one theme at a time)
  'formal|casual informal',
  'metric|imperial',
  'light-mode|dark-mode',
].map((g) => g.split('|').map((c) => new Set(c.split(' '))));

/** A sentence's words as the state groups read them; a sentence is compared with many: read once. */
const stateWordCache = new WeakMap<SentenceInfo, Set<string>>();

function stateWords(x: SentenceInfo): Set<string> {
  let w = stateWordCache.get(x);
  if (!w) {
    w = new Set(asTimeWords(x.text).toLowerCase()
      .replace(/\bin (?:the )?(person|office)\b/g, 'in-$1').replace(/\bon site\b/g, 'onsite').replace(/\b(full|part) time\b/g, '$1-time')
      // (what someone eats or whom they see says which of these they are)
      .replace(/\beat(?:s|ing)? (?:meat|chicken|beef|pork|bacon|steak|lamb)\b/g, 'omnivore').replace(/\beat(?:s|ing)? (?:fish|seafood|salmon|tuna)\b/g, 'pescatarian')
      .replace(/\bin a relationship\b|\bseeing someone\b|\bha(?:s|ve) a (?:girl|boy)friend\b/g, 'dating')
      .replace(/\b(light|dark) (?:mode|theme)\b/g, '$1-mode')
      .match(/[a-z][a-z-]*/g) ?? []);
    stateWordCache.set(x, w);
  }
  return w;
}

function stateChange(a: SentenceInfo, b: SentenceInfo): boolean {
  const [wa, wb] = [stateWords(a), stateWords(b)];
  return STATE_GROUPS.some((group) => {
    const classes = (w: Set<string>) => group.filter((c) => [...c].some((x) => w.has(x)));
    const [ca, cb] = [classes(wa), classes(wb)];
    return ca.length > 0 && cb.length > 0 && !ca.some((c) => cb.includes(c));
  });
}

// Words that deny each other: "The office is open on Saturdays" / "… closed on Saturdays" says what
// "… is not open …" says. (Feelings are left out: in chat they change from turn to turn.)
const ANTONYMS: ReadonlyArray<readonly [ReadonlySet<string>, ReadonlySet<string>]> = [
  'open opened|closed shut', 'enabled|disabled', 'passes passing passed|fails failing failed', 'safe|unsafe',
  'approved accepted|rejected declined denied', 'won|lost', 'active|inactive', 'available|unavailable',
  'allowed permitted|forbidden prohibited banned', 'required mandatory|optional', 'public|private', 'paid|unpaid',
  'valid|invalid', 'supported|unsupported', 'online|offline', 'visible|hidden', 'included|excluded', 'locked|unlocked',
  'legal|illegal', 'possible|impossible', 'compatible|incompatible', 'married|divorced separated', 'employed|unemployed',
  'broken faulty|fixed repaired working', 'recovering|recovered',
].map((g) => g.split('|').map((c) => new Set(c.split(' '))) as unknown as readonly [ReadonlySet<string>, ReadonlySet<string>]);

/** One sentence says a word the other denies with its antonym. */
function antonymSwap(a: SentenceInfo, b: SentenceInfo): boolean {
  const [wa, wb] = [stateWords(a), stateWords(b)];
  const has = (w: Set<string>, side: ReadonlySet<string>) => [...side].some((x) => w.has(x));
  return ANTONYMS.some(([x, y]) => (has(wa, x) && !has(wa, y) && has(wb, y) && !has(wb, x)) || (has(wa, y) && !has(wa, x) && has(wb, x) && !has(wb, y)));
}

// A rule narrowed to a part of what it covers ("for the side project": another account), or to a time
// (unless said to have changed).
// ("for all plans", "for everything" widen it)
const SCOPED = /\b(?:for (?:anything|any \w+) (?:that|touching|in|on|under|over|above|with|to)\b|only (?:for|on|in)\b|except\b|unless\b|for (?:(?:new|existing|premium|enterprise|pro|free|paying) )?(?:members|subscribers|students|staff|employees|customers|users|clients|partners|kids|children|seniors|members only)\b|for (?:the|a|my|our|his|her|their) (?:side|other|personal|pet|hobby|test|demo|second) (?:project|app|site|account|repo|team|business)\b)/;
const SEASON = /\bduring\b/;
// Progress towards a goal is no new goal ("reading goal is 24 books" / "has read 10 books so far").
const PROGRESS = /\b(?:so far|to date|thus far|up to now)\b/;
const GOAL = /\b(?:goal|target|aim|quota|budget|plans?)\b/;
// A note's value for someone or something named after it ("currency: EUR for the Irish entity"): another instance.
const FOR_WHOM = /\bfor (?:the|our|a|an|this|that) (?:[\w-]+ ){0,2}[\w-]+\s*[.!]?$/;
// A count that came or went ("Two engineers joined this month", "we hired 3 designers"): a change by so
// many, not a new total (unless the newer gives one too: "two engineers left, team is 6 now").
const FEW = '(?:\\d+|two|three|four|five|six|seven|eight|nine|ten|a few|several)';
const DELTA = new RegExp(`^${FEW} [\\w-]+ (?:joined|left|quit|arrived|started|were (?:hired|added|let go)|signed up)\\b|\\b(?:we|they|i) (?:hired|added|lost|onboarded) ${FEW} [\\w-]+`);

// A holiday names one day, not a new rule.
const HOLIDAY = /\b(?:on|over|for|during|because of) (?:the )?(?:christmas(?: eve| day)?|boxing day|new year'?s(?: eve| day)?|easter(?: monday)?|thanksgiving|labou?r day|memorial day|independence day|bank holidays?|public holidays?|holidays?)\b/;

// Words that say a claim was wrong, not that a fact changed.
const CORRECTION = /\b(?:turned out|after all|clarif(?:ied|ies|y)|(?:was|were) (?:wrong|a mistake|incorrect|a misdiagnosis|mistaken)|misdiagnos\w*|misunderst\w*|mix-?up|in fact|correction)\b/;

/** A subject that is someone's relation ("Priya's manager", "Tom's sister"): about the relation, not the one named. */
const relationOf = (s: Subject) => s.head !== null && !s.headIsName && RELATIONAL.has(s.head) && s.names.length > 0;

/**
 * `y` with each run of its words whose initials spell an acronym `x` names ("CS" / "customer
 * success", "DAU" / "daily active users") read as that acronym; `y` itself when there is none.
 */
function withAcronyms(x: Subject, y: Subject): Subject {
  let keys = y.keys;
  for (const a of x.names) {
    if (a.length < 2 || a.length > 5 || !/^\p{L}+$/u.test(a) || keys.includes(a)) continue;
    const at = keys.findIndex((_, i) => i + a.length <= keys.length && keys.slice(i, i + a.length).every((k, j) => k[0] === a[j]));
    if (at >= 0) keys = [...keys.slice(0, at), a, ...keys.slice(at + a.length)];
  }
  if (keys === y.keys) return y;
  const head = y.head && keys.includes(y.head) ? y.head : keys.at(-1) ?? null;
  // (a capitalised word the acronym stands in for is no name of its own: "Minimum order quantity")
  return { ...y, keys, head, names: y.names.filter((n) => keys.includes(n)) };
}

/** A name of `x` spells the initials of words of `y` ("MAU" / "monthly active users"). */
const acronymIn = (x: Subject, y: Subject) => {
  const spelled = withAcronyms(x, y);
  return spelled !== y && spelled.keys.some((k) => x.names.includes(k));
};

/** How two subjects relate: names decide when both have them; a different relational head is another subject. */
function compareSubjects(x0: Subject, y0: Subject): 'same' | 'different' {
  const x = withAcronyms(y0, x0);
  const y = withAcronyms(x, y0);
  const qx = x.keys.filter((k) => QUALIFIERS.has(k));
  const qy = y.keys.filter((k) => QUALIFIERS.has(k));
  if (qx.some((k) => !qy.includes(k)) || qy.some((k) => !qx.includes(k))) return 'different';
  // "Tickets for children" / "Tickets": a qualifier the other subject does not name is another instance.
  const qualified = (p: Subject, q: Subject) => p.mods.length > 0 && !p.mods.some((k) => q.keys.some((m) => same(k, m)));
  if (qualified(x, y) || qualified(y, x)) return 'different';
  // "deploy owner" / "release owner": one head, each with a modifier the other lacks.
  const onlyX = x.keys.filter((k) => !y.keys.some((m) => same(k, m)));
  const onlyY = y.keys.filter((k) => !x.keys.some((m) => same(k, m)));
  if (x.head && y.head && same(x.head, y.head) && onlyX.length > 0 && onlyY.length > 0 && !x.headIsName) return 'different';
  // "The Berlin office" / "the office": a named instance of a kind that has many (offices, teams, stores).
  if (x.head && y.head && same(x.head, y.head) && RELATIONAL.has(x.head) && !x.headIsName && (x.names.length === 0) !== (y.names.length === 0)) return 'different';
  if (x.names.length && y.names.length) {
    // Each side has a name the other lacks: "Project Apollo" / "Project Hermes", "Pro plan" / "Basic plan".
    const onlyX = x.names.filter((k) => !y.names.some((m) => same(k, m)));
    const onlyY = y.names.filter((k) => !x.names.some((m) => same(k, m)));
    if (!anySame(x.names, y.names) || (onlyX.length && onlyY.length)) return 'different';
  }
  if (!anySame(x.keys, y.keys)) return 'different';
  // One subject refines the other ("email" / "email address"): the same.
  const within = (p: string[], q: string[]) => p.every((k) => q.some((m) => same(k, m)));
  const refines = (within(x.keys, y.keys) || within(y.keys, x.keys)) && !RELATIONAL.has(x.head ?? '') && !RELATIONAL.has(y.head ?? '');
  if (x.head && y.head && x.head !== y.head && !refines) {
    // "Alice's sister" / "Alice"; "Yara's flight" / "Yara's train": another thing of the same owner.
    if (RELATIONAL.has(x.head) || RELATIONAL.has(y.head)) return 'different';
    if (!x.headIsName && !y.headIsName && !same(x.head, y.head)) return 'different';
  }
  // "the printer on floor 3" / "on floor 4"
  if (x.values.length && y.values.length && !x.values.some((v) => y.values.includes(v))) return 'different';
  return 'same';
}

/**
 * Two subjects that may be one named in other words: they share a word, and neither has a name,
 * an instance qualifier ("staging", "pro"), a "for …" or "of …" qualification or a relational head
 * ("sister", "office") that tells another instance apart.
 */
function rewordedSubject(a: SentenceInfo, b: SentenceInfo): boolean {
  const [x, y] = [a.subject, b.subject];
  // (a capitalised opening word is no name here: "Cloud spend dropped to $5k")
  const named = (s: SentenceInfo) => s.toks.some((t) => t.kind === 'name' && !t.initial && s.subject.names.includes(t.key));
  if (!anySame(x.keys, y.keys) || named(a) || named(b) || x.mods.length || y.mods.length || qualifierDiff(a, b)) return false;
  return ![x.head, y.head].some((h) => h !== null && RELATIONAL.has(h));
}

/**
 * Two sentences that name one thing in other words, subject or not: they share a noun, each names
 * no one the other does not ("We store logs for 90 days" / "Log retention cut to 30 days"; "Max
 * upload size for attachments is 25 MB" / "Attachment limit bumped to 50MB"), and no instance
 * qualifier tells them apart. Read only beside one figure each, in one unit, said to have changed.
 */
function sharesThing(a: SentenceInfo, b: SentenceInfo): boolean {
  // (a capitalised opening word is a noun here: "Log retention cut to 30 days")
  const nouns = (s: SentenceInfo) => s.toks.filter((t) => t.content && (t.kind === 'word' || t.initial) && !VERB_STEMS.has(t.key) && !/(?:ed|ing)$/.test(t.low))
    .map((t) => (t.initial ? wordKey(t.low) : t.key));
  const names = (s: SentenceInfo) => s.toks.filter((t) => t.kind === 'name' && !t.initial).map((t) => t.key);
  const [na, nb] = [names(a), names(b)];
  const namesClash = na.some((k) => !nb.includes(k)) && nb.some((k) => !na.includes(k));
  return anySame(nouns(a), nouns(b)) && !namesClash && !qualifierDiff(a, b);
}

/** A subject that the other memory names anyway is the same thing seen from the object side ("Alice owns billing" / "Billing is Bob's now"). */
const namedIn = (s: Subject, keys: Set<string>) => (s.names.length ? s.names : s.keys).some((k) => keys.has(k));

/** Two titled memories whose titles name different things (two packages, two projects). */
function titlesDiffer(mx: MemoryInfo, my: MemoryInfo): boolean {
  if (recordsDiffer(mx, my)) return true;
  return mx.titled && my.titled && mx.anchors.keys.length > 0 && my.anchors.keys.length > 0 &&
    compareSubjects(mx.anchors, my.anchors) === 'different' && !namedIn(mx.anchors, my.keys) && !namedIn(my.anchors, mx.keys);
}

// Parts of a place that hold or do what the whole does ("the venue's terrace", "the hotel's annex").
const PART_HEAD = /^(?:terrace|room|hall|floor|wing|annex|annexe|garden|kitchen|basement|lobby|roof|rooftop|bar|branch|campus|building|car park|balcony|patio|studio|gallery)s?$/;
/** `y`'s subject is a part of `x`'s, named with a possessive ("the event venue's terrace"). */
function partOf(x: SentenceInfo, y: SentenceInfo): boolean {
  const head = x.subject.head;
  if (!head || !y.subject.head || y.subject.head === head || !PART_HEAD.test(y.toks.find((t) => t.key === y.subject.head)?.low ?? '')) return false;
  const low = y.text.toLowerCase();
  const own = x.toks.find((t) => t.key === head)?.low;
  return own !== undefined && low.includes(`${own}'s `) && x.subject.keys.every((k) => y.subject.keys.includes(k));
}

/** Two records opened by one key naming two things ("Customer: Brightside Dental." / "Customer: Brightwater Labs."). */
function recordsDiffer(mx: MemoryInfo, my: MemoryInfo): boolean {
  const [x, y] = [recordHead(mx), recordHead(my)];
  return x !== null && y !== null && x.key === y.key && !x.names.some((k) => y.names.includes(k));
}

/** A record's opening key and the names it gives (its first line read as a speaker's is a key too: "Customer: Brightside Dental."). */
function recordHead(m: MemoryInfo): { key: string; names: string[] } | null {
  const x = m.sentences[0];
  if (!x || m.sentences.length < 2) return null;
  const names = x.toks.filter((t) => t.kind === 'name' && (x.kv ? x.kvValue.has(t.key) : true)).map((t) => t.key);
  if (x.kv) return names.length ? { key: x.subject.keys.join(' '), names } : null;
  const speaker = m.spoken[0]?.speaker;
  return speaker && x.verb < 0 && names.length > 0 && x.toks.every((t) => !t.content || t.kind === 'name') ? { key: speaker, names } : null;
}

/** The second key of a nested note ("json-c: debian/rules: use …" → "debian/rules"), lower case, or null. */
function subKey(text: string): string | null {
  return /^[^:\n]{1,60}:\s+([^:\s][^:\n]{0,40}?):\s/.exec(text)?.[1].toLowerCase() ?? null;
}

const PREFERENCE_KEY = /^(?:prefer|favou?rit)/;
/** A note key of a preference ("Preferred IDE") whose thing the sentence names with a preference of its own. */
const preferenceOf = (key: Subject, z: SentenceInfo) => key.keys.length > 1 && PREFERENCE_KEY.test(key.keys[0]) &&
  key.keys.slice(1).every((k) => z.keys.has(k)) && /\b(?:prefers?|preferred|favou?rite|rather)\b/i.test(z.text);

/** Two sentences said by two speakers: "I" is a different person in each. */
const otherSpeakers = (x: SentenceInfo, y: SentenceInfo) => x.speaker !== null && y.speaker !== null && x.speaker !== y.speaker;
/** Two sentences, one of them a chat line, that share less than half their words: in chat, about two things. */
const chatApart = (x: SentenceInfo, y: SentenceInfo, overlap: number) => (x.speaker !== null || y.speaker !== null) && overlap < 0.5;
/** A chat line's "I" is the one name the other subject gives ("Nadia: I moved to York" / "Nadia lives in Leeds"). */
const speaks = (x: SentenceInfo, s: Subject) => x.subjectKind === 'first' && x.speaker !== null && s.names.length === 1 && s.names[0] === x.speaker.replace(/[-_ ]/g, '');

// Subjects that speak for a group the way "we" does ("the team uses …", "the company pays …").
// (and departments named by what they do: "IT swapped my Dell for a Lenovo")
const COLLECTIVE = /^(?:team|company|org|organi[sz]ation|department|dept|household|family|it|hr|ops|finance|legal|procurement|facilities|security|admin|management)$/;

/**
 * `own`, the subject of `s`, with the sentence's verb as its head when that verb is the other
 * subject's head: "The team meets on Wednesdays" / "Team meeting is on Fridays".
 */
function withVerbHead(s: SentenceInfo, own: Subject, other: Subject): Subject {
  const v = s.verb;
  const head = other.head;
  return v >= 0 && head !== null && s.toks[v].key === head && !own.keys.includes(head) ? { ...own, keys: [...own.keys, head], head } : own;
}

/** How a sentence pair relates its subjects: the same, different, or unknown (pronouns, imperatives). */
function subjectRelation(x: SentenceInfo, y: SentenceInfo, mx: MemoryInfo, my: MemoryInfo): 'same' | 'different' | 'unknown' {
  // Two titled memories about different things (two packages, two projects) never compare.
  if (titlesDiffer(mx, my)) return 'different';
  // "pkg: debian/rules: …" / "pkg: debian/dch.conf: …": notes on two files of one thing.
  const [kx, ky] = [subKey(x.text), subKey(y.text)];
  if (kx && ky && kx !== ky) return 'different';
  // "our CTO", "my sister": the words name the subject, the pronoun only whose it is.
  // In a titled memory (a key, a header) every line is about the title's subject.
  const own = (s: SentenceInfo, m: MemoryInfo) =>
    (m.titled && m.anchors.keys.length ? m.anchors : s.subject.keys.length ? s.subject : s.subjectKind === 'none' ? m.anchors : NO_SUBJECT);
  const sx = own(x, mx);
  const sy = own(y, my);
  if (x.subjectKind === 'first' && y.subjectKind === 'first' && !sx.keys.length && !sy.keys.length) return otherSpeakers(x, y) ? 'different' : 'same';
  // Two notes whose keys end in different nouns ("Preferred IDE" / "Preferred terminal") are two keys, names or not.
  const inKeys = (p: string[], q: string[]) => p.every((k) => q.some((m) => same(k, m)));
  if (x.kv && y.kv && sx.head && sy.head && !same(sx.head, sy.head) && !inKeys(sx.keys, sy.keys) && !inKeys(sy.keys, sx.keys)) return 'different';
  // "Team size" / "Design team size": a key with a modifier before it is another key.
  const prefixed = (p: string[], q: string[]) => q.length > p.length && inKeys(p, q) && !p.some((k) => same(k, q[0]));
  if (x.kv && y.kv && (prefixed(sx.keys, sy.keys) || prefixed(sy.keys, sx.keys))) return 'different';
  // (and a part of the other's subject, named with its possessive: "The event venue holds 200 people" / "The
  // event venue's terrace holds 80 people")
  if (partOf(x, y) || partOf(y, x)) return 'different';
  // (so is a sentence's subject, when nothing says it changed: "The build uses Node 18" / "The docs site build uses Node 20")
  // (a clause before it may say why: "After the expansion the warehouse holds 3,500 pallets")
  if (!x.kv && !y.kv && (prefixed(sx.keys, sy.keys) || prefixed(sy.keys, sx.keys)) && !LEADING_CLAUSE.test(y.text) && !/^(?:after|since|before|following|with|once|as of)\b/i.test(y.text) &&
    !(['change', 'soft', 'negchange'] as const).some((k) => y.marks.has(k))) return 'different';
  // "Contact at Northwind" / "Contact at Northwind for legal": a key qualified further is another key.
  // ("Owner of the on-call rota" / "On-call rota owner" is the same key reworded)
  const extraMod = (p: Subject, q: Subject) => p.mods.some((k) => !q.keys.some((m) => same(k, m)));
  if (x.kv && y.kv && (extraMod(sx, sy) || extraMod(sy, sx))) return 'different';
  if (speaks(x, sy) || speaks(y, sx)) return 'same';
  // "The kids have swimming on Tuesday and football on Thursday" / "Football moved to Wednesday": a
  // thing the older names (not a name of someone) said to have changed.
  // (a name the older writes as one is someone: "Alice lives in Paris with Bob" / "Bob moved to Lyon")
  if (y.marks.has('change') && sy.keys.length > 0 && !sy.headIsName && sy.keys.every((k) => x.keys.has(k) && !sx.keys.includes(k)) &&
    !x.toks.some((t) => t.kind === 'name' && !t.initial && sy.keys.includes(t.key))) return 'same';
  // "The build server is jenkins-01" / "jenkins-01 was decommissioned; builds run on GitHub Actions":
  // the newer stops what the older names as its value.
  // (a thing in two words or more will do: "The salad bar downstairs closed")
  if (y.marks.has('negchange') && (sy.names.length > 0 || sy.keys.length > 1) && sy.keys.every((k) => x.keys.has(k) && !sx.keys.includes(k))) return 'same';
  // "Preferred indentation: 4 spaces" / "user now prefers tabs for indentation": a preference note's
  // key, told as a preference of the same thing.
  if ((x.kv && preferenceOf(sx, y)) || (y.kv && preferenceOf(sy, x))) return 'same';
  // "We scaled the cluster to 5 nodes" / "The cluster has 3 nodes": the other's subject is what we acted on.
  // (the older may say what we do with it without a change: "We store user uploads in S3" / "User uploads are stored in R2 now")
  const actedOn = (s: Subject, z: SentenceInfo, we: boolean) => s.keys.length > 0 && s.keys.every((k) => z.keys.has(k)) && (z.marks.has('change') || we);
  if (!sx.keys.length || !sy.keys.length) {
    // "Met Tom today; he moved": a pronoun in a memory that names the other side's subject.
    const named = (s: Subject, m: MemoryInfo) => s.keys.length > 0 && s.keys.every((k) => m.keys.has(k));
    if ((x.subjectKind === 'pronoun' && named(sy, mx)) || (y.subjectKind === 'pronoun' && named(sx, my))) return 'same';
    if ((!sx.keys.length && actedOn(sy, x, x.subjectKind === 'first')) || (!sy.keys.length && actedOn(sx, y, false))) return 'same';
    // "My daily commute is 45 minutes" / "Since we moved, my commute is 15 minutes": the older's
    // subject, its head at least, is what the newer says changed.
    if (!sy.keys.length && changedIn(sx, y)) return 'same';
    return 'unknown';
  }
  // "The team uses Jira for sprint tracking" / "Sprint tracking moved to Shortcut": what a team or
  // company uses for a thing is that thing's, as with "we".
  const collective = (p: Subject) => p.keys.length === 1 && !p.names.length && COLLECTIVE.test(p.keys[0]);
  if ((collective(sx) && actedOn(sy, x, true)) || (collective(sy) && actedOn(sx, y, false))) return 'same';
  if (compareSubjects(withVerbHead(x, sx, sy), withVerbHead(y, sy, sx)) === 'same') return 'same';
  // "The user lives in Lyon" / "The user's sister just moved to Marseille": the newer tells of someone's
  // relation, another subject, whatever it did.
  if (sy.head !== null && RELATIONAL.has(sy.head) && !sx.keys.includes(sy.head) && sx.keys.length > 0 && sx.keys.every((k) => sy.keys.includes(k))) return 'different';
  // "My rent is $1,850" / "The landlord raised my rent": the newer's subject acts on the older's.
  if (changedIn(sx, y)) return 'same';
  // "The mobile app supports iOS 16" / "Minimum iOS version for the app was raised to 17": a subject
  // qualified by the other's head ("… for the app") is an attribute of it, when the two values are
  // of one attribute named in both ("iOS").
  const attributeOf = (p: Subject, q: Subject, pz: SentenceInfo, qz: SentenceInfo) => p.mods.length > 0 && q.head !== null && p.mods.some((k) => same(k, q.head!)) &&
    [...qz.attributeNames].some((k) => pz.keys.has(k));
  if (attributeOf(sx, sy, x, y) || attributeOf(sy, sx, y, x)) return 'same';
  // A titled note's line with a subject of its own, the other's ("Q3 infra review: … CDN switched to Fastly" / "Our CDN is Cloudflare").
  if ((mx.titled || my.titled) && x.subject.keys.length && y.subject.keys.length && compareSubjects(x.subject, y.subject) === 'same') return 'same';
  const outside = (s: SentenceInfo, subject: Subject) => new Set([...s.keys].filter((k) => !subject.keys.includes(k)));
  const holders = OWNERSHIP.test(x.text.toLowerCase()) || OWNERSHIP.test(y.text.toLowerCase());
  // (the holder may be a relation, "Leo's team owns the billing service"; the thing held may not)
  if (holders && ((!relationOf(sx) && namedIn(sx, outside(y, sy))) || (!relationOf(sy) && namedIn(sy, outside(x, sx))))) return 'same';
  return 'different';
}

export interface PairContext {
  /** Cosine of the two memories' embeddings (null when either has none). */
  cosine: number | null;
  /** Entities both memories are linked to (from the write's entity extraction). */
  sharedEntities: number;
  /** The rule judge's verdict on the pair (triples and sentence signals). */
  rule: 'rdf_conflict' | 'semantic_conflict' | 'none';
}

/** Feature names, in the order of the model's weights. */
export const FEATURES = [
  'cos', 'cos_hi', 'overlap', 'shared_names', 'single_hunk', 'hunks', 'val_diff', 'val_same', 'version_diff', 'date_only',
  'name_change', 'subj_same', 'subj_diff', 'first_both', 'change_new', 'negchange_new', 'soft_new', 'history', 'hypo', 'future',
  'multi_new', 'ordinal_diff', 'neg_flip', 'rule_rdf', 'rule_sem', 'entities', 'kv_both', 'same_text',
  'val_diff_same_subj', 'name_change_same_subj', 'change_x_overlap', 'val_diff_x_diff_subj', 'added_only', 'attr_change',
  'time_diff', 'ownership_change', 'replaced', 'date_moved', 'date_event', 'retired', 'other_time', 'multi_verb', 'date_fixed',
  'marked_replacement', 'stopped', 'swap', 'swap_chain', 'swap_elsewhere', 'holder_new', 'kv_replace', 'topic_disjoint',
  'own_subject_replaced', 'value_replaced',
] as const;
export type FeatureName = (typeof FEATURES)[number];
export type FeatureVector = Record<FeatureName, number>;

export interface SentencePairView {
  older: string;
  newer: string;
  features: FeatureVector;
  /** Something differs that could make a conflict (a value, a name, a polarity, a change marker, a rule finding). */
  eligible: boolean;
  /** Facts for choosing the kind of conflict. */
  valueChange: boolean;
  negFlip: boolean;
  changeMarked: boolean;
  /** Only the date of a one-time past event differs ("was published in 2018" / "in 2020"). */
  fixedEvent: boolean;
  /** A note's value, said to have changed in so many words: a conflict whatever the model scores (see markedUpdate). */
  decisive: boolean;
}

/** A pronoun subject in a memory that names the other sentence's subject ("Met Tom today; he moved"). */
const corefers = (x: SentenceInfo, mx: MemoryInfo, y: SentenceInfo) =>
  x.subjectKind === 'pronoun' && y.subject.keys.length > 0 && y.subject.keys.every((k) => mx.keys.has(k));
const nameKeysOf = (x: SentenceInfo) => x.toks.filter((t) => t.kind === 'name').map((t) => t.key);

/**
 * Words of judgement ("awesome", "tough", "important"): every chat sentence may hold one, so two
 * sentences sharing only such a word are not about one thing. Keys as the tokenizer makes them.
 */
const EVALUATIVE_KEYS = new Set(tokenizeSentence(
  'awesome great amazing incredible fun cool nice lovely wonderful fantastic exciting excited tough hard rough scary ' +
  'beautiful epic rad intense inspiring relaxing peaceful rewarding crazy wild sad important good bad best better worse ' +
  'happy glad proud lucky super special stunning gorgeous terrible awful horrible fine perfect',
).toks.map((t) => t.key));
/** The newer sentence names a name or a subject word of the older one. */
const sharesTopic = (a: SentenceInfo, b: SentenceInfo) =>
  nameKeysOf(a).some((k) => b.keys.has(k)) || a.subject.keys.some((k) => b.keys.has(k) && !EVALUATIVE_KEYS.has(k));

/** The sentence pairs worth a full comparison: most shared content first. */
export function alignedPairs(newer: MemoryInfo, older: MemoryInfo, k = ALIGNED_PAIRS): Array<[SentenceInfo, SentenceInfo]> {
  if (k < 1) return [];
  // The k best so far, best first; a later pair of equal score comes after (as a stable sort would).
  const top: Array<[number, SentenceInfo, SentenceInfo]> = [];
  const marked: Array<[number, SentenceInfo, SentenceInfo]> = [];
  const titled = newer.titled || older.titled;
  const olderNames = older.sentences.map(nameKeysOf);
  // Two memories of many facts (transcripts, long texts) have hundreds of sentence pairs, and some
  // share words by chance ("pass the following arguments" / "passing all arguments to a console
  // method", from two libraries' pages): only a pair about one named thing compares — one speaker's
  // lines, a name both subjects hold, or two memories under one title (a package's changelog entries).
  const bothMany = holdsManyFacts(newer.text) && holdsManyFacts(older.text);
  const oneTitle = newer.titled && older.titled && newer.anchors.keys.some((k) => older.anchors.keys.includes(k));
  const unnamed = (a: SentenceInfo, b: SentenceInfo) =>
    bothMany && !oneTitle && !(a.speaker !== null && a.speaker === b.speaker) && !b.subject.names.some((n) => n !== 'i' && a.subject.names.includes(n));
  // Shared keys counted through an index of the older sentences' keys: long memories have hundreds
  // of sentence pairs, most sharing nothing.
  const withKey = new Map<string, number[]>();
  older.sentences.forEach((a, i) => { for (const key of a.keys) (withKey.get(key) ?? withKey.set(key, []).get(key)!).push(i); });
  const counts = new Uint16Array(older.sentences.length);
  for (const b of newer.sentences) {
    const bNames = nameKeysOf(b);
    const bAcronyms = b.subject.names.filter((n) => n.length >= 2 && n.length <= 5);
    counts.fill(0);
    for (const key of b.keys) if (!EVALUATIVE_KEYS.has(key)) for (const i of withKey.get(key) ?? []) counts[i]++;
    for (let i = 0; i < older.sentences.length; i++) {
      const a = older.sentences[i];
      if (unnamed(a, b)) continue;
      let shared = counts[i];
      // An abbreviated name shares content with its long form ("PG" / "Postgres", "K8s" / "Kubernetes").
      if (!shared) for (const n of bNames) if (olderNames[i].some((x) => alias(n, x))) shared++;
      // So does a subject written short ("The repo" / "Repository").
      if (!shared) for (const n of b.subject.keys) if (a.subject.keys.some((x) => x !== n && same(n, x))) shared++;
      // Or in other words ("Home internet provider: BT" / "switched broadband to Hyperoptic").
      if (!shared) for (const n of b.keys) if (a.subject.keys.some((x) => synonyms(n, x))) shared++;
      // Or as an acronym, either way ("MAU" / "Monthly active users").
      if (!shared && (bAcronyms.length || a.subject.names.length) && (acronymIn(b.subject, a.subject) || acronymIn(a.subject, b.subject))) shared++;
      if (shared === 0) {
        const sameSpeaker = (a.subjectKind === 'first' && b.subjectKind === 'first' && !otherSpeakers(a, b)) || speaks(a, b.subject) || speaks(b, a.subject);
        if (!sameSpeaker && !corefers(b, newer, a) && !corefers(a, older, b)) continue;
      }
      const score = shared / Math.sqrt(Math.max(1, a.keys.size) * Math.max(1, b.keys.size)) + shared * 0.01;
      // (a newer sentence that says something changed is compared too, however little it shares:
      // in a long note the change sits among sentences that share more; a titled list such as a
      // changelog's says what changed on every line)
      // (of what the older sentence is about, not of a word the two merely share: in a long memory
      // some sentence shares a word with every other — "things have been tough" / "setbacks can be tough")
      if (shared > 0 && !titled && (b.marks.has('change') || b.marks.has('negchange')) && (shared >= 2 || sharesTopic(a, b))) marked.push([score, a, b]);
      if (top.length === k && score <= top[k - 1][0]) continue;
      let at = top.length;
      while (at > 0 && top[at - 1][0] < score) at--;
      top.splice(at, 0, [score, a, b]);
      if (top.length > k) top.pop();
    }
  }
  const extra = marked.filter(([, a, b]) => !top.some(([, x, y]) => x === a && y === b)).sort((x, y) => y[0] - x[0]).slice(0, k);
  return [...top, ...extra].map(([, a, b]) => [a, b]);
}

const THIS_PERIOD = /\bthis (?:week|weekend|month|sprint|iteration)(?:'s)?\b/;
// A time something holds from on ("from tonight", "starting Monday").
const FROM_THEN = /\b(?:from (?:now|today|tonight|tomorrow|next|this|the (?:\d|first|start|beginning)|(?:mon|tues|wednes|thurs|fri|satur|sun)day|january|february|march|april|may|june|july|august|september|october|november|december|\d)|starting|as of|effective|beginning|going forward)\b/;
// A weekday or a day named from today: a time the newer may name for one occasion.
const WEEKDAY = /^(?:mon|tue|wed|thu|fri|sat|sun)|^(?:today|tonight|tomorrow|yesterday)$/;
// One named day ("this Friday", "tomorrow"), not a weekday that comes back.
const OCCASION = /^(?:(?:this|next|last)-(?:mon|tues|wednes|thurs|fri|satur|sun)day|today|tonight|tomorrow|yesterday)$/;

export function sentencePairFeatures(a: SentenceInfo, b: SentenceInfo, older: MemoryInfo, newer: MemoryInfo, ctx: PairContext): SentencePairView {
  // (the two sentences lower-cased once: most tests below read them so)
  const [la, lb] = [a.text.toLowerCase(), b.text.toLowerCase()];
  let shared = 0;
  let sharedNames = 0;
  const nameKeys = (s: SentenceInfo) => new Set(s.toks.filter((t) => t.kind === 'name').map((t) => t.key));
  const na = nameKeys(a);
  for (const key of b.keys) if (a.keys.has(key)) shared++;
  for (const key of nameKeys(b)) if (na.has(key)) sharedNames++;
  // A pronoun standing for the other sentence's subject counts as naming it ("he moved" / "Tom lives").
  if (b.subjectKind === 'pronoun' && a.subject.keys.length && a.subject.keys.every((k) => newer.keys.has(k))) shared += 1;
  if (a.subjectKind === 'pronoun' && b.subject.keys.length && b.subject.keys.every((k) => older.keys.has(k))) shared += 1;
  const overlap = shared / Math.max(1, Math.min(a.keys.size, b.keys.size));
  const hunks = diff(a.toks, b.toks);
  const [va, vb] = comparableValues(a.values, b.values);
  // The values are of the same thing: names decide when both sides have them ("mime-db@1.7" is
  // not "mime-types@2.1"), else any shared word ("Standards-Version to 4.5" / "Standards-Version 4.6").
  // Figures that count different things ("$20" / "5 seats", "64 GB of RAM" / "2 TB of disk") are of different attributes.
  // (one side may name what it counts before its figure instead: "200 GB of storage" / "storage to 500 GB")
  // (or names it as its subject: "Node version: 18.19" / "node version bumped to 20.11")
  const countedIn = (x: SentenceInfo, y: SentenceInfo) => !y.counted.size && [...x.counted].some((k) => [...y.leading, ...y.subject.keys].some((m) => same(k, m)));
  // (a subject written as its initials counts what the long form names: "Monthly active users: ~40k" / "MAU is at 55k")
  const initials = (!a.counted.size || !b.counted.size) && (acronymIn(a.subject, b.subject) || acronymIn(b.subject, a.subject));
  const countedMatch = (!a.counted.size && !b.counted.size) || [...a.counted].some((k) => [...b.counted].some((m) => same(k, m))) ||
    countedIn(a, b) || countedIn(b, a) || initials;
  // (both count the same thing: "allows 3 projects" / "limit increased to 5 projects")
  const countedSame = a.counted.size > 0 && b.counted.size > 0 && countedMatch;
  // One figure on each side, in one unit (a price, a size, a duration, a clock time).
  // (or a span of two: "between 9:00 and 17:00")
  const unitOf = (x: SentenceInfo) => ((x.values.length === 1 || (x.values.length === 2 && x.toks.some((t) => t.low === 'between'))) &&
    x.values.every((v) => dimensionOf(v) === dimensionOf(x.values[0])) && dimensionOf(x.values[0]) !== 'figure' ? dimensionOf(x.values[0]) : null);
  // (not when each counts its own thing: "64 GB of RAM" / "2 TB of disk space")
  const unitPair = unitOf(a) !== null && unitOf(a) === unitOf(b) && countedMatch;
  const rel0 = subjectRelation(a, b, older, newer);
  // Such a figure said to have changed, of a subject named in other words that share one with the
  // older's ("Our monthly cloud bill is about $8k" / "Cloud spend dropped to $5k a month"; "The
  // kids' school starts at 8:15" / "School start time changed to 8:45"): the same subject.
  // The newer names the older's own value as the one replaced, its subject named in the older:
  // about the same thing ("The company car is a Skoda Octavia" / "The Octavia was replaced by a
  // Tesla"; "Our accounting software is Xero" / "Accounting moved off Xero to QuickBooks").
  const rep = b.replacement;
  const ownOld = new Set(a.replacement?.old ?? []);
  // (the old value the newer names, among the older's words that are not its own old value)
  // (a day the older dates with is one of its words: "starts Dec 15" / "now begins Dec 10, not the 15th")
  const olderTerms = [...a.keys, ...a.toks.filter((t) => t.kind === 'timeref').map((t) => t.key)];
  // (a verb is no value: "instead of using quilt patches" names nothing the older "uses")
  const namesOlder = (outsideSubject: boolean) => Boolean(rep && rep.old.some((k) => !VERB_STEMS.has(k) && !/(?:ed|ing)$/.test(k) && olderTerms.some((x) =>
    !ownOld.has(x) && !(outsideSubject && a.subject.keys.includes(x)) && near(dayOf(k), dayOf(x)))));
  const namesOldValue = namesOlder(true);
  const subjectInOlder = b.subject.keys.length > 0 && b.subject.keys.every((k) => [...a.keys].some((x) => same(k, x))) &&
    !(a.subject.names.length && b.subject.names.length && !anySame(a.subject.names, b.subject.names));
  const actor = b.subject.keys.length === 1 && COLLECTIVE.test(b.subject.keys[0]);
  const swapsNamed = b.marks.has('change') && a.toks.some((t) => t.kind === 'name' && !a.subject.names.includes(t.key) && b.keys.has(t.key)) &&
    b.toks.some((t) => t.kind === 'name' && !t.initial && !a.keys.has(t.key));
  // Someone the older never names changed such a figure of what the older names right before its own
  // ("The user's medication is lisinopril 10mg" / "Doctor increased the lisinopril to 20mg").
  const outsideActor = b.subject.keys.length > 0 && b.subject.keys.every((k) => !older.keys.has(k)) && [...b.leading].some((k) => a.leading.has(k));
  const rel = rel0 === 'different' && ((unitPair && b.marks.has('change') && !older.titled && !newer.titled && (rewordedSubject(a, b) || sharesThing(a, b) || outsideActor)) ||
    (namesOldValue && (subjectInOlder || actor) && !titlesDiffer(older, newer)) ||
    // (or a note keyed by what the user has, and the user, named or "I", replacing its value: "Editor: VS Code" /
    // "User switched to Neovim … instead of VS Code")
    (a.kv && namesOlder(false) && ownerSpeaks(b)) ||
    // (or names it beside a new one, the subjects sharing a word: "Our design tool is Sketch" / "Design team has moved to Figma, Sketch licenses not renewed")
    (swapsNamed && anySame(a.subject.keys, b.subject.keys) && !qualifierDiff(a, b) && !titlesDiffer(older, newer))) ? 'same' : rel0;
  // About the same subject, such figures are of the same attribute, however each names it ("We pay
  // $49/month for the Figma seat" / "Figma went up, it's $59 a month now"; "7:40 train" / "catch the 8:15 instead").
  const oneUnit = rel === 'same' && unitPair;
  // (the newer names the older's figure as the one replaced: "on the 25th instead of the 1st")
  const chainedValue = Boolean(rep && rep.old.some((k) => a.values.includes(k)) && rep.new.some((k) => b.values.includes(k)));
  // (names of each figure's attribute that the other sentence names too, anywhere, are of one thing:
  // "FY26 budget for the EU team: $120k" / "Finance trimmed the EU team's FY26 budget to $95k")
  const namesShared = (x: SentenceInfo, y: SentenceInfo) => [...x.attributeNames].some((k) => y.keys.has(k));
  const sameAttr = oneUnit || countedSame || chainedValue || countedMatch && (!a.attributes.size || !b.attributes.size || (a.attributeNames.size && b.attributeNames.size
    ? anySame([...a.attributeNames], [...b.attributeNames]) || (namesShared(a, b) && namesShared(b, a))
    : attributesMatch(a.attributes, b.attributes, a.keys, b.keys)));
  // A value replaced: each side has one the other lacks (an added figure is not a replacement).
  // (the figure the newer names as replaced is not one it states)
  const vbNow = chainedValue ? new Set([...vb].filter((v) => !rep!.old.includes(v))) : vb;
  const valDiff = (sameAttr && [...va].some((v) => !vbNow.has(v)) && [...vbNow].some((v) => !va.has(v))) || stateChange(a, b);
  const valSame = va.size > 0 && va.size === vb.size && [...va].every((v) => vb.has(v)) &&
    !a.toks.some((t) => t.kind === 'name' && !b.keys.has(t.key)) && !timeDiffOf(a, b);
  // (a year, or a day of the month: "the 25th")
  const isDate = (t: Tok) => t.kind === 'timeref' || (t.kind === 'value' && /^(?:(?:19|20)\d\d|\d{1,2}(?:st|nd|rd|th))$/.test(t.key));
  // (words of either subject are a refinement of it, "Project Falcon" / "Falcon", not a change)
  const refines = (p: string[], q: string[]) => p.length > 0 && q.length > 0 && p.every((k) => q.includes(k));
  const subjectWords = new Set(refines(a.subject.keys, b.subject.keys) || refines(b.subject.keys, a.subject.keys) ? [...a.subject.keys, ...b.subject.keys] : []);
  // (nor are the words of a note's key that the other sentence leaves out: "Release cadence: every 2 weeks" / "We release weekly now")
  for (const x of [a, b]) if (x.kv) for (const k of x.subject.keys) subjectWords.add(k);
  const changed = hunks.flatMap((h) => [...h.a, ...h.b]).filter((t) => !(subjectWords.has(t.key) && a.keys.has(t.key) !== b.keys.has(t.key)));
  const verbish = (t: Tok) => t.kind === 'word' && (VERB_STEMS.has(t.key) || /(?:ed|ing)$/.test(t.low));
  // (a cadence is a date too: "every Friday" / "every other Tuesday")
  const dateOnly = changed.some(isDate) && changed.every((t) => isDate(t) || !t.content || verbish(t) || t.low === 'other' || t.low === 'alternate' ||
    /^(?:daily|weekly|fortnightly|monthly|quarterly|yearly)$/.test(t.low));
  // A name replaced, wherever it stands ("Alice owns billing" / "billing is Bob's now").
  // (a short form is a word as written, not a stem, and a plain word is one only when very short:
  // "notes" is no "Notion", "crash" no "Crashlytics"; "pg" is "Postgres")
  const names = (x: SentenceInfo, y: SentenceInfo) => x.toks.some((t) => t.kind === 'name' && !y.keys.has(t.key) &&
    !y.toks.some((k) => k.content && (k.kind !== 'word' || k.low.length <= 3) && alias(t.key, k.kind === 'word' ? k.low : k.key)));
  const nameChange = names(a, b) && names(b, a);
  const times = (x: SentenceInfo) => new Set(x.toks.filter(isDate).map((t) => t.key));
  const ta = times(a);
  const tb = times(b);
  const timeDiff = [...ta].some((t) => !tb.has(t)) && [...tb].some((t) => !ta.has(t));
  const nounish = (t: Tok) => t.content && t.kind !== 'value' && !VERB_STEMS.has(t.key) && !/(?:ed|ing)$/.test(t.key);
  const replaced = hunks.some((h) => h.a.some(nounish) && h.b.some(nounish));
  const past = a.past && b.past;
  // Something both name that is not their common subject: the thing whose holder changed.
  const objectShared = [...b.keys].some((k) => a.keys.has(k) && !(a.subject.keys.includes(k) && b.subject.keys.includes(k)));
  // A claim and its denial: the polarity differs and nothing else was replaced ("does not live in
  // Paris" / "lives in Lyon" are compatible).
  // (a word and its antonym flip it too; "not open" / "closed" say the same)
  const antonym = antonymSwap(a, b);
  // (a denial in an aside about something else flips nothing: "Upgraded prod k8s to 1.29, no issues so far")
  const flipped = (a.polarity !== b.polarity && !asideDenial(a, b) && !asideDenial(b, a)) !== antonym;
  // (or one said to correct it, in more words: "her penicillin allergy turned out to be wrong, she is not allergic after all")
  const corrects = flipped && !valDiff && !nameChange && CORRECTION.test(lb) && !CORRECTION.test(la) && overlap >= 0.5;
  const pureFlip = corrects || (flipped && !valDiff && !nameChange &&
    hunks.every((h) => h.a.filter((t) => t.content).length <= 1 && h.b.filter((t) => t.content).length <= 1));
  const multiVerb = MULTI_VERBS.test(la) && MULTI_VERBS.test(lb);
  // Only the date differs: a schedule moved ("starts on Monday" / "on Wednesday"), a fixed past
  // event told two ways ("was published in 2018" / "in 2020"), or another occurrence of something
  // done again ("visited Egypt in 2015" / "in 2022").
  // (the newer says it changed: "moved to", "rescheduled to", "slipped to")
  const moved = b.marks.has('change');
  // (or a date said to have moved, in other words around it: "on leave until May" / "extended her leave
  // through August"; "prefers calls on Tuesday afternoons" / "asked to move our calls to Wednesday mornings")
  // (the older's time may stay in the newer as the reason: "on Saturday mornings now, Sundays are too busy")
  // A date that is what the subject is (a birthday, a deadline), other on each side: one date replaced
  // or denied, not two occasions ("User's birthday is 14 March" / "their birthday falls on 21 March").
  // (of one thing: "The Q3 report deadline" is not the Q4 report's)
  const dayOnly = (x: SentenceInfo) => x.values.every((v) => /^\d{1,2}(?:st|nd|rd|th)$/.test(v));
  const dateValued = rel === 'same' && (timeDiff || valDiff) && dateNoun(a) && dateNoun(b) && dayOnly(a) && dayOnly(b) && subjectTimes(a) === subjectTimes(b);
  const dateChange = dateValued || (dateOnly && timeDiff) || (moved && endTimeOf(a) !== null && endTimeOf(b) !== null && timeDiff) ||
    ((moved || b.marks.has('soft')) && movedToTime(b) && [...tb].some((t) => !ta.has(t)) && !timesJoined(a, b));
  const fixedEvent = PASSIVE.test(la) && PASSIVE.test(lb);
  // "works at Oracle" → "used to work at Oracle": the same fact, now told as history.
  // (not when the newer brings a name of its own: "worked at Stripe before she joined Shopify" is a past job beside the current one)
  const retired = b.marks.has('history') && !a.marks.has('history') && !valDiff && !nameChange && shared >= 2 && !names(b, a);
  // A holder replaced: both sides say who holds it, or the newer says it was handed over.
  // ("My manager is Priya" / "I report to Daniel now": whom I report to is who manages me)
  const ownership = (OWNERSHIP.test(lb) && OWNERSHIP.test(la)) || TRANSFER.test(lb) ||
    (/\b(?:i|we|s?he|they) (?:now )?reports? to\b/.test(lb) && OWNERSHIP.test(la));
  const ordA = a.toks.filter((t) => t.kind === 'ordinal').map((t) => t.key).join(' ');
  const ordB = b.toks.filter((t) => t.kind === 'ordinal').map((t) => t.key).join(' ');
  const m = (s: SentenceInfo, k: Mark) => (s.marks.has(k) ? 1 : 0);
  const changeNew = m(b, 'change');
  const cos = ctx.cosine ?? 0;
  const addedOnly = hunks.some((h) => h.b.some((t) => t.content)) && hunks.every((h) => !h.a.some((t) => t.content || t.kind === 'timeref'));
  const sameSubj = rel !== 'different' ? 1 : 0;
  const changeMarked = b.marks.has('change') || b.marks.has('negchange') || b.marks.has('soft');
  const oldNames = a.toks.filter((t) => t.kind === 'name' && !a.subject.names.includes(t.key));
  const swap = (b.marks.has('change') || b.marks.has('negchange')) && !b.marks.has('history') && names(b, a) && oldNames.some((t) => b.keys.has(t.key));
  // Another subject (another package, office, relative) is another thing: never a conflict, unless
  // what changed is who holds the same thing.
  // (a new holder named while the old one is said to have left: "Wendy is lead (Paul stepped down)")
  // (or one without a name, held "now": "The data pipeline is owned by the platform team now")
  const newHolder = nameChange || (names(b, a) && (b.marks.has('negchange') || b.marks.has('change'))) || HELD_NOW.test(lb);
  // (a title is not a holder: "pkg-a: New maintainer" / "pkg-b: New maintainer" are two packages)
  // (between chat lines, only of what both mostly talk about: "That's a great lesson to pass on to your kids, John")
  // (of one role: "The user's dentist is Dr. Patel" / "The user's GP is Dr. Hughes" are two)
  const roles = (low: string) => new Set(low.match(PERSONAL_ROLE) ?? []);
  const [roleA, roleB] = [roles(la), roles(lb)];
  const otherRole = roleA.size > 0 && roleB.size > 0 && ![...roleA].some((r) => roleB.has(r));
  // (two changelog lines: only of what the older says someone holds; "Upgraded to new Debian Perl Policy" holds nothing)
  const ownershipChange = ownership && newHolder && objectShared && !(older.titled && newer.titled && !OWNERSHIP.test(la) && !TRANSFER.test(la)) && !otherRole && !qualifierDiff(a, b) && !titlesDiffer(older, newer) && !relationOf(a.subject) && !relationOf(b.subject) &&
    !chatApart(a, b, overlap);
  // The newer sentence names what was replaced ("X instead of Y", "from Y to X"): an update of the
  // older one when the older states that old value; about something else when the older names
  // neither value ("New maintainer" / "Build with openssl instead of libgcrypt").
  const swapChain = namesOlder(false);
  // (an old value named by a pronoun is unknown, not elsewhere: "replaced it with a Bosch")
  const swapElsewhere = Boolean(rep && rep.old.length > 0 && !swapChain && ![...rep.old, ...rep.new].some((k) => olderTerms.some((x) => near(dayOf(k), dayOf(x)))));
  // Figures of two attributes; figures of two names are models or versions of two things ("Pixel 6" / "iPhone 15"): a name replaced.
  const attrChange = a.values.length > 0 && b.values.length > 0 && !sameAttr && !(countedMatch && a.attributeNames.size && b.attributeNames.size && !anySame([...a.attributeNames], [...b.attributeNames]));
  // A new holder announced ("took over", "new maintainer") of what the older says someone holds.
  // Two notes with the same key and wholly different values ("deploy owner: dana" / "deploy owner: ravi"),
  // unless the key holds many values ("likes: …", "tools: …").
  // (a short value: a note whose value is a sentence is a title and its text, not a key and its value)
  // (not figures of two attributes: "pkg: debhelper-compat 12" / "pkg: Standards-Version: 4.6.1")
  const kvReplace = a.kvShort && b.kvShort && rel === 'same' && !attrChange && a.kvValue.size > 0 && b.kvValue.size > 0 &&
    ![...b.kvValue].some((k) => [...a.kvValue].some((x) => near(k, x))) && (!MULTI_KEY.test(b.subject.keys.at(-1) ?? '') || b.subject.keys.slice(0, -1).some((k) => SINGLE_KEY.test(k))) && !b.marks.has('multi');
  // What each sentence is about besides its subject: its other content words, verbs left out. Two
  // changes of one package that share none of them are changes of two things ("Use salsa Vcs-*
  // URLs" / "Standards-Version updated to 4.2.1"); one value for another ("Berlin" / "Lisbon") is
  // too small to tell.
  const figures = (x: SentenceInfo) => new Set(x.toks.filter((t) => t.kind === 'value').map((t) => t.key));
  const topicOf = (x: SentenceInfo, m: MemoryInfo) => {
    const skip = new Set([...x.subject.keys, ...(m.titled ? m.anchors.keys : []), ...figures(x)]);
    return [...x.keys].filter((k) => !skip.has(k) && !VERB_STEMS.has(k) && !/(?:ed|ing)$/.test(k));
  };
  const ta2 = topicOf(a, older);
  const tb2 = topicOf(b, newer);
  const rest = (x: SentenceInfo, m: MemoryInfo) => [...x.keys].filter((k) => !(m.titled && m.anchors.keys.includes(k)));
  const [ra, rb] = [rest(a, older), rest(b, newer)];
  const shortKv = (x: SentenceInfo) => x.kvShort;
  // (the newer's words may name the older's key in other words, when it is not the newer's title too:
  // "Broadband provider: Virgin Media" / "switched internet to Community Fibre")
  const olderKey = a.subject.keys.filter((k) => !b.subject.keys.includes(k) && !(newer.titled && newer.anchors.keys.includes(k)));
  const topicDisjoint = !shortKv(a) && !shortKv(b) && ta2.length + tb2.length >= 4 &&
    !ta2.some((k) => rb.some((m) => near(k, m))) && !tb2.some((k) => [...ra, ...olderKey].some((m) => near(k, m)));
  const holderNew = rel !== 'different' && TRANSFER.test(lb) && (OWNERSHIP.test(la) || TRANSFER.test(la)) && hunks.length > 0;
  // Two lines of one changelog (both titled) that name nothing in common but their package, files and
  // verbs are changes of two things, whatever names each brings ("json-c: debian/control: Mark
  // libjson-c-doc as M-A: foreign" / "json-c: debian/control: Bump Standards-Version to 4.5.0").
  const lineTopic = (x: string[]) => x.filter((k) => !k.includes('/') && !CHANGELOG_WORDS.has(k));
  const [la2, lb2] = [lineTopic(ta2), lineTopic(tb2)];
  // (a note's short value is a value, not a line: "Primary contact: Jane Doe" / "Primary contact: Omar Haddad")
  const changelogApart = older.titled && newer.titled && !(a.kvShort && b.kvShort) && la2.length > 0 && lb2.length > 0 && !la2.some((k) => lb2.some((m) => near(k, m)));
  // Both sentences name their own subject (not a changelog's title over all its lines), the same
  // one, and give it another value: "Error tracking uses Sentry" / "We switched error tracking to Rollbar".
  const ownSubject = (s: SentenceInfo, m: MemoryInfo) => s.subject.keys.length > 0 && (!m.titled || m.sentences[0] === s);
  const actedOnSubject = (s: SentenceInfo, other: SentenceInfo) => s.subjectKind === 'first' && other.subject.keys.length > 0 && other.subject.keys.every((k) => [...s.keys].some((m) => same(k, m)));
  const ownSubjectReplaced = (valDiff || nameChange || kvReplace) && rel === 'same' && !swapElsewhere &&
    ((ownSubject(a, older) && ownSubject(b, newer) && compareSubjects(a.subject, b.subject) === 'same') ||
      (ownSubject(a, older) && actedOnSubject(b, a)) || (ownSubject(b, newer) && actedOnSubject(a, b)));
  // A note (not a changelog's line) that gave its subject one value, and a newer one that says it
  // changed and replaces something, with nothing saying it is one more, a plan or history.
  // (a one-line `key: value` note is a note: "Default branch: master" / "default branch renamed to main")
  const note = older.titled && older.sentences.length === 1 && a.kvShort;
  const valueReplaced = statesValue(a) && changeMarked && (rel !== 'different' || ownershipChange) &&
    (valDiff || nameChange || replaced || swap || swapChain || kvReplace || ownershipChange) && (!older.titled || note) && !newer.titled &&
    !attrChange && cos >= 0.5 && !(['history', 'hypo', 'future', 'multi'] as const).some((k) => b.marks.has(k));
  // "We don't use Slack anymore": the same thing, now denied with a marker of change; or a stop in
  // so many words of what the older states in the present, its object named again ("The user
  // drinks oat milk" / "stopped drinking oat milk"; "Sara works at Google" / "Sara left Google in June").
  // (a denial of something else the sentence says, "no longer overwrites writer options" / "Added the writer option", is not)
  const stopped = rel !== 'different' && b.marks.has('negchange') && (pureFlip || (flipped && overlap >= 0.5) ||
    // (a name of the older's stopped needs no more words in common: "User's gym is PureGym" / "User cancelled PureGym")
    (!pastOnly(a) && !a.marks.has('negchange') && !b.marks.has('history') && (overlap >= 0.5 || sharedNames > 0) && stopsWhatOlderSays(a, b)));
  const features: FeatureVector = {
    cos,
    cos_hi: Math.max(0, cos - 0.6) * 2.5,
    overlap,
    shared_names: Math.min(3, sharedNames) / 3,
    single_hunk: hunks.length === 1 ? 1 : 0,
    hunks: Math.min(4, hunks.length) / 4,
    val_diff: valDiff ? 1 : 0,
    // (a denial keeps the value it denies)
    val_same: valSame && !pureFlip ? 1 : 0,
    version_diff: valDiff && a.versions > 0 && b.versions > 0 ? 1 : 0,
    // (a moved date is described by date_moved / date_event / date_fixed below)
    // (nor is the date of a stop: "left Google in June")
    date_only: dateOnly && !dateChange && !stopped ? 1 : 0,
    name_change: nameChange ? 1 : 0,
    subj_same: rel === 'same' ? 1 : 0,
    // A new holder is a new subject by construction: not evidence of another thing.
    subj_diff: rel === 'different' && !ownershipChange ? 1 : 0,
    first_both: a.subjectKind === 'first' && b.subjectKind === 'first' ? 1 : 0,
    change_new: changeNew,
    negchange_new: m(b, 'negchange') && !m(a, 'negchange') ? 1 : 0,
    soft_new: m(b, 'soft'),
    history: m(b, 'history') || m(a, 'history') ? 1 : 0,
    hypo: m(b, 'hypo') || m(a, 'hypo') ? 1 : 0,
    // (the older's "will be held in Lisbon" is the arrangement the newer may change; a plan is the newer's)
    future: m(b, 'future'),
    multi_new: m(b, 'multi'),
    ordinal_diff: ordA !== ordB && (ordA !== '' || ordB !== '') ? 1 : 0,
    neg_flip: pureFlip ? 1 : 0,
    rule_rdf: ctx.rule === 'rdf_conflict' ? 1 : 0,
    rule_sem: ctx.rule === 'semantic_conflict' ? 1 : 0,
    entities: ctx.sharedEntities > 0 ? 1 : 0,
    kv_both: a.kv && b.kv ? 1 : 0,
    same_text: hunks.length === 0 ? 1 : 0,
    val_diff_same_subj: valDiff ? sameSubj : 0,
    name_change_same_subj: nameChange ? sameSubj : 0,
    change_x_overlap: changeNew * overlap,
    val_diff_x_diff_subj: valDiff && rel === 'different' ? 1 : 0,
    // ("renamed from master to main" adds words but names the older's value as the old one)
    // (nor a denial that gives its reason: "Jordan is not allergic to shellfish; it was a misdiagnosis")
    added_only: addedOnly && !swapChain && !pureFlip ? 1 : 0,
    // (the newer saying when it changed is no other occasion: "sold the Civic last weekend")
    time_diff: timeDiff && !dateChange && !changeMarked ? 1 : 0,
    ownership_change: ownershipChange ? 1 : 0,
    replaced: replaced ? 1 : 0,
    // ("has been rescheduled to June 25": a date the newer says it moved to is no other occurrence)
    date_moved: dateChange && (!past || moved) ? 1 : 0,
    date_event: dateChange && past && !fixedEvent && !moved ? 1 : 0,
    retired: retired ? 1 : 0,
    // ("the launch slipped to April 14": a date the newer says it changed to is the value, not another occasion)
    other_time: timeDiff && past && !fixedEvent && !moved ? 1 : 0,
    multi_verb: multiVerb && (nameChange || replaced) ? 1 : 0,
    date_fixed: dateChange && past && fixedEvent ? 1 : 0,
    // The shape of an update: the same subject, something replaced, and the newer says it changed.
    marked_replacement: (rel !== 'different' || ownershipChange) && (valDiff || nameChange || replaced || (dateChange && !past)) && changeMarked && !swapElsewhere ? 1 : 0,
    stopped: stopped ? 1 : 0,
    // "We replaced Dell with Lenovo": the newer names the old value and a new one beside a change word.
    swap: swap ? 1 : 0,
    swap_chain: swapChain ? 1 : 0,
    swap_elsewhere: swapElsewhere ? 1 : 0,
    holder_new: holderNew ? 1 : 0,
    kv_replace: kvReplace ? 1 : 0,
    // (an untitled note that says it changed is about what it names: "Emma lives in Portland with
    // her cats" / "Emma moved to Denver for a job"; a changelog's lines are each a change)
    // (nor one that says "now" of a name in place of the older's: "Payments now go through Adyen")
    topic_disjoint: topicDisjoint && !((b.marks.has('change') || (b.marks.has('soft') && nameChange)) && !older.titled && !newer.titled) ? 1 : 0,
    attr_change: attrChange ? 1 : 0,
    own_subject_replaced: ownSubjectReplaced ? 1 : 0,
    value_replaced: valueReplaced ? 1 : 0,
  };
  // Something must be replaced for a conflict: a value, a name, a polarity, a thing named by a
  // noun (not just other verbs around the same object), or what the rules found.
  // Another time with other figures is another occasion ("5 km on Monday" / "10 km on Wednesday");
  // the other polarity about another thing is compatible ("not in Paris" / "in Lyon").
  // Only the newer names a time, without a marker of change: one occasion, not the rule
  // ("Standup is at 9:30" / "On Friday the standup is at 10:00"; "CI took 40 minutes on the day GitHub was down").
  const onlyNewerTimes = [...tb].some((t) => !ta.has(t)) && [...ta].every((t) => tb.has(t));
  // (a version released on a day is the version from then on: "3.2.1" / "version 3.4.0 went out today")
  const released = valDiff && a.versions > 0 && b.versions > 0;
  // (or a holiday: "The office will open at 10 on Boxing Day")
  // (not a day things change from: "3:00 from tonight")
  const oneOff = (onlyNewerTimes && !released && (b.past || ([...tb].some((t) => WEEKDAY.test(t) && !ta.has(t)) && !FROM_THEN.test(lb)))) || (HOLIDAY.test(lb) && !HOLIDAY.test(la));
  // The older told of a past period the newer does not name ("Last year the conference was in
  // Lisbon" / "This year's conference is in Valencia"): both can hold, whatever marks the newer.
  const pastPeriod = a.past && timeDiff && !dateOnly && [...ta].some((t) => /^(?:last-|yesterday$|(?:19|20)\d\d$)/.test(t));
  // What this or next Friday's meeting does ("Retro this Friday is cancelled") is one occasion of
  // what the older says of every Friday, unless the newer says it starts then or moved.
  // (a version released today is the version from then on)
  // (and so is this week's or this month's: "Book club this month is at Jo's", "was in Lisbon for a conference this week")
  const occasion = !released && (([...tb].some((t) => OCCASION.test(t) && !ta.has(t)) && ![...ta].some((t) => OCCASION.test(t))) ||
    (THIS_PERIOD.test(lb) && !THIS_PERIOD.test(la))) && !b.marks.has('change') && !FROM_THEN.test(lb) &&
    // (a stop of a state, not of something that recurs, is no occasion: "has braces" / "got their braces off yesterday")
    (!b.marks.has('negchange') || ta.size > 0 || /\b(?:every|each|daily|weekly|monthly)\b/.test(la));
  // (a flip between two named times is two occasions: "failing yesterday" / "passing today")
  // (a state flipped by its antonym, told with when: "is broken" / "got fixed this morning", is the state since)
  const otherOccasion = !dateValued && ((((timeDiff && (!dateOnly || flipped)) || (oneOff && !(pureFlip && antonym))) && !changeMarked) || pastPeriod || occasion);
  // (a state said to have changed to its antonym is no other claim: "The repo is public" / "We made the repo private after the review")
  const otherClaim = flipped && !pureFlip && !b.marks.has('negchange') && !(b.marks.has('change') && antonym);
  // "Lisa is also the contact for Globex": one more, not another instead.
  // (and a rule for a part of what the older covers is an exception beside it: "requires one approval" /
  // "now requires two approvals for anything touching auth")
  // (or to a time, unless said to have changed: "closes at 8pm during peak season"; not "moved … during the Q3 rewrite")
  const addition = (b.marks.has('multi') && !changeMarked) || (SCOPED.test(lb) && !SCOPED.test(la)) || (DELTA.test(lb) && b.values.length <= 1) ||
    (PROGRESS.test(lb) && GOAL.test(la) && !GOAL.test(lb)) ||
    (a.kv && b.kv && FOR_WHOM.test(lb) && !/\bfor (?:the|our|a|an|this|that)\b/.test(la) && !b.marks.has('change')) ||
    (SEASON.test(lb) && !SEASON.test(la) && !b.marks.has('change'));
  // "$49/month for Figma" / "$12/user/month for Notion": a figure and a name differ apart, nothing
  // says it changed: the same kind of fact about another thing.
  const anotherThing = valDiff && nameChange && hunks.length >= 2 && !changeMarked && ctx.rule === 'none';
  // "The school starts at 8:15" / "The school ends at 3:10": the two ends of one thing, not one value replaced.
  const otherEnd = opposedVerbs(a, b);
  // A question states nothing ("Did we switch CI to GitHub Actions?"), nor does a plan or a maybe
  // of the newer's ("we might move it to 9:30"), unless the older was one too.
  // (and a move told for a coming season, unless from then on or already made: "is moving back to the
  // UK next spring", not "postponed the wedding to September next year")
  const planned = (PLANNED.test(lb) && !PLANNED.test(la)) ||
    (b.marks.has('future') && /\bnext (?:spring|summer|autumn|fall|winter|year)\b/.test(lb) && !FROM_THEN.test(lb) && !b.past);
  // Only the main verb differs: one holder reworded ("Dana manages the support team" / "Dana now
  // leads the support team"), or the same thing done another way ("The user walks to work" / "The
  // user cycles to work these days"; not a relation that holds many, nor a feeling: "likes
  // running" / "loves running these days").
  const swapped = onlyVerbDiffers(a, b);
  const heldAlike = swapped !== null && swapped.every((v) => HOLDING_VERB.test(v)) && a.polarity === b.polarity;
  const verbSwap = swapped !== null && !heldAlike && !MULTI_VERBS.test(la) && !MULTI_VERBS.test(lb);
  // The newer brings nothing the older lacks but verbs and a date: it says something happened to
  // the older's subject ("The Mapbox API key was rotated on Monday"), not what it is now.
  // (a note's value is what it brings, verb or not: "status: completed")
  const bringsNothing = !b.toks.some((t) => t.content && !a.keys.has(t.key) && !verbish(t) && !isDate(t)) &&
    ![...b.kvValue].some((k) => !a.keys.has(k)) && !b.marks.has('negchange') &&
    !flipped && !dateChange && !valDiff && !kvReplace && !retired && !ownershipChange && !holderNew && !verbSwap;
  const stateSwap = (stateChange(a, b) || (pureFlip && antonym)) && !a.past && !b.past && a.speaker === null && b.speaker === null &&
    !(['hypo', 'future', 'history', 'multi'] as const).some((k) => b.marks.has(k));
  // One denies outright what the other says of the same subject, in other words ("User has no
  // children" / "… pick up their son from daycare"; "is allergic to penicillin" / "has no drug allergies").
  const denial = !QUESTION.test(a.text) && !QUESTION.test(b.text) && !planned && !older.titled && !newer.titled &&
    (rel === 'same' || (a.subjectKind === 'first' && b.subjectKind === 'first' && !otherSpeakers(a, b))) &&
    ![a, b].some((x) => (['hypo', 'future', 'history', 'multi', 'negchange'] as const).some((k) => x.marks.has(k))) &&
    !addition && !qualifierDiff(a, b) && !FOR_SOME.test(la) && !FOR_SOME.test(lb) && (deniesWhatOtherSays(a, b) || deniesWhatOtherSays(b, a));
  const eligible = !saysNothing(a) && !saysNothing(b) && (denial || hunks.length > 0 && !bringsNothing && !QUESTION.test(a.text) && !QUESTION.test(b.text) && !planned && !heldAlike && !otherAge(a, b) && !(changelogApart && !valDiff && !swapChain && !pureFlip && !dateChange && !holderNew && !ownershipChange) && (rel !== 'different' || ownershipChange) && !otherOccasion && !otherClaim && !addition && !anotherThing && !otherEnd && (valDiff || nameChange || pureFlip || ownershipChange || ctx.rule !== 'none' || retired || swap || swapChain || holderNew || kvReplace ||
    (b.marks.has('negchange') && !a.marks.has('negchange') && objectShared) ||
    (b.marks.has('negchange') && flipped) ||
    (verbSwap && (b.marks.has('change') || b.marks.has('soft'))) ||
    (dateChange && (!past || fixedEvent || moved)) ||
    (replaced && (b.marks.has('change') || b.marks.has('negchange') || b.marks.has('soft') || ownership))));
  return {
    older: a.text,
    newer: b.text,
    features,
    eligible,
    valueChange: valDiff || nameChange,
    negFlip: flipped || denial,
    changeMarked,
    fixedEvent: (dateChange && past && fixedEvent) || (dateValued && !changeMarked),
    // (a claim of the same subject said to have been wrong is denied, whatever the model scores)
    // (and one of the states a subject is in at a time, replaced by another or by its antonym: "User is
    // single" / "User is in a relationship"; "is recovering" / "is fully recovered"; "made the repo private")
    decisive: eligible && (markedUpdate(a, b, older, newer, features, cos, verbSwap) || (dateValued && !flipped && cos >= MARKED_UPDATE_MIN_COSINE) ||
      (denial && cos >= MARKED_UPDATE_MIN_COSINE) ||
      ((corrects || stateSwap || (b.marks.has('change') && antonym)) && rel === 'same' && !older.titled && !newer.titled && cos >= MARKED_UPDATE_MIN_COSINE)),
  };
}

/**
 * A sentence that states nothing that could change: a greeting, a reaction to what the other
 * said, a verbless exclamation without a figure or a change ("That's awesome!", "Wow, great pic!",
 * "Sounds like an incredible road trip.", "Long time no talk!"), or a bracketed aside alone ("[shares
 * a photo: …]"). Chat holds many of them; a transcript stored as one memory holds dozens, and each
 * shares a word with some sentence of every other transcript.
 */
function saysNothing(x: SentenceInfo): boolean {
  const t = x.text.trim().toLowerCase();
  if (/^\[[^\]]*\][.!]?$/.test(t) || GREETING.test(t) || REACTION.test(t)) return true;
  return x.verb < 0 && t.endsWith('!') && x.values.length === 0 && !x.marks.has('change') && !x.marks.has('negchange');
}
// (up to three: "Hey Nate, long time no see!")
const OPENER = String.raw`(?:(?:hey|hi|hello|yo|wow|whoa|oh|aw+|ha(?:ha)*|lol|omg|yay|yes|yeah|ooh|woo+)[\s,!.]+|[a-z]+[,!.]\s+){0,3}`;
const GREETING = new RegExp(String.raw`^${OPENER}(?:long time no (?:see|talk|chat|speak)|(?:so |really )?(?:good|great|nice) to (?:see you|hear from you|chat|talk|catch up))\b`);
const EVALUATIONS = 'great|awesome|amazing|incredible|fun|cool|nice|lovely|wonderful|fantastic|exciting|tough|hard|rough|scary|delicious|beautiful|epic|rad|intense|inspiring|relaxing|peaceful|rewarding|crazy|wild|sad|heartbreaking';
const REACTION = new RegExp(String.raw`^${OPENER}(?:(?:that|it|this) )?(?:sounds|looks|seems) (?:like )?(?:a |an |so |really |such |pretty |very )*(?:${EVALUATIONS})\b|^${OPENER}(?:i'?m|i am) (?:so |really |very )?sorry (?:about|to hear|for your)\b` +
  String.raw`|^${OPENER}(?:way to go|well done|good job|great job|nice work|congrat\w*|thanks|thank you|keep (?:it )?up)\b` +
  String.raw`|^${OPENER}(?:that|it|this)(?:'s| is| was|'s been| has been| was just) (?:so |really |just |truly |such )*(?:an? )?(?:${EVALUATIONS})(?: (?:one|thing|news|experience|time))?(?:,? [a-z]+)?[.!]*$`);

// A claim of a part only ("not rate limited for admins", "except on weekends"): no denial of the whole.
const FOR_SOME = /\b(?:for (?:\w+ )?(?:admins?|staff|members|employees|customers|users|students|kids|children|guests|partners|contractors|interns)|except|unless|apart from|other than)\b/;
// Words every changelog line may hold: no topic of its own.
const CHANGELOG_WORDS = new Set(['debian', 'packag', 'fil', 'rul', 'control', 'changelog', 'copyright', 'upstream', 'new', 'build', 'chor', 'fix', 'policy', 'standard']);
const KEEPS_AWAY = /\b(?:avoid\w*|skip\w*|without|free|quit\w*|stop\w*|cut\w* (?:down|back|out)|hates?|dislikes?|only)\b/i;
// Words a denial skips to reach what it denies ("has never been to", "has no known", "doesn't have any").
const DENIAL_SKIP = /^(?:been|be|ever|any|a|an|the|known|single|real|actual|did|done|do|does|have|has|had|got|one|really|even|at|all|my|our|their|his|her)$/;
// What a denied word covers (stems): "no children" denies a son, "doesn't drink coffee" an espresso.
const COVERS = new Map<string, string[]>([
  ['children', ['son', 'daughter', 'kid', 'child', 'children', 'baby', 'toddler', 'stepson', 'stepdaughter']],
  ['kid', ['son', 'daughter', 'kid', 'child', 'children', 'baby', 'toddler']],
  ['sibling', ['brother', 'sister', 'sibling', 'twin']],
  ['coffe', ['coffe', 'espresso', 'latt', 'cappuccino', 'americano', 'mocha', 'macchiato']],
  ['alcohol', ['alcohol', 'win', 'beer', 'whisky', 'whiskey', 'cocktail', 'gin', 'vodka', 'rum', 'champagn']],
  ['meat', ['meat', 'chicken', 'beef', 'pork', 'steak', 'bacon', 'lamb', 'burger', 'sausag', 'ham']],
  ['pet', ['pet', 'dog', 'cat', 'puppy', 'kitten', 'hamster', 'parrot', 'rabbit']],
  ['allergy', ['allerg', 'allergic', 'allergy']],
]);
/**
 * `x` denies outright (never, no, not … any; "an only child") a thing `y` states: one of the content
 * words right after the denial, or one it covers, stands in `y`, which denies nothing itself.
 */
function deniesWhatOtherSays(x: SentenceInfo, y: SentenceInfo): boolean {
  // (`y` keeps away from it too, or says it of a part: "avoids shellfish" / "no shellfish"; "9am invites on Tuesdays only")
  if (y.polarity !== 0 || x.subjectKind === 'none' || KEEPS_AWAY.test(y.text)) return false;
  const low = x.text.toLowerCase();
  // Only a state denied outright ("has no children", "has never been to Japan", "doesn't drink coffee"),
  // not what has not happened yet or a feeling ("haven't read them yet", "I'd never felt so happy").
  const onlyChild = /\bonly child\b/.test(low);
  const form = onlyChild ? null : DENIAL_FORM.exec(low);
  if ((!form && !onlyChild) || /\b(?:yet|so far|before)\b/.test(low) || (form && NO_IDIOM.test(form[0]))) return false;
  const denied = form ? tokenizeSentence(form[1]).toks.filter((t) => t.content && !DENIAL_SKIP.test(t.low) && !VERB_STEMS.has(t.key)).slice(0, 3).map((t) => t.key) : ['sibling'];
  // `y` says the subject has it, went there or takes it: the thing follows a possessive, a verb of
  // having, a place word or a verb of taking ("their son", "a trip to Japan", "had two glasses of wine").
  const held = (i: number) => y.toks.slice(Math.max(0, i - 4), i).some((t) => HELD_BEFORE.test(t.low));
  return y.toks.some((t, i) => t.content && held(i) && denied.some((d) => near(d, t.key) || (COVERS.get(d) ?? []).some((c) => near(c, t.key))));
}
// The forms of an outright denial of a state, and what they deny.
const DENIAL_FORM = /\b(?:(?:has|have|had) no|no known|(?:do|does|did)(?:n't| not) (?:have|own|drink|eat|smoke|speak)(?: (?:a|an|any))?|(?:has|have|had)(?:n't| not)? never (?:been to|visited|lived in|worked (?:in|at|for)|owned|had|smoked|studied|done)|never (?:been to|visited|lived in|worked (?:in|at|for)|smoked|owned|studied|did)|(?:is|am|are)(?:n't| not) allergic to|(?:has|have)(?:n't| not) (?:any|got any))\s+(.{1,40})/;
// "I have no doubt", "no idea", "no problem": sayings, not a thing denied.
const NO_IDIOM = /\bno (?:doubt|idea|problem|worries|clue|way|time|rush|pressure|matter|need|reason|regrets?|complaints?)\b/;
// Words before a thing that say someone has it, went there or takes it.
const HELD_BEFORE = /^(?:my|our|his|her|their|your|has|have|had|got|owns?|with|to|in|at|from|is|am|are|was|were|been|drank|drinks?|drinking|ate|eats?|eating|smoked|smokes|smoking|takes?|took|taking|knock|worked|lived|studied|went|visited|visiting|trip|back|\w+'s)$/;

// A past that begins a state that holds on ("Ava started at Lincoln this fall", "Picked up a used
// Civic last weekend", "We moved into a flat in Leeds"), unlike one that happened and ended.
const BEGINS_STATE = /\b(?:start(?:ed)? (?:at|with|in|on|as|working|using|taking|seeing|dating)|joined|mov(?:ed) (?:in|into|to)|bought|picked up|got (?:a|an|my|our|the|myself|ourselves)|adopted|signed (?:up|the lease|a lease|on)|enrolled|took (?:a|the|that) job|switched to)\b/i;
/** A sentence told in the past that is over, not the start of what holds now. */
const pastOnly = (s: SentenceInfo) => s.past && !BEGINS_STATE.test(s.text);

/** A sentence whose subject is the one the notes are about: the user, or "I" / "we". */
const ownerSpeaks = (s: SentenceInfo) => s.subjectKind === 'first' || (s.subject.keys.length === 1 && s.subject.keys[0] === 'user');

/**
 * The update as agents note it, which the model (trained on changelogs and chat summaries, where
 * such lines are mostly news, not corrections) underrates: an untitled note states something about
 * its subject in the present, and the newer says in so many words that it changed ("switched",
 * "moved to", "no longer"; "now" or "these days" only beside a replaced value or name) about the
 * same subject, with something replaced, no plan or history, and no relation that holds many
 * values ("plays", "likes"). A replaced verb alone ("I drive to the office" / "I sold the car, so
 * I bike to the office now") counts between two short first-person notes only: in chat, "I" is
 * whoever speaks. (The feature value_replaced, which the model weighs, is the narrower reading of
 * the same shape: an older note whose object is a name or a figure.)
 */
// Verbs of holding a role or a thing (stems): one holder's "manages" and "leads" say the same.
const HOLDING_VERB = /^(?:own|lead|led|manag|run|ran|head|handl|overs|supervis|coordinat|maintain)/;

/** The two sentences' main verbs when they are all that differs between them (content words), else null. */
function onlyVerbDiffers(a: SentenceInfo, b: SentenceInfo): [string, string] | null {
  if (a.verb < 0 || b.verb < 0 || AUX.has(a.toks[a.verb].low) || AUX.has(b.toks[b.verb].low)) return null;
  const [va, vb] = [a.toks[a.verb].key, b.toks[b.verb].key];
  if (va === vb) return null;
  return [...a.keys].every((k) => k === va || b.keys.has(k)) && [...b.keys].every((k) => k === vb || a.keys.has(k)) ? [va, vb] : null;
}

// A switch in so many words ("switched to light mode"), not just news ("his new job").
// ("asked me to stop using bullet points and write paragraphs instead", "avoid ibuprofen and use paracetamol instead")
const SWITCHED = /\b(?:(?:changed|moved) (?:\w+ ){0,2}(?:into|onto)|(?:up|down)grad(?:ed|es|ing) (?:\w+ ){0,4}to|(?:relocat|transferr)(?:ed|es|ing) (?:\w+ ){0,4}to|switch(?:ed|es|ing)?|swapp?(?:ed|ing)|migrat(?:ed|es|ing)|replac(?:ed|es|ing)|renam(?:ed|es|ing)|(?:changed|moved) (?:\w+ )?to|(?:stop(?:s|ped|ping)? \w+ing|avoid)\b[^.;]{1,60}\binstead)\b/;

function markedUpdate(a: SentenceInfo, b: SentenceInfo, older: MemoryInfo, newer: MemoryInfo, f: FeatureVector, cos: number, verbSwap: boolean): boolean {
  // (a one-line `key: value` note is a note, not a changelog's title: "Default branch: master")
  const note = older.sentences.length === 1 && a.kvShort;
  if ((older.titled && !note) || newer.titled || pastOnly(a) || a.marks.has('change') || a.marks.has('negchange')) return false;
  const value = f.val_diff || f.name_change || f.swap || f.kv_replace;
  // ("currently" or "now" between two chat lines about two things marks nothing: "I'm currently in a
  // tournament" / "I'm currently playing an RPG")
  const marked = f.change_new || f.negchange_new || (f.soft_new && (value || verbSwap || f.ownership_change) && !chatApart(a, b, f.overlap));
  // (between chat lines, a subject not known to differ counts only when the sentences share most of
  // their words: "Gina: Hey Maria, great to chat" / "Maria: Hey John, great news - I'm now friends with…")
  // (or a subject not known to differ, when the newer names the older's value as the one replaced: "Our
  // analytics run on Mixpanel" / "We dropped Mixpanel for PostHog")
  const sameSubject = f.subj_same || ((f.name_change_same_subj || f.val_diff_same_subj || (f.swap && f.swap_chain && !f.subj_diff)) && !chatApart(a, b, f.overlap));
  const shortNotes = older.sentences.length === 1 && newer.sentences.length <= 2;
  // (a holder replaced, or a stop of what the older states, is that shape too: "Our new contact at the
  // bank is Fatima" / "Greg is our point of contact at the bank"; "User sold their car" / "commutes by car")
  // (and the newer naming the older's value as replaced, or as gone beside a new one: "deploys go through Argo CD; Capistrano is gone")
  // (a holder named without a name is one too: "Billing service ownership moved to the payments team")
  // (so is the older's own value named as the one replaced, of the same subject: "starts Dec 15" / "now begins Dec 10, not the 15th")
  const chained = Boolean(f.swap_chain && f.subj_same);
  return Boolean((f.marked_replacement || verbSwap || f.ownership_change || f.holder_new || f.stopped || chained || (f.swap && (f.swap_chain || f.negchange_new))) && sameSubject && marked && cos >= MARKED_UPDATE_MIN_COSINE &&
    // (a stop names what stops: other words may all differ, "training for a 10k in April" / "pulled out of the April 10k")
    !(f.topic_disjoint && !f.stopped) && !f.multi_verb && !f.hypo && !f.future && !f.history &&
    (value || verbSwap || chained || f.neg_flip || f.date_moved || f.ownership_change || f.holder_new || f.stopped || (f.first_both && shortNotes) || (f.replaced && SWITCHED.test(b.text.toLowerCase()) && f.overlap >= 0.5 && shortNotes)));
}
