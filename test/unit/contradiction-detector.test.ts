// Pure parts of the contradiction detector: planning what findings change, the LLM reply parser,
// event validation, the cache lock (memory cache, and Redis when LOCI_TEST_REDIS_URL is set),
// publishing through an outage, and the configuration it reads.
import { afterAll, describe, expect, it } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import { ContradictionDetector, PoisonEvent, plan, type Finding } from '../../src/core/contradictions/detector.js';
import type { DetectRow } from '../../src/core/contradictions/store.js';
import { parseLlmVerdict } from '../../src/core/contradictions/llm-judge.js';
import { CacheLock, LockBusy } from '../../src/core/contradictions/lock.js';
import { contentPreview, reasonOf } from '../../src/core/contradictions/preview.js';
import { MemoryCache } from '../../src/infra/cache/memory.js';
import { RedisCache } from '../../src/infra/cache/redis.js';
import type { Cache } from '../../src/infra/cache/types.js';
import { publishWithRetry } from '../../src/infra/bus/retry.js';
import type { BusEvent, EventBus } from '../../src/infra/bus/types.js';
import { loadConfig } from '../../src/config.js';
import { cleanupRedis } from '../helpers/infra.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const row = (id: string, created_key: string): DetectRow => ({
  id, content: id, subject_entity_id: null, predicate: null, object_value: null, status: 'active', supersedes_id: null,
  agent_id: 'a', visibility: 'scope_team', fleet_id: null, created_key, similarity: null,
});
const finding = (older_id: string, newer_id: string, verdict: Finding['verdict']): Finding =>
  ({ older_id, newer_id, verdict, reason: 'x', similarity: 0.9, judged_by: 'rules' });

describe('plan', () => {
  const a = row('a', '2024-01-01T00:00:00.000001');
  const b = row('b', '2024-01-01T00:00:00.000002');
  const c = row('c', '2024-01-01T00:00:00.000003');

  it('marks older rows and links each newer row to the most recent row it supersedes', () => {
    const [statuses, links] = plan([finding('a', 'c', 'semantic_conflict'), finding('b', 'c', 'rdf_conflict')], [a, b, c]);
    expect(statuses).toEqual([{ id: 'a', status: 'conflicted' }, { id: 'b', status: 'outdated' }]);
    expect(links).toEqual([{ newer_id: 'c', older_id: 'b' }]);
  });

  it('outdated wins over conflicted for the same older row, in any order', () => {
    for (const fs of [[finding('a', 'b', 'rdf_conflict'), finding('a', 'c', 'semantic_conflict')], [finding('a', 'c', 'semantic_conflict'), finding('a', 'b', 'rdf_conflict')]]) {
      const [statuses, links] = plan(fs, [a, b, c]);
      expect(statuses).toEqual([{ id: 'a', status: 'outdated' }]);
      expect(links).toEqual(expect.arrayContaining([{ newer_id: 'b', older_id: 'a' }, { newer_id: 'c', older_id: 'a' }]));
    }
  });

  it('orders rows written in the same instant by id', () => {
    const x = row('x1', '2024-01-01T00:00:00.000001');
    const y = row('x2', '2024-01-01T00:00:00.000001');
    const z = row('z', '2024-01-01T00:00:00.000009');
    expect(plan([finding('x1', 'z', 'rdf_conflict'), finding('x2', 'z', 'rdf_conflict')], [x, y, z])[1]).toEqual([{ newer_id: 'z', older_id: 'x2' }]);
  });

  it('changes nothing without findings', () => {
    expect(plan([], [a, b])).toEqual([[], []]);
  });
});

describe('LLM verdicts', () => {
  it('reads the verdict from JSON, also inside a code fence or prose', () => {
    expect(parseLlmVerdict('{"verdict": "update"}')).toBe('rdf_conflict');
    expect(parseLlmVerdict('```json\n{"verdict":"Contradiction","why":"x"}\n```')).toBe('semantic_conflict');
    expect(parseLlmVerdict('Answer: {"verdict": "none"}')).toBe('none');
  });

  it('refuses anything else', () => {
    for (const bad of ['', 'contradiction', '{"verdict": "maybe"}', '{verdict: update}', '{"answer": "update"}']) {
      expect(() => parseLlmVerdict(bad)).toThrow();
    }
  });
});

describe('previews and reasons', () => {
  it('cuts at 200 characters, counting code points', () => {
    expect(contentPreview('short')).toBe('short');
    const long = '😀'.repeat(250);
    expect(contentPreview(long)).toBe(`${'😀'.repeat(200)}…`);
  });

  it('names the reason from the status of the row that lost', () => {
    expect(reasonOf('outdated')).toBe('rdf_conflict');
    expect(reasonOf('conflicted')).toBe('semantic_conflict');
  });
});

describe('memory.written validation', () => {
  const detector = new ContradictionDetector({ db: {} as never, cache: new MemoryCache(), llm: null });
  const ev = (over: Partial<BusEvent>): BusEvent => ({
    id: randomUUID(), type: 'memory.written', version: 1, tenant_id: 't', occurred_at: new Date().toISOString(), data: { memory_id: randomUUID() }, ...over,
  });

  it('refuses events it cannot read, so the bus dead-letters them', async () => {
    await expect(detector.handle(ev({ version: 2 }))).rejects.toBeInstanceOf(PoisonEvent);
    await expect(detector.handle(ev({ data: { memory_id: 'nope' } }))).rejects.toBeInstanceOf(PoisonEvent);
    await expect(detector.handle(ev({ data: null }))).rejects.toBeInstanceOf(PoisonEvent);
    await expect(detector.handle(ev({ tenant_id: '' }))).rejects.toBeInstanceOf(PoisonEvent);
  });
});

function lockContract(name: string, make: () => Cache) {
  describe(`cache lock over the ${name} cache`, () => {
    const cache = make();
    afterAll(() => cache.close());
    const key = () => `lock-test:${randomUUID()}`;

    it('runs one holder at a time; a waiter goes next', async () => {
      const lock = new CacheLock(cache, { ttlMs: 2_000, pollMs: 10 });
      const k = key();
      let running = 0;
      let most = 0;
      const order: number[] = [];
      await Promise.all([1, 2, 3].map((i) => lock.run(k, async () => {
        running++;
        most = Math.max(most, running);
        await sleep(60);
        order.push(i);
        running--;
      })));
      expect(most).toBe(1);
      expect(order).toHaveLength(3);
      expect(await cache.get(k)).toBeNull();
    });

    it('keeps the key while the holder works past the TTL', async () => {
      const lock = new CacheLock(cache, { ttlMs: 1_000, waitMs: 0, pollMs: 10 });
      const k = key();
      let inside = false;
      const long = lock.run(k, async () => {
        inside = true;
        await sleep(2_500);
      });
      while (!inside) await sleep(5);
      // One and a half TTLs later the key is still held: refreshed every third of a TTL.
      await sleep(1_500);
      await expect(lock.run(k, async () => 'no')).rejects.toBeInstanceOf(LockBusy);
      await long;
      await expect(lock.run(k, async () => 'yes')).resolves.toBe('yes');
    });

    it('frees the key of a holder that died after one TTL', async () => {
      const k = key();
      await cache.set(k, 'a holder that crashed', 300);
      const lock = new CacheLock(cache, { ttlMs: 300, waitMs: 2_000, pollMs: 20 });
      const t0 = Date.now();
      await expect(lock.run(k, async () => 'took over')).resolves.toBe('took over');
      expect(Date.now() - t0).toBeGreaterThanOrEqual(200);
    });

    it('releases the key when the work throws', async () => {
      const lock = new CacheLock(cache, { ttlMs: 5_000 });
      const k = key();
      await expect(lock.run(k, async () => {
        throw new Error('boom');
      })).rejects.toThrow('boom');
      expect(await cache.get(k)).toBeNull();
    });
  });
}

lockContract('memory', () => new MemoryCache());

const REDIS_URL = process.env.LOCI_TEST_REDIS_URL;
describe.skipIf(!REDIS_URL)('cache lock over Redis', () => {
  const prefix = `loci-test-lock-${randomBytes(4).toString('hex')}:`;
  afterAll(() => cleanupRedis(prefix));
  lockContract('redis', () => new RedisCache({ url: REDIS_URL!, keyPrefix: prefix }));
});

describe('cache lock when the cache is down', () => {
  it('runs the work unlocked and says so', async () => {
    const down = new MemoryCache();
    down.setIfAbsent = async () => {
      throw new Error('connection refused');
    };
    const seen: unknown[] = [];
    const lock = new CacheLock(down, { onUnavailable: (e) => seen.push(e) });
    await expect(lock.run('k', async () => 42)).resolves.toBe(42);
    expect(seen).toHaveLength(1);
  });
});

describe('publishWithRetry', () => {
  const ev: BusEvent = { id: 'e1', type: 'memory.written', version: 1, tenant_id: 't', occurred_at: 'now', data: {} };
  const bus = (fail: (n: number) => Error | null) => {
    const seen: string[] = [];
    let n = 0;
    const b = { publish: async (e: BusEvent) => {
      const err = fail(++n);
      if (err) throw err;
      seen.push(e.id);
    } } as unknown as EventBus;
    return { b, seen, attempts: () => n };
  };

  it('retries through failures with the same event id', async () => {
    const { b, seen, attempts } = bus((n) => (n < 3 ? new Error('disconnected') : null));
    await publishWithRetry(b, ev, { baseMs: 5 });
    expect(attempts()).toBe(3);
    expect(seen).toEqual(['e1']);
  });

  it('gives up when time runs out or at once when the bus is closed', async () => {
    const down = bus(() => new Error('disconnected'));
    await expect(publishWithRetry(down.b, ev, { baseMs: 5, maxMs: 50 })).rejects.toThrow('disconnected');
    const closed = bus(() => new Error('bus is closed'));
    await expect(publishWithRetry(closed.b, ev, { baseMs: 5 })).rejects.toThrow('bus is closed');
    expect(closed.attempts()).toBe(1);
  });
});

describe('configuration', () => {
  it('reads the bus delivery settings and the LLM judge threshold', () => {
    const c = loadConfig({ LOCI_BUS_MAX_DELIVER: '3', LOCI_BUS_RETRY_BASE_MS: '50', LOCI_BUS_ACK_WAIT_MS: '1000', LOCI_CONTRADICTION_LLM_MIN_SIMILARITY: '0.75' });
    expect(c.bus).toEqual({ maxDeliver: 3, retryBaseMs: 50, ackWaitMs: 1000 });
    expect(c.contradictions.llmMinSimilarity).toBe(0.75);
    const d = loadConfig({});
    expect(d.bus).toEqual({ maxDeliver: undefined, retryBaseMs: undefined, ackWaitMs: undefined });
    expect(d.contradictions.llmMinSimilarity).toBe(0.6);
    expect(d.contradictions.neighbours).toBe(10);
    expect(loadConfig({ LOCI_CONTRADICTION_NEIGHBOURS: '12' }).contradictions.neighbours).toBe(12);
  });

  it('refuses values out of range', () => {
    expect(() => loadConfig({ LOCI_CONTRADICTION_LLM_MIN_SIMILARITY: '1.5' })).toThrow(/LOCI_CONTRADICTION_LLM_MIN_SIMILARITY/);
    expect(() => loadConfig({ LOCI_BUS_MAX_DELIVER: '0' })).toThrow(/LOCI_BUS_MAX_DELIVER/);
    expect(() => loadConfig({ LOCI_CONTRADICTION_NEIGHBOURS: '0' })).toThrow(/LOCI_CONTRADICTION_NEIGHBOURS/);
    expect(() => loadConfig({ LOCI_CONTRADICTION_NEIGHBOURS: '101' })).toThrow(/LOCI_CONTRADICTION_NEIGHBOURS/);
    expect(() => loadConfig({ LOCI_BUS_ACK_WAIT_MS: 'soon' })).toThrow(/LOCI_BUS_ACK_WAIT_MS/);
  });
});
