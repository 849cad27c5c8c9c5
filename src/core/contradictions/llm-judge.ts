// The optional LLM judge: with a chat model configured, pairs above a similarity threshold are
// confirmed (or rejected) by the model instead of the rules alone. Any failure — timeout, HTTP
// error, an answer that is not the expected JSON — throws, and the caller keeps the rule verdict.
import type { LlmClient } from '../../providers/llm/types.js';
import type { Verdict } from './detect.js';

const SYSTEM = [
  'You compare two short memories an agent stored, the older one first, and decide whether the newer one contradicts the older one.',
  'Answer with one JSON object: {"verdict": "update" | "contradiction" | "none"}.',
  '"update": the newer memory gives a new value for something that holds one value at a time for the same subject',
  '(where someone lives or works, who they report to, a price, version, status, date or owner), so the older value is no longer current.',
  '"contradiction": both cannot be true of the same subject (a negation, an opposite, a different number, date or name) but it is not simply a newer value.',
  '"none": they are compatible — different subjects, a paraphrase, the same fact, an addition, or values that can hold at the same time.',
].join(' ');

// Read with the model's words: no prototype, so only these three are verdicts.
const MAP: Record<string, Verdict> = Object.setPrototypeOf({ update: 'rdf_conflict', contradiction: 'semantic_conflict', none: 'none' }, null);

/** The verdict in a model reply: a JSON object, possibly wrapped in prose or a code fence. */
export function parseLlmVerdict(reply: string): Verdict {
  const m = /\{[\s\S]*\}/.exec(reply);
  if (!m) throw new Error('LLM verdict is not JSON');
  let parsed: unknown;
  try {
    parsed = JSON.parse(m[0]);
  } catch {
    throw new Error('LLM verdict is not JSON');
  }
  const v = String((parsed as { verdict?: unknown })?.verdict ?? '').trim().toLowerCase();
  const verdict = MAP[v];
  if (!verdict) throw new Error('LLM verdict is not one of update, contradiction, none');
  return verdict;
}

export async function llmVerdict(llm: LlmClient, older: string, newer: string, timeoutMs?: number): Promise<Verdict> {
  const clip = (s: string) => (s.length > 2_000 ? `${s.slice(0, 2_000)}…` : s);
  const reply = await llm.complete(
    [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: `Older memory:\n${clip(older)}\n\nNewer memory:\n${clip(newer)}` },
    ],
    { json: true, temperature: 0, maxTokens: 60, ...(timeoutMs ? { timeoutMs } : {}) },
  );
  return parseLlmVerdict(reply);
}
