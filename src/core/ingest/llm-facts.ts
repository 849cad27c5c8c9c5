// Fact extraction by a chat model (OpenAI-compatible, LOCI_LLM_URL). The text is sent in
// chunks at paragraph boundaries; each reply must be a JSON object of facts. Whatever the
// model says is checked like client input: wrong shapes and types are dropped or mapped,
// and the same near-duplicate rule as the rule-based extractor applies. Any failure (time
// out, HTTP error, unreadable or empty reply) falls back to the rule-based extractor.
import type { LlmClient } from '../../providers/llm/types.js';
import {
  countSections, dedupeFacts, extractFacts, factOf, DEFAULT_MAX_FACTS,
  type ExtractedFact, type FactExtraction, type SuggestedType,
} from './facts.js';
import { INFERRED_TYPES, TITLE_MAX_CHARS } from '../enrich/types.js';
import { htmlToText } from './markup.js';
import { mapLimited } from './map-limited.js';

/** Characters of document text per request. */
export const LLM_CHUNK_CHARS = 12_000;
/** Documents longer than this go to the rule-based extractor: one ingest may not fan out into dozens of model calls. */
export const LLM_MAX_CHARS = 60_000;
/** Chunks in flight at once. */
const LLM_CONCURRENCY = 2;
const FACT_MIN_CHARS = 10;
const FACT_MAX_CHARS = 1_000;

const TYPES: readonly SuggestedType[] = INFERRED_TYPES;

export type FactExtractor = 'llm' | 'rules';

export interface FoundFacts extends FactExtraction {
  extractor: FactExtractor;
}

export interface FindFactsOptions {
  focus?: string;
  sourceUri?: string;
  maxFacts?: number;
  /** Report what the rules dropped and why (the LLM path reports nothing dropped). */
  explain?: boolean;
  /** The document's own title, a subject for "It …" sentences. */
  title?: string | null;
}

const SYSTEM_PROMPT = [
  'You extract facts from a document for an AI agent\'s long-term memory.',
  'Return a JSON object {"facts": [{"content": string, "type": string, "title": string, "salience": number}]}.',
  'Each content is one self-contained statement in plain English that makes sense without the document:',
  'resolve pronouns to names, keep numbers, dates and names exactly as written, and do not invent anything.',
  'Skip navigation, boilerplate, legal notices and questions.',
  `type is one of: ${TYPES.join(', ')}. title is a label of at most ${TITLE_MAX_CHARS} characters.`,
  'salience is 0 to 1: how useful the fact is to remember.',
].join(' ');

/** Splits text into chunks of at most `size` characters, at blank lines where possible, else at line or sentence ends. */
export function chunkText(text: string, size = LLM_CHUNK_CHARS): string[] {
  const chunks: string[] = [];
  let rest = text.trim();
  while (rest.length > size) {
    const window = rest.slice(0, size);
    let cut = window.lastIndexOf('\n\n');
    if (cut < size / 2) cut = window.lastIndexOf('\n');
    if (cut < size / 2) cut = window.lastIndexOf('. ') + 1;
    if (cut < size / 2) cut = size;
    chunks.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest) chunks.push(rest);
  return chunks;
}

/** The JSON object of a reply; models sometimes wrap it in a code fence or prose. */
function parseReply(reply: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(reply)?.[1] ?? reply;
  const start = fenced.indexOf('{');
  const end = fenced.lastIndexOf('}');
  if (start < 0 || end <= start) throw new Error('the reply holds no JSON object');
  return JSON.parse(fenced.slice(start, end + 1));
}

/** Facts of one reply, checked: content within bounds, known type (else classified), salience in [0, 1]. */
export function factsFromReply(reply: string, opts: FindFactsOptions): ExtractedFact[] {
  const parsed = parseReply(reply) as { facts?: unknown };
  if (!parsed || !Array.isArray(parsed.facts)) throw new Error('the reply has no "facts" array');
  const out: ExtractedFact[] = [];
  for (const item of parsed.facts) {
    const raw = typeof item === 'string' ? { content: item } : (item as Record<string, unknown> | null);
    if (!raw || typeof raw.content !== 'string') continue;
    const content = raw.content.replace(/\s+/g, ' ').trim();
    if (content.length < FACT_MIN_CHARS || content.length > FACT_MAX_CHARS) continue;
    const title = typeof raw.title === 'string' && raw.title.trim() && raw.title.trim().length <= TITLE_MAX_CHARS ? raw.title.trim() : undefined;
    out.push(factOf(content, {
      type: TYPES.includes(raw.type as SuggestedType) ? (raw.type as SuggestedType) : undefined,
      title,
      salience: typeof raw.salience === 'number' && Number.isFinite(raw.salience) ? raw.salience : undefined,
      sourceUri: opts.sourceUri ?? null,
      focus: opts.focus,
    }));
  }
  return out;
}

/** The LLM's facts; throws on any failure so the caller can fall back. */
export async function extractFactsWithLlm(llm: LlmClient, text: string, opts: FindFactsOptions = {}): Promise<ExtractedFact[]> {
  const focus = opts.focus?.trim() ? `\nThe reader cares most about: ${opts.focus.trim()}. Prefer facts about that.` : '';
  // The model reads the text with its HTML and entities already out: fewer tokens, less noise.
  const replies = await mapLimited(chunkText(htmlToText(text)), LLM_CONCURRENCY, (chunk) =>
    llm.complete([
      { role: 'system', content: SYSTEM_PROMPT + focus },
      { role: 'user', content: chunk },
    ], { json: true }),
  );
  const facts = dedupeFacts(replies.flatMap((r) => factsFromReply(r, opts)), opts.maxFacts ?? DEFAULT_MAX_FACTS);
  if (facts.length === 0) throw new Error('the model found no facts');
  return facts;
}

/**
 * Facts of a document: by the LLM when one is configured and the text fits its budget,
 * otherwise (or when it fails) by the rule-based extractor. `extractor` says which.
 */
export async function findFacts(
  text: string, opts: FindFactsOptions, llm: LlmClient | null, onLlmError?: (err: unknown) => void,
): Promise<FoundFacts> {
  if (llm && text.trim() && text.length <= LLM_MAX_CHARS) {
    try {
      const facts = await extractFactsWithLlm(llm, text, opts);
      return { facts, sections: countSections(text), extractor: 'llm' };
    } catch (err) {
      onLlmError?.(err);
    }
  }
  return { ...extractFacts(text, opts), extractor: 'rules' };
}
