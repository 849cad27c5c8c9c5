// Memory type from the text alone, by lexical cues: each type has weighted patterns (what a
// sentence of that type says: "decided", "prefers", "I'll make sure", "need to", a past deed, a
// past event with its time). The best-scoring type wins when its evidence is strong enough;
// otherwise the text is a fact, the type of durable statements. Pure, deterministic, ~10–40 µs
// for a memory of a few hundred characters. Tuned on the dev half of bench/sets/enrich-devset.json
// only; bench/ingest.ts reports accuracy on the held-out half.
import type { InferredType } from './types.js';

type Cue = readonly [RegExp, number];

/** Leading chatter that says nothing about the type: "Yeah,", "Wow, Mel,", "By the way,". */
const LEAD = /^(?:(?:yeah|yep|yes|wow|oh|ah|haha|hey|well|so|also|plus|and|but|ok(?:ay)?|cool|great|nice|hmm+|anyway|actually|honestly|btw|by the way|on a different note|on a bright side|on the bright side)\b[,!.]?\s+(?:[A-Z][a-z]+[,!]\s+)?)+/i;

const TIME_PAST =
  /\b(?:yesterday|last (?:night|week|weekend|month|year|summer|winter|spring|fall|autumn|time|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|(?:a (?:few|couple of) |\d+ |two |three )?(?:days?|weeks?|months?|years?) ago|recently|earlier (?:today|this (?:week|month|year))|this (?:morning|afternoon)|(?:on|in) (?:(?:the )?\d{1,2}(?:st|nd|rd|th)? (?:of )?)?(?:jan(?:uary)?|feb(?:ruary)?|march|april|may|june|july|aug(?:ust)?|sep(?:tember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b|in (?:19|20)\d\d|today|once|back then|when I was)\b/i;
const TIME_FUTURE =
  /\b(?:tomorrow|tonight|next (?:week|weekend|month|year|time|sprint|quarter|summer|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|this (?:coming|weekend|friday|saturday|sunday)|later (?:today|this (?:week|month|year))|soon|upcoming|in (?:a few|two|three|\d+) (?:days|weeks|months)|(?:the )?day after tomorrow)\b/i;

/** Past forms of verbs of doing: a deed by the subject (action; an event when it has a time). */
const DEED =
  '(?:added|fixed|removed|updated|implemented|released|merged|deployed|shipped|created|built|made|wrote|sent|finished|completed|organi[sz]ed|started|joined|launched|published|installed|configured|migrated|refactored|renamed|moved|replaced|upgraded|bumped|cleaned(?: up)?|improved|changed|set up|signed(?: up)?|submitted|posted|restored|modified|painted|baked|cooked|donated|registered|booked|bought|sold|hired|opened|closed|filed|approved|paused|reviewed|tested|uploaded|dropped|adopted|rescued|volunteered|taught|designed|drew|recorded|planted|repaired|fixed up|took up|picked up|accomplished|achieved)';
/** Past forms of verbs of experience: something that happened to or around the subject (episode). */
const EXPERIENCE =
  '(?:went|visited|attended|had (?:a|an|some|the|my|our|his|her|their|such|so|quite)|met|saw|felt|traveled|travelled|took (?:a|an|my|our|his|her|their) (?:trip|vacation|holiday|walk|hike|class|break)|celebrated|lost|won|found|tried|watched|happened|passed away|crashed|broke(?: down)?|stumbled|explored|enjoyed|loved it|got (?:to|a|an|my|the)|received|heard|spent|hiked|ran|played|danced|performed|competed|graduated|moved (?:to|into|in)|came|left|arrived|returned|experienced|faced|survived|suffered|injured|hurt|fell|toured|reunited|told|showed|taught me|reminded me|announced|occurred)';

const SUBJECT = "(?:i|we|he|she|they|you|my \\w+|our \\w+|the team|[A-Z][\\w'’-]*(?: and (?:her|his|their|my) \\w+| [A-Z][\\w'’-]*)?)";
const DEED_BY_SUBJECT = new RegExp(`^${SUBJECT}(?: (?:also|just|recently|finally|already|then|even|successfully|eventually|quickly|personally|together))? ${DEED}\\b`, 'i');
const EXPERIENCE_ANYWHERE = new RegExp(`\\b${EXPERIENCE}\\b`, 'i');
/** A log line of work done, its subject left out: "Deployed v2.3 to production", "Merged the PR". */
const DEED_OPENING = new RegExp(`^${DEED}\\b`, 'i');
const IRREGULAR_PAST =
  'took|gave|made|saw|went|came|ran|wrote|bought|brought|caught|taught|thought|told|said|found|felt|kept|left|lost|met|paid|sent|spent|stood|won|ate|drank|drove|flew|rode|sang|swam|wore|began|broke|chose|forgot|got|held|knew|led|put|read|sat|slept|spoke|threw|woke|did|had|was|were';
const PAST_ANYWHERE = new RegExp(`\\b(?:${DEED}|${EXPERIENCE}|${IRREGULAR_PAST}|\\w{3,}ed)\\b`, 'i');

/** A changelog or commit line: tags, a component prefix, a reference, a hash. */
const CHANGELOG_TAG = /^\s*\[[A-Za-z][\w -]*\]/;
const CHANGELOG_REF = /(?:\(#\d+\)|#\d{2,}\b|\bcloses?:\s*#|\bLP:\s*#|\b[0-9a-f]{7,40}\s*$|\bCVE-\d{4}-\d+|\(thx |\bthanks to\b)/i;
const COMPONENT_PREFIX = /^[\w.\-/]+(?:\(\d\))?: (?=[A-Za-z])/;
/** Verbs that open a changelog entry or a to-do item ("Fix the crash", "Add .rar to …"). */
const LEAD_VERB =
  /^(?:add|fix|remove|update|bump|drop|import|backport|revert|restore|sync|pin|cover|implement|refactor|rename|use|move|replace|support|enable|disable|allow|avoid|ensure|correct|clean(?: up)?|apply|build|upload|improve|mark|switch|convert|document|clarify|normalize|normalise|suggest|reset|report|print|blank|have|install|configure|deploy|merge|release|publish|migrate|upgrade|create|write|send|review|check|test|set(?: up)?|call|email|book|schedule|prepare|finish|complete|investigate|look into|follow up|read|run|make|get|buy|pick up|ask|tell|share|contact|reply|respond|submit|file|order|plan|organi[sz]e|find|try|start|stop|keep|take|bring|go|do|don't|do not|never|always|remember|please|let's|lets)\b/i;
/** Code-like tokens: a file, a path, an identifier, a version. */
const TECHNICAL = /[./_(]\w|\w\(\)|\b\w*\d\w*\b|\b[a-z]+[A-Z]\w*|\b[A-Z]{2,}\b/;

const CUES: Partial<Record<InferredType, readonly Cue[]>> = {
  cancellation: [
    [/\b(?:cancel(?:l)?ed|(?:had|have|has|decided|going|want|need) to cancel|cancel(?:l)?ation of|called off|calling off|scrapped|postponed|put on hold|(?:is|are|was|were) off\b|(?:won't|will not|isn't|is not|no longer) (?:go(?:ing)? ahead|happen(?:ing)?|tak(?:e|ing) place))\b/i, 4],
  ],
  decision: [
    [/\b(?:decided|decides|decide to|made (?:a|the|my|our) (?:decision|call) to|decision (?:was|has been|is) (?:made|taken)|chose|choose to|opted|opts? (?:for|to)|settled on|(?:we're|we are|i'm|i am|are|is|we'll|i'll|we will|i will) going with(?! the flow)|went with|agreed (?:to|on|that)|it was agreed|resolved to|concluded that)\b/i, 3],
    [/\b(?:instead of|over|rather than)\b.*\b(?:because|since|as|for)\b/i, 1],
    [/\bwe (?:now )?(?:ship|use|require|default to)\b/i, 1],
  ],
  commitment: [
    [/\b(?:i|we)(?:'ll|’ll| will) (?:make sure|definitely|always|be there|send|bring|share|let (?:you|him|her|them) know|keep (?:you|him|her|them) (?:posted|updated|in the loop)|get back to|follow up|call|email|pick (?:you|it|them) up|cover|handle|take care of|help|add it)\b/i, 3],
    [/\b(?:i|we) (?:promise|swear|guarantee|pledge|vow)\b|\bpromis(?:e|es|ed) (?:to|that)\b|, i promise\b|\bcount on me\b|\bcommit(?:ted|s)? to\b|\bpledged?\b|\bvowed\b|\baccepted (?:an|the) invitation\b/i, 3],
    [/\b(?:willing(?:ness)?|offered|offers|volunteered|agreed) to (?:help|share|send|bring|give|lend|teach|assist|always be there|support)\b|\bassur(?:ed|es) .{0,30}\b(?:support|help|be there)\b/i, 3],
    [/\b(?:i|we)(?:'ll|’ll| will)\b.{0,60}\byou\b/i, 1.5],
  ],
  preference: [
    [/(?<!\bif (?:you|they|we|one|i) )\b(?:prefer(?:s|red)?|preference|favou?rite|fond of|(?:a |big |huge )?fan of|passionate about|would rather|can't stand|cannot stand|is into|are into|my (?:main |favou?rite )?(?:thing|hobby|hobbies)|hobbies|(?:has|have) (?:an|a (?:real|big|great)) interest in)\b/i, 3],
    // Third-person forms are verbs wherever they stand; a base form ("love", "like") needs its
    // subject, or it is a noun or a preposition ("providing love", "acts like that").
    [/\b(?:loves|likes|enjoys|adores|hates|dislikes|values|admires|recommends|treasures|cherishes)\b(?! to (?:hear|see|know|help))|\b(?:i|we|they|you|really|also|do|don't|does|just|absolutely|totally|truly|still|always|genuinely)(?:'d|’d| would)? (?:really )?(?:love|like|enjoy|adore|hate|dislike|value|admire|recommend|treasure|cherish)\b(?! to (?:hear|see|know|help))(?<!(?:if|however|whatever|as|what) you like)/i, 2.5],
    [/\b(?:finds?|found) (?:[\w'"“”’-]+ ){0,6}(?:to be )?(?:really |so |very |truly |quite )?(?:calming|relaxing|fulfilling|healing|inspiring|peaceful|therapeutic|motivating|refreshing|rewarding|fun|soothing|comforting|enjoyable|significant|encouraging|satisfying)\b|\bbrings? (?:me|him|her) (?:so much )?(?:joy|peace|happiness)\b|(?:\bis|['’]s) (?:so |really |always )?(?:fun|satisfying)\b|\bgame for\b|\b(?:my|his|her|their) (?:\w+ )?thing\b/i, 2],
    [/\b(?:appreciates?|appreciating)\b/i, 1],
    [/\b(?:loved|liked|enjoyed)\b/i, 1],
    [/\b(?:always|usually|often|never) (?:order|drink|eat|use|choose|pick|go for|wear|listen)\b/i, 1.5],
  ],
  intention: [
    [/\b(?:want(?:s)? to|wanna|hop(?:e|es|ing) to|dream(?:s|ing)? (?:of|about)|aim(?:s|ing)? to|goal is|determined to|intend(?:s|ed)? to|intention|would (?:love|like) to|wish(?:es)? to|thinking (?:of|about) (?:\w+ing|getting|trying)|considering (?:\w+ing\b|whether|if|a |an |the idea)|looking into|interested in (?:\w+ing)|keen to|eager to|ready to|excited (?:to (?:try|see|start|visit|share|join|go|do|get)|about (?:trying|starting|visiting|joining|going|sharing)))\b/i, 2.5],
    [/\b(?:won't|will not|never) (?:quit|give up|stop)\b|\b(?:i|we|i'll|we'll|gonna|will|to) keep (?:on )?(?:going|pushing|trying|chasing|working|grinding)\b|\bthere is a chance\b|\blooking forward to\b|\bexpress(?:es|ed)? (?:interest|excitement) (?:in|about)\b/i, 2],
    [/\blooking for\b/i, 1.5],
  ],
  plan: [
    [/\b(?:plan(?:s|ned|ning)? (?:to|for|on|a|an|the)|planning|is planned|scheduled|schedule(?:d)? for|roadmap|is set to|booked|(?:still )?deciding on|(?:have|has)n't decided|not decided yet)\b/i, 3],
    [/\b(?:(?:am|is|are|'m|’m|'re|’re|'s) (?:going to|gonna|heading (?:to|out)|leaving|organi[sz]ing|hosting|meeting|starting|moving|flying|taking)|gonna|will (?:start|begin|move|visit|go|travel|launch|release|ship|meet|be (?:in|at|going|leaving|starting)|fly|head|host|organi[sz]e|try))\b/i, 1.5],
    [TIME_FUTURE, 1],
    [/\blet['’]?s (?:plan|do|go|meet|get|try|make)\b|\b(?:should|will) be added\b/i, 1.5],
  ],
  task: [
    [/\b(?:todo|to-do|action item|need(?:s)? to|have to|has to|must|should(?! (?:receive|be|have|get|see|work|look|expect|return|happen|not be|now))|ought to|required to|make sure|remember to|don't forget|do not forget|please|be sure to|is required|are required|deadline|due (?:by|on)|may need to|you(?:'ll)? need|it is (?:safe|recommended|advisable) to|(?:is|are) (?:highly )?recommended|we recommend)\b/i, 2],
    [/\b(?:talk to|ask|contact|call|email|remind) (?:me|us|them|him|her)\b.*\b(?:first|before)\b/i, 1],
    [/\byou (?:may |might )?(?:want|need) to\b|^to \w+ .{0,80}, (?:set|run|use|add|pass|install|call|see|edit|change|remove|enable|disable|read|check)\b/i, 3],
  ],
  action: [
    [/\b(?:new upstream (?:release|version|snapshot|point release|beta|release candidate)|upload(?:ed)? to (?:unstable|experimental|testing))\b/i, 4],
    [/\b(?:(?:am|is|are|'m|’m|'re|’re) (?:currently |now |still |also )?(?:working on|writing|building|wrapping up|teaming up|developing|preparing|fixing|learning|taking (?:a|an) \w+ class|practicing|practising)|(?:has|have) been (?:attending|working on|practicing|practising|playing|building|writing))\b/i, 2],
    [/\b(?:recently|just) (?:started|joined|finished|completed|launched|signed up|took up|began)\b/i, 2],
  ],
};

/** Order among tied scores: the more specific statement first. */
const PRIORITY: readonly InferredType[] = [
  'cancellation', 'decision', 'commitment', 'plan', 'task', 'intention', 'preference', 'episode', 'action', 'fact',
];
/** Evidence below this is no evidence: the text is a fact. */
const MIN_SCORE = 1.5;

export interface TypeScores {
  scores: Map<InferredType, number>;
  /** The text with leading chatter removed, as the cues read it. */
  core: string;
}

export interface ClassifyOptions {
  /**
   * The text is an entry of a changelog or release notes: an opening verb ("Fix the crash …")
   * records work done, not work to do.
   */
  changelog?: boolean;
}

/** Scores of every type for a text (0 when no cue fired). */
export function scoreTypes(text: string, opts: ClassifyOptions = {}): TypeScores {
  const core = text.replace(/\s+/g, ' ').trim().replace(LEAD, '').replace(/^(?:[-*•>#\s]+|#\d+\s+)+/, '');
  const scores = new Map<InferredType, number>();
  const add = (t: InferredType, w: number) => scores.set(t, (scores.get(t) ?? 0) + w);
  for (const [type, cues] of Object.entries(CUES) as Array<[InferredType, readonly Cue[]]>) {
    for (const [re, w] of cues) if (re.test(core)) add(type, w);
  }

  // Deeds and events: who did what, and when ("can be found" is no event).
  const pastTime = TIME_PAST.test(core);
  const deed = DEED_BY_SUBJECT.test(core) || DEED_OPENING.test(core);
  const experience = EXPERIENCE_ANYWHERE.test(core.replace(/\b(?:can|could|may|might|will|would|should|must|to) be \w+/gi, ''));
  if (deed) add(pastTime ? 'episode' : 'action', 2.5);
  if (experience) add('episode', pastTime ? 2.5 : 1.5);
  else if (pastTime && PAST_ANYWHERE.test(core)) add('episode', 2);
  if (/^(?:it|that|this) was\b|^(?:it|that) (?:taught|reminded|made) me\b/i.test(core)) add('episode', 1.5);

  // Changelog and commit lines record what was done; the same opening verb without any of their
  // marks is work still to do ("Fix the login bug").
  if (CHANGELOG_TAG.test(core)) add('action', 4);
  else if (LEAD_VERB.test(core) || COMPONENT_PREFIX.test(core)) {
    const body = core.replace(COMPONENT_PREFIX, '');
    const leadVerb = LEAD_VERB.test(body);
    if (CHANGELOG_REF.test(core) || (COMPONENT_PREFIX.test(core) && leadVerb) || (opts.changelog && leadVerb)) add('action', 3);
    else if (leadVerb && /^(?:please|don't|do not|never|always|remember|make sure|let's|lets)\b/i.test(body)) add('task', 2.5);
    else if (leadVerb && TECHNICAL.test(body) && !/\b(?:you|your|please)\b/i.test(body)) add('action', 2);
    else if (leadVerb && !/^(?:have|keep|go|do|take|get|make|see|note|start|stop|try)\b/i.test(body)) add('task', 2);
  }
  return { scores, core };
}

/** The inferred type and the margin of its evidence over the runner-up (0 when none fired). */
export function classifyType(text: string, opts: ClassifyOptions = {}): { type: InferredType; score: number; margin: number } {
  const { scores } = scoreTypes(text, opts);
  let best: InferredType = 'fact';
  let bestScore = 0;
  let second = 0;
  for (const t of PRIORITY) {
    const s = scores.get(t) ?? 0;
    if (s > bestScore) {
      second = bestScore;
      best = t;
      bestScore = s;
    } else if (s > second) {
      second = s;
    }
  }
  if (bestScore < MIN_SCORE) return { type: 'fact', score: bestScore, margin: 0 };
  return { type: best, score: bestScore, margin: bestScore - second };
}
