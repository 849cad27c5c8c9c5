// Any OpenAI-compatible /v1/embeddings endpoint (OpenAI, Azure-style proxies, Ollama,
// llama.cpp, vLLM, LM Studio, TEI). Network I/O only, so it runs on the event loop.
import { openAiEndpoint } from '../endpoint.js';
import type { Embedder } from './types.js';
import { chunk, normalize } from './vector.js';

export interface OpenAIEmbedderOptions {
  /** Base URL: "http://host:port" (→ /v1/embeddings), ".../v1" (→ /embeddings) or the full endpoint. */
  url: string;
  model: string;
  key?: string;
  /** Expected dimension; learned from the first response when absent. */
  dim?: number;
  /** Per request attempt. */
  timeoutMs?: number;
  /** Inputs per request (OpenAI accepts up to 2048; smaller requests fail and retry cheaper). */
  batchSize?: number;
  /** Attempts per request, the first included. */
  maxAttempts?: number;
  /** First retry delay; doubles each attempt, with jitter. */
  retryBaseMs?: number;
  /** Requests in flight at once for a large input. */
  concurrency?: number;
}

export class EmbeddingApiError extends Error {
  /** From a 429's Retry-After header. */
  retryAfterMs?: number;
  constructor(message: string, readonly status?: number, readonly retryable = false) {
    super(message);
    this.name = 'EmbeddingApiError';
  }
}

/** Resolves the embeddings endpoint from a base URL the way users tend to write it. */
export const embeddingsEndpoint = (base: string) => openAiEndpoint(base, 'embeddings', 'embeddings');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class OpenAIEmbedder implements Embedder {
  readonly modelId: string;
  private readonly endpoint: string;
  private readonly timeoutMs: number;
  private readonly batchSize: number;
  private readonly maxAttempts: number;
  private readonly retryBaseMs: number;
  private readonly concurrency: number;
  private learnedDim: number | undefined;
  private initialized: Promise<void> | null = null;

  constructor(private readonly opts: OpenAIEmbedderOptions) {
    if (!opts.model) throw new Error('the OpenAI-compatible embedder needs a model name (LOCI_EMBEDDINGS_MODEL)');
    this.endpoint = embeddingsEndpoint(opts.url);
    this.modelId = `openai:${opts.model}`;
    this.learnedDim = opts.dim;
    this.timeoutMs = opts.timeoutMs ?? 10_000;
    this.batchSize = Math.min(Math.max(opts.batchSize ?? 128, 1), 2048);
    this.maxAttempts = Math.max(opts.maxAttempts ?? 3, 1);
    this.retryBaseMs = opts.retryBaseMs ?? 250;
    this.concurrency = Math.max(opts.concurrency ?? 4, 1);
  }

  /** Known after init() when not configured; reading it earlier is a programming error. */
  get dim(): number {
    if (this.learnedDim === undefined) throw new Error(`${this.modelId}: dimension unknown until init() has run`);
    return this.learnedDim;
  }

  /** One probe request: checks the endpoint answers, and learns or checks the dimension. */
  init(): Promise<void> {
    this.initialized ??= this.request(['dimension probe']).then(
      () => undefined,
      (e: Error) => {
        this.initialized = null;
        throw new Error(`${this.modelId} at ${this.endpoint} is not usable: ${e.message}`);
      },
    );
    return this.initialized;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const batches = chunk(texts, this.batchSize);
    const out: Float32Array[][] = new Array(batches.length);
    let next = 0;
    // A few requests at a time: bounded load on the provider, order kept by index.
    const lane = async () => {
      while (next < batches.length) {
        const i = next++;
        out[i] = await this.request(batches[i]);
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.concurrency, batches.length) }, lane));
    return out.flat();
  }

  async close(): Promise<void> {}

  private async request(input: string[]): Promise<Float32Array[]> {
    let lastError: EmbeddingApiError | undefined;
    for (let attempt = 1; attempt <= this.maxAttempts; attempt++) {
      try {
        return await this.attempt(input);
      } catch (e) {
        const err = e instanceof EmbeddingApiError ? e : new EmbeddingApiError((e as Error).message);
        if (!err.retryable || attempt === this.maxAttempts) throw err;
        lastError = err;
        const backoff = this.retryBaseMs * 2 ** (attempt - 1) * (0.75 + Math.random() * 0.5);
        await sleep(Math.min(err.retryAfterMs ?? backoff, 30_000));
      }
    }
    throw lastError ?? new EmbeddingApiError('no attempt made');
  }

  private async attempt(input: string[]): Promise<Float32Array[]> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (this.opts.key) headers.authorization = `Bearer ${this.opts.key}`;
    // Most providers reject an empty string input.
    const body = JSON.stringify({ model: this.opts.model, input: input.map((t) => (t === '' ? ' ' : t)), encoding_format: 'float' });
    let res: Response;
    try {
      res = await fetch(this.endpoint, { method: 'POST', headers, body, signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (e) {
      const err = e as Error;
      const timedOut = err.name === 'TimeoutError' || err.name === 'AbortError';
      const detail = timedOut ? `timed out after ${this.timeoutMs} ms` : `network error: ${causeOf(err)}`;
      throw new EmbeddingApiError(`${this.modelId}: ${detail}`, undefined, true);
    }
    if (!res.ok) {
      const text = await res.text().catch(() => '');
      const retryable = res.status === 429 || res.status >= 500;
      const err = new EmbeddingApiError(
        `${this.modelId}: HTTP ${res.status}${text ? ` — ${text.slice(0, 300)}` : ''}`,
        res.status,
        retryable,
      );
      const ra = Number(res.headers.get('retry-after'));
      if (res.status === 429 && Number.isFinite(ra) && ra > 0) err.retryAfterMs = ra * 1000;
      throw err;
    }
    let json: { data?: { embedding: number[] | string; index?: number }[] };
    try {
      json = (await res.json()) as typeof json;
    } catch {
      throw new EmbeddingApiError(`${this.modelId}: response is not JSON`, res.status, true);
    }
    return this.parse(json, input.length);
  }

  private parse(json: { data?: { embedding: number[] | string; index?: number }[] }, expected: number): Float32Array[] {
    const data = json?.data;
    if (!Array.isArray(data) || data.length !== expected) {
      throw new EmbeddingApiError(`${this.modelId}: expected ${expected} embeddings, got ${Array.isArray(data) ? data.length : 'none'}`);
    }
    const sorted = data.every((d) => typeof d.index === 'number') ? [...data].sort((a, b) => a.index! - b.index!) : data;
    return sorted.map((d) => {
      const v = typeof d.embedding === 'string' ? fromBase64(d.embedding) : Float32Array.from(d.embedding ?? []);
      if (this.learnedDim === undefined) {
        if (v.length === 0) throw new EmbeddingApiError(`${this.modelId}: empty embedding in response`);
        this.learnedDim = v.length;
      }
      if (v.length !== this.learnedDim) {
        throw new EmbeddingApiError(`${this.modelId}: got a ${v.length}-d vector, expected ${this.learnedDim}-d (check LOCI_EMBEDDINGS_DIM)`);
      }
      for (let i = 0; i < v.length; i++) {
        if (!Number.isFinite(v[i])) throw new EmbeddingApiError(`${this.modelId}: non-finite value in embedding`);
      }
      return normalize(v);
    });
  }
}

/** fetch wraps socket errors as "fetch failed"; the cause says what happened (ECONNREFUSED…). */
function causeOf(err: Error): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? err.message;
}

/** encoding_format "base64": little-endian float32. Some servers send it regardless of the request. */
function fromBase64(s: string): Float32Array {
  const buf = Buffer.from(s, 'base64');
  const out = new Float32Array(buf.length / 4);
  for (let i = 0; i < out.length; i++) out[i] = buf.readFloatLE(i * 4);
  return out;
}
