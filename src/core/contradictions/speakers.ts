import { PASSAGE_DEFAULTS } from '../passages/split.js';
import { proseLines } from './markup.js';

// How chat lines are written. "Melanie: Wow, Caroline! What kinda jobs…": a line opens with who
// speaks, one or two capitalised words or a role ("user:", "assistant:"). It is a speaker label,
// not the key of a `key: value` note, when what follows reads as an utterance: a question or
// exclamation, a personal pronoun, more than one sentence or a dozen words ("Owner: Dana",
// "Deploy target: us-east-1" stay notes), and the label is not a lead-in ("Update: we moved!").
const SPEAKER = /^\s*((?:[\p{Lu}][\p{L}'’.-]*(?: [\p{Lu}][\p{L}'’.-]*)?)|(?:[Uu]ser|[Aa]ssistant|[Hh]uman|AI|[Bb]ot|[Ss]ystem|[Aa]gent|[Cc]ustomer|[Ss]upport))\s*:\s+(\S.*)$/u;
// (a pronoun, not part of an identifier: "Region: us-east-1" is a note)
const UTTERANCE = /[!?]|\b(?:i|i'm|i've|i'll|i'd|me|my|you|you're|your|we|we're|our|us)\b(?!-)/i;
/**
 * A lead-in label: what a note is ("Update:", "Quick update from Dana:", "Meeting notes:"), not
 * who speaks nor the key of a `key: value` note. One rule for every reader of a memory's lines.
 */
export const LEAD_IN = /^\s*(?:(?:(?:quick|small|short|big|latest|another|important|one more) )?(?:update|note|fyi|correction|btw|heads[- ]up|reminder|remember|edit|news|status|info|important|todo|nb|ps)\b[^:=]{0,40}|[^:=\n]{0,30}\b(?:notes|summary|recap|minutes|digest|debrief|highlights|takeaways|changes|updates?|tweaks)(?:,? (?:[a-z]{3,9}\.? )?\d[\d/.-]*| (?:for|from|of|on) [^:=\n]{1,25})? ?)[:=]/i;

/** A line's speaker label (lower case) and the rest of the line, or null when it has none. */
export function speakerLabel(line: string): { speaker: string; text: string } | null {
  const m = SPEAKER.exec(line);
  if (!m || LEAD_IN.test(`${m[1]}:`)) return null;
  const rest = m[2];
  const utterance = UTTERANCE.test(rest) || rest.split(/\s+/).length >= 12 || /[.!?]\s+\S/.test(rest);
  return utterance ? { speaker: m[1].toLowerCase(), text: rest } : null;
}

/**
 * The lines of a text that can state something (markup.ts: no code, nor headings inside it),
 * each with its speaker label taken off and named (null when it has none). In a dialogue (two
 * speakers known by their lines), every line opening with one of their names is theirs, however
 * short ("Maria: Yeah, it's been awesome.").
 */
export function speakerLines(text: string): Array<{ text: string; speaker: string | null }> {
  const lines = proseLines(text);
  const labels = lines.map(speakerLabel);
  const known = new Set(labels.flatMap((l) => (l ? [l.speaker] : [])));
  return lines.map((line, i) => {
    const label = labels[i] ?? (known.size >= 2 ? knownSpeaker(line, known) : null);
    return label ? label : { text: line, speaker: null };
  });
}

function knownSpeaker(line: string, known: Set<string>): { speaker: string; text: string } | null {
  const m = SPEAKER.exec(line);
  return m && known.has(m[1].toLowerCase()) ? { speaker: m[1].toLowerCase(), text: m[2] } : null;
}

// "Big news, I moved to York", "Honestly, we never used it", "Hey Gina, I had to…" (whom a chat
// line addresses): a short opener before a first-person subject is not the subject. Kept when it
// says where or when ("At Google, I…", "Last month, I…").
const OPENER = /^\s*([\p{L}'’]+(?: [\p{L}'’]+){0,2}),\s+(?=(?:I|I'm|I've|I'll|I'd|we|we're|we've|my|our)\b)/u;
const OPENER_KEEP = /^(?:at|in|on|for|with|from|after|before|since|during|by|until|as|when|while|if|once|last|next|this|every|yesterday|today|tonight|tomorrow|recently|lately|earlier|later|now|then|ago)$/;
const OPENER_TIME = /^(?:\w+day|weekend|week|weeks|month|months|year|years|morning|evening|afternoon|night|summer|winter|spring|autumn|fall|january|february|march|april|may|june|july|august|september|october|november|december)$/;

// Chat fillers that open a note without a comma ("fyi my laptop is …", "btw IT swapped …").
const FILLER = /^\s*(?:fyi|btw|fwiw|iirc|afaik|ps|p\.s\.|oh|ok|okay|so|anyway|also)\b[,:]?\s+(?=\S)/i;

// "User mentioned they're learning guitar": what someone said of themselves is theirs ("User are learning guitar").
const REPORTED_SELF = /^\s*((?:the )?[\p{L}'-]+) (?:mentioned|said|says|stated|states|noted|shared|told (?:me|us)|explained|reported|indicated|confirmed|added) (?:that )?(?:they|he|she)(?:'(re|ve|s|d|ll)|\s)\s*/iu;
// "User said the kids' bedtime is 7:30": what was said, of a thing.
const REPORTED_THING = /^\s*(?:the )?[\p{L}'-]+ (?:mentioned|said|says|stated|states|noted|told (?:me|us)|explained|reported|confirmed) (?:that )?(?=(?:the|a|an) )/iu;
const CONTRACTED = new Map([['re', 'are'], ['ve', 'have'], ['s', 'is'], ['d', 'had'], ['ll', 'will']]);
// "Nadia mentioned her mother lives in Casablanca": what someone said of their own is theirs ("Nadia's mother lives …").
const REPORTED_RELATION = /^\s*((?:the )?[\p{L}'-]+) (?:mentioned|said|says|stated|states|told (?:me|us)|noted|shared|explained) (?:that )?(?:her|his|their) /iu;

/**
 * What a sentence reports someone said, as said of them or of the thing: the pair judge reads it so
 * (the triple extractor keeps reported speech as unsure).
 */
export const asSaid = (text: string) => text.replace(REPORTED_RELATION, "$1's ")
  .replace(REPORTED_SELF, (_, who: string, verb: string | undefined) => `${who} ${verb ? CONTRACTED.get(verb.toLowerCase()) : ''}`.trimEnd() + ' ')
  .replace(REPORTED_THING, '');

/** The sentence without such an opener. */
export function withoutOpener(text: string): string {
  text = text.replace(FILLER, '');
  const m = OPENER.exec(text);
  if (!m) return text;
  const words = m[1].toLowerCase().split(' ');
  if (words.some((w) => OPENER_KEEP.test(w) || OPENER_TIME.test(w))) return text;
  return text.slice(m[0].length);
}

/** A transcript: lines of at least two speakers, a record of what was said (not a note of how things are). */
export function isTranscript(text: string): boolean {
  const speakers = new Set<string>();
  for (const line of speakerLines(text)) if (line.speaker) speakers.add(line.speaker);
  return speakers.size >= 2;
}

/**
 * A memory of many things: a transcript, or a text long enough to be searched as passages (a long
 * message, a document, a changelog entry). A newer memory may contradict one of its sentences, but
 * most of what it says stays true, so it is never out of date as a whole.
 */
export function holdsManyFacts(text: string): boolean {
  return text.length > PASSAGE_DEFAULTS.minChars || isTranscript(text);
}
