// Fixed one-second windows counted in the cache, so replicas sharing Redis share budgets.
import type { Cache } from './cache/types.js';

export type RateClass = 'write' | 'bulk' | 'search' | 'other';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets (for Retry-After). */
  retryAfterS: number;
}

const WINDOW_MS = 1_000;

export async function takeToken(cache: Cache, who: string, cls: RateClass | 'unauthenticated', limit: number, now = Date.now()): Promise<RateDecision> {
  const window = Math.floor(now / WINDOW_MS);
  const { value } = await cache.incr(`rl:${cls}:${who}:${window}`, WINDOW_MS * 2);
  const retryAfterS = Math.max(1, Math.ceil(((window + 1) * WINDOW_MS - now) / 1000));
  return { allowed: value <= limit, limit, remaining: Math.max(0, limit - value), retryAfterS };
}
