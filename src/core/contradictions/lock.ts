// A lock in the cache (Redis when configured, so it holds across replicas): one holder per key
// at a time. The holder refreshes the TTL while it works, so a holder that dies frees the key
// after one TTL and a live one never loses it. A waiter polls until the key is free.
import { randomUUID } from 'node:crypto';
import type { Cache } from '../../infra/cache/types.js';

export class LockBusy extends Error {
  constructor(key: string) {
    super(`lock ${key} is held elsewhere`);
    this.name = 'LockBusy';
  }
}

export interface CacheLockOptions {
  /** Lifetime of the key without a refresh (ms). */
  ttlMs?: number;
  /** How long a caller waits for a held key before giving up with LockBusy (ms). */
  waitMs?: number;
  pollMs?: number;
  /** Called when the cache cannot be reached; the work then runs without the lock. */
  onUnavailable?: (err: unknown) => void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class CacheLock {
  private readonly ttlMs: number;
  private readonly waitMs: number;
  private readonly pollMs: number;

  constructor(private cache: Cache, private opts: CacheLockOptions = {}) {
    this.ttlMs = Math.max(100, opts.ttlMs ?? 30_000);
    this.waitMs = Math.max(0, opts.waitMs ?? this.ttlMs * 2);
    this.pollMs = Math.max(5, opts.pollMs ?? 100);
  }

  /**
   * Runs fn while holding `key`. When the cache itself is down the work runs unlocked: the
   * detector's updates are conditional and idempotent, so a rare overlap changes nothing, while
   * refusing would drop detections for the whole outage.
   */
  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const token = randomUUID();
    const deadline = Date.now() + this.waitMs;
    for (;;) {
      let got: boolean;
      try {
        got = await this.cache.setIfAbsent(key, token, this.ttlMs);
      } catch (err) {
        this.opts.onUnavailable?.(err);
        return fn();
      }
      if (got) break;
      if (Date.now() >= deadline) throw new LockBusy(key);
      await sleep(Math.min(this.pollMs, Math.max(1, deadline - Date.now())));
    }
    const refresh = setInterval(() => {
      void this.cache.get(key)
        .then((v) => (v === token ? this.cache.set(key, token, this.ttlMs) : undefined))
        .catch(() => undefined);
    }, Math.max(50, Math.floor(this.ttlMs / 3)));
    refresh.unref();
    try {
      return await fn();
    } finally {
      clearInterval(refresh);
      // Only our own key is removed; after an expiry another holder may own it.
      try {
        if ((await this.cache.get(key)) === token) await this.cache.del(key);
      } catch {
        // the key expires on its own
      }
    }
  }
}
