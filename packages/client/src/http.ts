// The transport: one call = tries until an answer that is final, with backoff between them.
import { LociConnectionError, LociError, LociValidationError } from './errors.js';
import { DEFAULT_RETRY, parseRetryAfter, retryableStatus, retryDelayMs, type RetryPolicy } from './retry.js';

export interface TransportOptions {
  baseUrl: string;
  apiKey?: string;
  retry: RetryPolicy;
  fetch: typeof fetch;
  userAgent: string;
  /** Called before each retry: for logs and progress. */
  onRetry?: (info: RetryInfo) => void;
}

export interface RetryInfo {
  method: string;
  path: string;
  /** 1 for the first retry. */
  retry: number;
  delayMs: number;
  /** The status that caused it, or null after a connection failure. */
  status: number | null;
  error?: unknown;
}

export interface Call {
  method: string;
  /** Path with its parameters already filled in. */
  path: string;
  query?: Record<string, unknown>;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  maxRetries?: number;
  /** Repeating this call cannot do the work twice (idempotent method, Idempotency-Key or attempt id). */
  safe: boolean;
}

export interface Answer<T> {
  status: number;
  headers: Headers;
  data: T;
}

export function queryString(query: Record<string, unknown> | undefined): string {
  if (!query) return '';
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) for (const x of v) qs.append(k, String(x));
    else qs.append(k, String(v));
  }
  const s = qs.toString();
  return s ? `?${s}` : '';
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

async function parseBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return null;
  const type = res.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

export async function send<T>(t: TransportOptions, call: Call): Promise<Answer<T>> {
  const url = t.baseUrl + call.path + queryString(call.query);
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': t.userAgent, ...call.headers };
  if (t.apiKey) headers['x-api-key'] = t.apiKey;
  let payload: string | FormData | undefined;
  if (call.body instanceof FormData) payload = call.body;
  else if (call.body !== undefined) {
    payload = JSON.stringify(call.body);
    headers['content-type'] = 'application/json';
  }
  const maxRetries = call.maxRetries ?? t.retry.maxRetries;
  const started = Date.now();
  for (let attempt = 0, waits = 0; ; attempt++) {
    let res: Response;
    try {
      res = await t.fetch(url, { method: call.method.toUpperCase(), headers, body: payload, signal: call.signal });
    } catch (err) {
      if (call.signal?.aborted) throw err;
      if (!call.safe || attempt - waits >= maxRetries) throw new LociConnectionError(call.method, call.path, err);
      const delayMs = retryDelayMs(attempt - waits, null, t.retry);
      t.onRetry?.({ method: call.method, path: call.path, retry: attempt + 1, delayMs, status: null, error: err });
      await sleep(delayMs, call.signal);
      continue;
    }
    if (res.ok) return { status: res.status, headers: res.headers, data: (await parseBody(res)) as T };
    const body = await parseBody(res);
    const retryAfter = parseRetryAfter(res.headers.get('retry-after'));
    // A 409 with Retry-After: the server is still doing this very request (same Idempotency-Key).
    // Waiting for it is always right, so it does not use up retries, only the in-flight wait budget.
    const inFlight = res.status === 409 && retryAfter !== null && call.safe && Date.now() - started < t.retry.maxInFlightWaitMs;
    if (inFlight || (attempt - waits < maxRetries && retryableStatus(res.status, retryAfter !== null, call.safe))) {
      if (inFlight) waits++;
      const delayMs = retryDelayMs(attempt - waits, retryAfter, t.retry);
      t.onRetry?.({ method: call.method, path: call.path, retry: attempt + 1, delayMs, status: res.status });
      await sleep(delayMs, call.signal);
      continue;
    }
    if (res.status === 422) throw new LociValidationError(body, call.method, call.path);
    throw new LociError(res.status, body, call.method, call.path, retryAfter);
  }
}

export { DEFAULT_RETRY };
