// The configured LLM, or null when none is: callers fall back to their extractive path.
import type { Config } from '../../config.js';
import { OpenAIChatClient } from './openai.js';
import type { LlmClient } from './types.js';

export function createLlm(cfg: Pick<Config, 'llm'>): LlmClient | null {
  if (!cfg.llm.url) return null;
  return new OpenAIChatClient({ url: cfg.llm.url, model: cfg.llm.model ?? '', key: cfg.llm.key, timeoutMs: cfg.llm.timeoutMs });
}

export type { ChatMessage, CompleteOptions, LlmClient } from './types.js';
export { LlmError } from './types.js';
export { OpenAIChatClient, chatEndpoint } from './openai.js';
