import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Cache } from '../../src/infra/cache/types.js';
import { MemoryCache } from '../../src/infra/cache/memory.js';
import { RedisCache } from '../../src/infra/cache/redis.js';
import { createCache } from '../../src/infra/cache/index.js';
import { startTcpProxy } from './tcp-proxy.js';
import { deleteKeys } from '../helpers/redis.js';

const REDIS_URL = process.env.LOCI_TEST_REDIS_URL;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(cond: () => Promise<boolean> | boolean, timeoutMs: number, stepMs = 50) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await cond()) return true;
    await sleep(stepMs);
  }
  return cond();
}

// The same contract for both implementations.
function contract(name: string, make: () => Cache) {
  describe(`${name} cache contract`, () => {
    let cache: Cache;
    beforeAll(() => {
      cache = make();
    });
    afterAll(async () => {
      await cache.close();
    });

    it('gets what was set, null for a missing key, and deletes', async () => {
      expect(await cache.get('missing')).toBeNull();
      await cache.set('a', 'one', 10_000);
      expect(await cache.get('a')).toBe('one');
      await cache.set('a', 'two', 10_000);
      expect(await cache.get('a')).toBe('two');
      await cache.del('a');
      expect(await cache.get('a')).toBeNull();
      await cache.del('never-set');
    });

    it('expires a key after its TTL', async () => {
      await cache.set('short', 'x', 150);
      await cache.set('long', 'y', 10_000);
      expect(await cache.get('short')).toBe('x');
      await sleep(300);
      expect(await cache.get('short')).toBeNull();
      expect(await cache.get('long')).toBe('y');
    });

    it('setIfAbsent sets only once until the key expires', async () => {
      expect(await cache.setIfAbsent('lock', 'first', 200)).toBe(true);
      expect(await cache.setIfAbsent('lock', 'second', 200)).toBe(false);
      expect(await cache.get('lock')).toBe('first');
      await sleep(350);
      expect(await cache.setIfAbsent('lock', 'third', 10_000)).toBe(true);
      expect(await cache.get('lock')).toBe('third');
    });

    it('setIfAbsent is exclusive under concurrent callers', async () => {
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => cache.setIfAbsent('race', String(i), 10_000)));
      expect(results.filter(Boolean)).toHaveLength(1);
    });

    it('incr counts atomically and keeps the TTL of the first increment', async () => {
      const first = await cache.incr('ctr', 400);
      expect(first.value).toBe(1);
      expect(first.ttlMs).toBeGreaterThan(0);
      expect(first.ttlMs).toBeLessThanOrEqual(400);
      await sleep(150);
      const second = await cache.incr('ctr', 400);
      expect(second.value).toBe(2);
      // The window started at the first increment: it is not extended.
      expect(second.ttlMs).toBeLessThanOrEqual(first.ttlMs - 100);
      const many = await Promise.all(Array.from({ length: 10 }, () => cache.incr('ctr', 400)));
      expect(many.map((r) => r.value).sort((a, b) => a - b)).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
      expect(await cache.get('ctr')).toBe('12');
      await sleep(400);
      expect((await cache.incr('ctr', 400)).value).toBe(1);
    });

    it('pings', async () => {
      expect(await cache.ping()).toBe(true);
    });
  });
}

contract('memory', () => new MemoryCache());

describe('memory cache', () => {
  it('evicts least recently used entries beyond its bound', async () => {
    const cache = new MemoryCache({ maxEntries: 3 });
    for (const k of ['a', 'b', 'c']) await cache.set(k, k, 10_000);
    await cache.get('a');
    await cache.set('d', 'd', 10_000);
    expect(await cache.get('b')).toBeNull();
    expect(await cache.get('a')).toBe('a');
    expect(await cache.get('d')).toBe('d');
  });

  it('is what createCache returns without a Redis URL', () => {
    expect(createCache({}).kind).toBe('memory');
  });
});

describe.skipIf(!REDIS_URL)('redis cache', () => {
  const prefix = `loci-test-${randomBytes(6).toString('hex')}:`;
  let admin: Redis;

  beforeAll(() => {
    admin = new Redis(REDIS_URL!);
  });

  afterAll(async () => {
    // Remove every key this run created.
    await deleteKeys(admin, prefix);
    await admin.quit();
  });

  contract('redis', () => createCache({ redisUrl: REDIS_URL, keyPrefix: prefix }));

  it('stores keys under its prefix with a real TTL', async () => {
    const cache = new RedisCache({ url: REDIS_URL!, keyPrefix: prefix });
    await cache.set('prefixed', 'v', 5_000);
    expect(await admin.get(`${prefix}prefixed`)).toBe('v');
    const pttl = await admin.pttl(`${prefix}prefixed`);
    expect(pttl).toBeGreaterThan(0);
    expect(pttl).toBeLessThanOrEqual(5_000);
    await cache.incr('counter', 5_000);
    expect(await admin.pttl(`${prefix}counter`)).toBeGreaterThan(0);
    await cache.close();
  });

  it('fails fast while Redis is unreachable and recovers by itself', async () => {
    const u = new URL(REDIS_URL!);
    const proxy = await startTcpProxy(u.hostname, Number(u.port || 6379));
    const errors: Error[] = [];
    const cache = new RedisCache({
      url: `redis://127.0.0.1:${proxy.port}`,
      keyPrefix: prefix,
      maxReconnectDelayMs: 200,
      onError: (e) => errors.push(e),
    });
    try {
      expect(await until(() => cache.ping(), 3_000)).toBe(true);
      await cache.set('outage', 'before', 30_000);

      await proxy.cut();
      expect(await until(async () => !(await cache.ping()), 3_000)).toBe(true);
      const t0 = Date.now();
      await expect(cache.get('outage')).rejects.toThrow();
      await expect(cache.incr('outage-ctr', 1_000)).rejects.toThrow();
      expect(Date.now() - t0).toBeLessThan(1_000);
      // Connection errors are reported to the callback, once per outage, never thrown.
      expect(await until(() => errors.length > 0, 3_000)).toBe(true);
      await sleep(300);
      expect(errors).toHaveLength(1);

      await proxy.restore();
      expect(await until(() => cache.ping(), 5_000)).toBe(true);
      expect(await cache.get('outage')).toBe('before');
    } finally {
      await cache.close();
      await proxy.close();
    }
  });

  it('reports down, without crashing, when Redis was never reachable', async () => {
    const cache = new RedisCache({ url: 'redis://127.0.0.1:1', keyPrefix: prefix, maxReconnectDelayMs: 200 });
    await sleep(100);
    expect(await cache.ping()).toBe(false);
    await expect(cache.set('k', 'v', 1_000)).rejects.toThrow();
    await cache.close();
  });
});
