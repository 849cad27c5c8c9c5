// The LLM-written context summary of recall. The prompt holds only the retrieved memories, each
// with its id, so the model can cite them; conflicted memories are marked in the prompt and, if
// the reply forgets one, named in a closing note, so the flag never depends on the model.
import type { ChatMessage, LlmClient } from '../../providers/llm/types.js';
import type { MemoryRecord } from '../memories/types.js';
import { factLine } from './summary.js';

export type PromptMemory = Pick<MemoryRecord, 'id' | 'content' | 'status' | 'memory_type' | 'created_at'>;

const SYSTEM = [
  'You write the context summary an AI agent reads before acting. You are given a query and memories the agent stored.',
  'Summarise what the memories say that bears on the query, in a few short sentences or bullet points.',
  'Use only the memories given; never add facts. After each statement cite the ids of the memories it rests on in square brackets, e.g. [id].',
  'Memories marked (conflicted) are contested by another memory: say so when you use one.',
  'If none of the memories bear on the query, say that no relevant context was found.',
].join(' ');

export function summaryPrompt(query: string, memories: readonly PromptMemory[], maxFactChars: number): ChatMessage[] {
  const lines = memories.map((m) => `- (${m.memory_type}, ${m.created_at.slice(0, 10)}) ${factLine(m, maxFactChars)}`);
  return [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: `Query: ${query}\n\nMemories:\n${lines.join('\n')}` },
  ];
}

/** Appends a note naming conflicted memories the reply does not cite. */
export function withConflictNote(summary: string, memories: readonly Pick<MemoryRecord, 'id' | 'status'>[]): string {
  const missing = memories.filter((m) => m.status === 'conflicted' && !summary.includes(m.id)).map((m) => `[${m.id}]`);
  return missing.length ? `${summary}\n\nConflicted memories (contested by another memory): ${missing.join(', ')}` : summary;
}

/** The LLM's summary; throws whatever the client throws (timeout, HTTP, empty reply). */
export async function llmSummary(
  llm: LlmClient, query: string, memories: readonly PromptMemory[], opts: { timeoutMs: number; maxFactChars: number },
): Promise<string> {
  const text = await llm.complete(summaryPrompt(query, memories, opts.maxFactChars), { timeoutMs: opts.timeoutMs, maxTokens: 600 });
  return withConflictNote(text.trim(), memories);
}
