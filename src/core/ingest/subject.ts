// Self-contained facts: a sentence that opens with "It" or "This library" means the subject of
// its section or document, and is rewritten to name it ("It is inspired by Hapi" → "Fastify is
// inspired by Hapi"). Only where that is clear: the subject is a short name, the pronoun opens
// the sentence, and the sentence is not one of the impersonal "it is important to …" kind.

/** The subject a document defines: "Fastify is a web framework …", "compromise is a …". */
const DEFINES = /^((?:[\p{Lu}\p{Ll}][\p{L}\p{N}.+#-]*)(?: [\p{Lu}][\p{L}\p{N}.+#-]*){0,2}) (?:is|are) (?:a|an|the)\b/u;
const COMMON_START = /^(?:this|that|there|it|here|which|what|one|each|every|all|some|our|your|the|a|an|we|you|they|he|she|i)\b/i;

/** A heading or title usable as a subject: a short name, not a sentence or a generic heading. */
export function nameLike(text: string | null | undefined): string | null {
  if (!text) return null;
  const t = text.replace(/[`*_#]+/g, '').replace(/\s+/g, ' ').trim();
  if (!t || t.length > 40 || /[.!?:;,]$/.test(t)) return null;
  const words = t.split(' ');
  if (words.length > 4) return null;
  if (/^(?:introduction|overview|summary|usage|install(?:ation)?|getting started|features|examples?|api|license|contributing|changelog|faq|notes?|background|about|contents|table of contents|documentation|support|team|credits|acknowledg(?:e)?ments|benchmarks?|quick ?start|requirements|configuration|options|ecosystem|security|policy|reporting|scope)$/i.test(t)) return null;
  return t;
}

/** The subject a sentence defines, if it is one of "<Name> is a …". */
export function definedSubject(sentence: string): string | null {
  const m = DEFINES.exec(sentence.trim());
  if (!m || COMMON_START.test(m[1])) return null;
  return nameLike(m[1]);
}

const PRONOUN_OPENING = /^(?:It|This (?:library|project|package|module|tool|framework|plugin|app|application|service|repository|repo|crate|gem|extension|server|client|api|sdk|cli)|The (?:library|project|package|module|tool|framework|plugin|app|application|repository|crate|gem|extension|sdk|cli))(['’]s)?\b/;
/** "It is important to …", "It seems that …": the pronoun stands for nothing. */
const IMPERSONAL = /^It(?:['’]s| is| was| will be| would be| may be| might be| can be| could be| should be)\s+(?:(?:not|also|very|quite|really|often|usually|always|generally|highly|strongly|therefore|thus|now)\s+)*(?:\w+ly\s+)?(?:important|possible|impossible|necessary|recommended|advisable|advised|worth|easy|hard|difficult|likely|unlikely|best|better|good|bad|safe|unsafe|required|essential|crucial|common|useful|helpful|true|false|clear|obvious|known|unknown|time|up to|a (?:good|bad) idea|enough|fine|ok|okay|okay|normal|expected|suggested|encouraged|preferable|trivial|simple|tempting|tricky|possible)\b|^It\s+(?:seems|appears|looks|turns out|follows|happens|takes|remains to|depends|matters|doesn['’]t matter|was (?:decided|agreed|found|noted|reported)|has been (?:decided|agreed|reported|noted))\b/i;
/** After the pronoun, a verb must follow for the rewrite to read right. */
const VERB_NEXT = /^(?:['’]s\s|\s(?:is|was|has|had|does|did|can|could|will|would|should|may|might|must|supports|provides|uses|offers|allows|lets|makes|helps|aims|focuses|handles|relies|exposes|ships|gives|adds|runs|works|comes|includes|requires|needs|depends|contains|consists|returns|accepts|reads|writes|stores|keeps|caches|parses|generates|creates|builds|compiles|exports|implements|wraps|follows|tries|turns|treats|ignores|throws|emits|sends|receives|listens|binds|starts|stops|loads|takes|produces|returns|features|targets|powers|integrates|means)\b)/;

/** The sentence with its opening pronoun replaced by the subject, or unchanged. */
export function resolveSubject(sentence: string, subject: string | null): string {
  if (!subject) return sentence;
  const m = PRONOUN_OPENING.exec(sentence);
  if (!m || IMPERSONAL.test(sentence)) return sentence;
  const after = sentence.slice(m[0].length - (m[1]?.length ?? 0));
  if (!VERB_NEXT.test(after)) return sentence;
  // "It's fast" → "Fastify is fast"; "It supports …" → "Fastify supports …".
  const rest = m[1] ? (/^['’]s been\b/.test(after) ? ` has${after.slice(m[1].length)}` : ` is${after.slice(m[1].length)}`) : after;
  return `${subject}${rest}`;
}
