// Redis cache (ioredis). Shared by replicas: idempotency records, rate-limit windows and locks
// agree across processes. Built to survive Redis going away: errors are handled, commands fail
// fast instead of queueing while disconnected, and the client keeps reconnecting with a capped
// backoff so it recovers on its own when Redis returns.
import { Redis } from 'ioredis';
import type { Cache } from './types.js';

export interface RedisCacheOptions {
  url: string;
  /** Prepended to every key so deployments (or test runs) sharing one Redis stay apart. */
  keyPrefix?: string;
  /** Upper bound for one command before it is failed (ms). */
  commandTimeoutMs?: number;
  /** Longest wait between reconnect attempts (ms). */
  maxReconnectDelayMs?: number;
  /** Called on connection errors (at most once per disconnect), e.g. to log them. */
  onError?: (err: Error) => void;
}

// INCR and the first PEXPIRE in one atomic step; a counter never lives without a TTL.
const INCR_WITH_TTL = `
local v = redis.call('INCR', KEYS[1])
if v == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local t = redis.call('PTTL', KEYS[1])
if t < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  t = tonumber(ARGV[1])
end
return {v, t}
`;

type WithIncr = Redis & { lociIncr(key: string, ttlMs: number): Promise<[number, number]> };

export class RedisCache implements Cache {
  readonly kind = 'redis' as const;
  private client: WithIncr;
  private prefix: string;
  private closed = false;
  private reportedDown = false;
  /** Settles on the first 'ready' (or when the first connection attempt fails). */
  private firstConnect: Promise<void>;
  private connectedOnce = false;

  constructor(opts: RedisCacheOptions) {
    this.prefix = opts.keyPrefix ?? '';
    const maxDelay = opts.maxReconnectDelayMs ?? 2_000;
    this.client = new Redis(opts.url, {
      // No queueing while disconnected: callers get an error at once and fall back or fail.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: opts.commandTimeoutMs ?? 2_000,
      connectTimeout: 2_000,
      lazyConnect: false,
      // Never give up: a capped backoff keeps the cost low while Redis is down.
      retryStrategy: (times) => Math.min(50 * 2 ** Math.min(times, 10), maxDelay),
      // A READONLY reply means a failover happened: reconnect to reach the new primary.
      reconnectOnError: (err) => err.message.startsWith('READONLY'),
    }) as WithIncr;
    this.client.defineCommand('lociIncr', { numberOfKeys: 1, lua: INCR_WITH_TTL });
    // Without a listener an 'error' event would be reported as unhandled.
    this.client.on('error', (err: Error) => {
      if (this.reportedDown || this.closed) return;
      this.reportedDown = true;
      opts.onError?.(err);
    });
    this.firstConnect = new Promise<void>((resolve) => {
      const settle = () => {
        this.client.off('ready', settle);
        this.client.off('error', settle);
        resolve();
      };
      this.client.once('ready', settle);
      this.client.once('error', settle);
    });
    this.client.on('ready', () => {
      this.connectedOnce = true;
      this.reportedDown = false;
    });
  }

  /** The first commands after start wait for the initial connection; later ones fail fast. */
  private async c(): Promise<WithIncr> {
    if (!this.connectedOnce && this.client.status !== 'ready') await this.firstConnect;
    return this.client;
  }

  private k(key: string) {
    return this.prefix + key;
  }

  async get(key: string): Promise<string | null> {
    return (await this.c()).get(this.k(key));
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    await (await this.c()).set(this.k(key), value, 'PX', ttl(ttlMs));
  }

  async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    const r = await (await this.c()).set(this.k(key), value, 'PX', ttl(ttlMs), 'NX');
    return r === 'OK';
  }

  async del(key: string): Promise<void> {
    await (await this.c()).del(this.k(key));
  }

  async incr(key: string, ttlMs: number): Promise<{ value: number; ttlMs: number }> {
    const [value, left] = await (await this.c()).lociIncr(this.k(key), ttl(ttlMs));
    return { value: Number(value), ttlMs: Number(left) };
  }

  async ping(): Promise<boolean> {
    if (this.closed) return false;
    try {
      return (await (await this.c()).ping()) === 'PONG';
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.client.status === 'ready') {
      try {
        await this.client.quit();
        return;
      } catch {
        // fall through to a hard disconnect
      }
    }
    this.client.disconnect();
  }
}

function ttl(ms: number): number {
  if (!Number.isFinite(ms) || ms <= 0) throw new Error('ttlMs must be a positive number');
  return Math.ceil(ms);
}
