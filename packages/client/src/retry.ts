// When and how long to wait before retrying a call. Pure, so it is unit tested.

export interface RetryPolicy {
  /** Retries after the first try (default 5). */
  maxRetries: number;
  /** First backoff step in ms (default 250); doubles each retry. */
  baseDelayMs: number;
  /** Longest wait between tries in ms (default 30 000), Retry-After included. */
  maxDelayMs: number;
  /** How long a call waits, in all, for the same request still running on the server (409 with Retry-After; default 120 000). */
  maxInFlightWaitMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 5, baseDelayMs: 250, maxDelayMs: 30_000, maxInFlightWaitMs: 120_000 };

/**
 * Statuses worth another try: 429 and 503 always (the server refused before doing the work); 502 and
 * 504 only when repeating is safe; any status carrying Retry-After (e.g. a 409 while the same
 * Idempotency-Key is still being processed) when repeating is safe.
 */
export function retryableStatus(status: number, hasRetryAfter: boolean, safe: boolean): boolean {
  if (status === 429 || status === 503) return true;
  if (!safe) return false;
  return status === 502 || status === 504 || (hasRetryAfter && status >= 400);
}

/** Retry-After as seconds: delta-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Number(v);
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, (at - now) / 1000);
}

/**
 * Wait before retry number `retry` (0-based): exponential backoff with jitter (half to all of the step), or Retry-After
 * plus up to one base step of jitter (so clients told the same second do not return together).
 */
export function retryDelayMs(retry: number, retryAfterS: number | null, policy: RetryPolicy, random = Math.random): number {
  if (retryAfterS !== null) return Math.min(policy.maxDelayMs, retryAfterS * 1000 + random() * policy.baseDelayMs);
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
