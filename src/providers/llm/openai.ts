// Any OpenAI-compatible /v1/chat/completions endpoint (OpenAI, vLLM, llama.cpp, Ollama, LM Studio).
// Network I/O only. One overall deadline per call; transient failures (429, 5xx, network) are
// retried inside it, so a caller's fallback starts on time whatever the endpoint does.
import { openAiEndpoint } from '../endpoint.js';
import { type ChatMessage, type CompleteOptions, type LlmClient, LlmError } from './types.js';

export interface OpenAIChatOptions {
  /** Base URL: "http://host:port" (→ /v1/chat/completions), ".../v1" or the full endpoint. */
  url: string;
  model: string;
  key?: string;
  timeoutMs?: number;
  maxAttempts?: number;
  retryBaseMs?: number;
}

export const chatEndpoint = (base: string) => openAiEndpoint(base, 'chat/completions', 'LLM');

const retryable = (status: number) => status === 429 || status >= 500;

export class OpenAIChatClient implements LlmClient {
  readonly modelId: string;
  private readonly endpoint: string;

  constructor(private readonly opts: OpenAIChatOptions) {
    if (!opts.model) throw new Error('the OpenAI-compatible LLM needs a model name (LOCI_LLM_MODEL)');
    this.endpoint = chatEndpoint(opts.url);
    this.modelId = `openai:${opts.model}`;
  }

  async complete(messages: ChatMessage[], o: CompleteOptions = {}): Promise<string> {
    const deadline = Date.now() + (o.timeoutMs ?? this.opts.timeoutMs ?? 8_000);
    const attempts = Math.max(this.opts.maxAttempts ?? 2, 1);
    const body = JSON.stringify({
      model: this.opts.model,
      messages,
      temperature: o.temperature ?? 0,
      ...(o.maxTokens ? { max_tokens: o.maxTokens } : {}),
      ...(o.json ? { response_format: { type: 'json_object' } } : {}),
    });
    let last: LlmError = new LlmError('LLM request timed out', 'timeout');
    for (let i = 0; i < attempts; i++) {
      const left = deadline - Date.now();
      if (left <= 0) break;
      try {
        return await this.once(body, left);
      } catch (err) {
        if (!(err instanceof LlmError)) throw err;
        last = err;
        const again = err.code === 'network' || (err.code === 'http' && retryable(err.status ?? 0));
        if (!again) throw err;
        const pause = Math.min((this.opts.retryBaseMs ?? 200) * 2 ** i, deadline - Date.now());
        if (pause > 0) await new Promise((r) => setTimeout(r, pause));
      }
    }
    throw last;
  }

  private async once(body: string, timeoutMs: number): Promise<string> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.opts.key) headers.authorization = `Bearer ${this.opts.key}`;
    let res: Response;
    try {
      res = await fetch(this.endpoint, { method: 'POST', headers, body, signal: AbortSignal.timeout(timeoutMs) });
    } catch (err) {
      const name = (err as Error).name;
      if (name === 'TimeoutError' || name === 'AbortError') throw new LlmError('LLM request timed out', 'timeout');
      throw new LlmError('LLM endpoint unreachable', 'network');
    }
    if (!res.ok) {
      await res.body?.cancel().catch(() => undefined);
      throw new LlmError(`LLM endpoint answered ${res.status}`, 'http', res.status);
    }
    let parsed: any;
    try {
      parsed = await res.json();
    } catch {
      throw new LlmError('LLM reply is not JSON', 'bad_reply');
    }
    const text = parsed?.choices?.[0]?.message?.content;
    if (typeof text !== 'string' || !text.trim()) throw new LlmError('LLM reply has no content', 'bad_reply');
    return text.trim();
  }
}
