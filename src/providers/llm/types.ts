// One interface for every chat model. Absent when no LLM is configured: callers then use
// their extractive or rule-based path and say so (summary_source "extractive").
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface CompleteOptions {
  /** Overall deadline of this call, retries included; defaults to the client's configured timeout. */
  timeoutMs?: number;
  maxTokens?: number;
  temperature?: number;
  /** Ask for a JSON object reply (`response_format: json_object`). */
  json?: boolean;
}

export interface LlmClient {
  /** Model id, e.g. "openai:gpt-4o-mini". */
  readonly modelId: string;
  /** The assistant's reply text. Throws LlmError on timeout, HTTP failure or an empty reply. */
  complete(messages: ChatMessage[], opts?: CompleteOptions): Promise<string>;
}

export class LlmError extends Error {
  constructor(message: string, readonly code: 'timeout' | 'http' | 'bad_reply' | 'network', readonly status?: number) {
    super(message);
    this.name = 'LlmError';
  }
}
