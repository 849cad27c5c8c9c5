// Picks the cache: Redis when a URL is configured, otherwise the in-memory LRU.
import type { Cache } from './types.js';
import { MemoryCache } from './memory.js';
import { RedisCache } from './redis.js';

export type { Cache } from './types.js';
export { MemoryCache } from './memory.js';
export { RedisCache } from './redis.js';

export interface CreateCacheOptions {
  redisUrl?: string;
  keyPrefix?: string;
  /** Redis connection errors (reported once per outage), e.g. to log them. */
  onError?: (err: Error) => void;
}

export function createCache(opts: CreateCacheOptions = {}): Cache {
  if (opts.redisUrl) return new RedisCache({ url: opts.redisUrl, keyPrefix: opts.keyPrefix, onError: opts.onError });
  return new MemoryCache();
}
