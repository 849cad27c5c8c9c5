// In-memory cache: an LRU bounded by entry count and total size, with a TTL per key.
// Single process only; use Redis when several replicas must agree.
import { LRUCache } from 'lru-cache';
import type { Cache } from './types.js';

export interface MemoryCacheOptions {
  /** Most entries kept (least recently used are evicted first). */
  maxEntries?: number;
  /** Rough bound on memory: total characters of keys and values. */
  maxChars?: number;
}

export class MemoryCache implements Cache {
  readonly kind = 'memory' as const;
  private lru: LRUCache<string, string>;

  constructor(opts: MemoryCacheOptions = {}) {
    this.lru = new LRUCache<string, string>({
      max: opts.maxEntries ?? 100_000,
      maxSize: opts.maxChars ?? 64 * 1024 * 1024,
      sizeCalculation: (value, key) => Math.max(1, value.length + key.length),
      // Expired entries are dropped on access; a timer per entry would cost more than it saves.
      ttlAutopurge: false,
      allowStale: false,
    });
  }

  async get(key: string): Promise<string | null> {
    return this.lru.get(key) ?? null;
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    this.lru.set(key, value, { ttl: ttl(ttlMs) });
  }

  async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    // has() ignores expired entries, and nothing awaits between the check and the set.
    if (this.lru.has(key)) return false;
    this.lru.set(key, value, { ttl: ttl(ttlMs) });
    return true;
  }

  async del(key: string): Promise<void> {
    this.lru.delete(key);
  }

  async incr(key: string, ttlMs: number): Promise<{ value: number; ttlMs: number }> {
    const current = this.lru.get(key);
    if (current === undefined) {
      const t = ttl(ttlMs);
      this.lru.set(key, '1', { ttl: t });
      return { value: 1, ttlMs: t };
    }
    const n = Number(current);
    if (!Number.isSafeInteger(n)) throw new Error('cache value is not an integer');
    // Keep the window that started on the first increment.
    this.lru.set(key, String(n + 1), { noUpdateTTL: true });
    const remaining = Math.max(1, Math.ceil(this.lru.getRemainingTTL(key)));
    return { value: n + 1, ttlMs: remaining };
  }

  async ping(): Promise<boolean> {
    return true;
  }

  async close(): Promise<void> {
    this.lru.clear();
  }
}

function ttl(ms: number): number {
  if (!Number.isFinite(ms) || ms <= 0) throw new Error('ttlMs must be a positive number');
  return Math.ceil(ms);
}
