// The cache: in-memory LRU with TTLs by default, Redis when LOCI_REDIS_URL is set.
// Used by idempotency, rate limits, detection locks and the query-embedding cache.
export interface Cache {
  readonly kind: 'memory' | 'redis';
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /** Sets only when absent; true when this call set it (locks, idempotency in-flight markers). */
  setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean>;
  del(key: string): Promise<void>;
  /** Atomically increments a counter, starting its TTL on first increment; returns the new value and ms left. */
  incr(key: string, ttlMs: number): Promise<{ value: number; ttlMs: number }>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}
