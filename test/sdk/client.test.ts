// @loci/client against a live server: typed errors, retries on 429 honouring Retry-After, bulk
// retry after a lost answer, and pagination to the end.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { startTcpProxy } from '../infra/tcp-proxy.js';
import { LociClient, LociError, LociValidationError, type RetryInfo } from '../../packages/client/src/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

const portOf = (url: string) => Number(new URL(url).port);

describe('@loci/client', () => {
  it('writes, reads, updates and deletes with tenant and agent filled from its defaults', async () => {
    const c = new LociClient({ baseUrl: t.url, apiKey: await t.key('sdk-crud'), agentId: 'writer' });
    const m = await c.memories.create({ content: 'The staging database runs Postgres 16', memory_type: 'fact', weight: 0.7 });
    expect(m).toMatchObject({ tenant_id: 'sdk-crud', agent_id: 'writer', weight: 0.7 });
    expect((await c.memories.get(m.id)).content).toBe('The staging database runs Postgres 16');
    expect((await c.memories.update(m.id, { weight: 0.9 })).weight).toBe(0.9);
    expect(await c.memories.setStatus(m.id, 'archived')).toMatchObject({ memory_id: m.id, new_status: 'archived' });
    await c.memories.delete(m.id);
    const gone = await c.memories.get(m.id).catch((e) => e);
    expect(gone).toBeInstanceOf(LociError);
    expect(gone.status).toBe(404);
    expect(gone.problem).toMatchObject({ status: 404, title: 'Not Found' });
  });

  it('raises a validation error carrying the 422 items, with a readable message', async () => {
    const c = new LociClient({ baseUrl: t.url, apiKey: await t.key('sdk-422') });
    const err = await c.memories.create({ content: 'x', weight: 7 }).catch((e) => e);
    expect(err).toBeInstanceOf(LociValidationError);
    expect(err.status).toBe(422);
    expect(err.items).toEqual(expect.arrayContaining([expect.objectContaining({ loc: ['body', 'weight'] })]));
    expect(err.message).toContain('body.weight: Input should be less than or equal to 1');
    expect(err.message).not.toContain('[object Object]');
  });

  it('reports a refused key as a problem, not [object Object]', async () => {
    const c = new LociClient({ baseUrl: t.url, apiKey: 'loci_not_a_key', tenantId: 'x' });
    const err = await c.memories.list().catch((e) => e);
    expect(err).toBeInstanceOf(LociError);
    expect(err.status).toBe(401);
    expect(err.message).toMatch(/401 Unauthorized/);
    expect(err.message).not.toContain('[object Object]');
  });

  it('follows cursor pages to the end', async () => {
    const c = new LociClient({ baseUrl: t.url, apiKey: await t.key('sdk-pages') });
    const input = Array.from({ length: 130 }, (_, i) => ({ content: `Page test memory number ${i} about topic ${i * 7919}`, memory_type: 'fact' as const }));
    const w = await c.memories.writeMany(input);
    expect(w).toMatchObject({ created: 130, errors: 0 });
    const seen: string[] = [];
    let pagesSeen = 0;
    for await (const page of c.memories.pages({ limit: 25 })) {
      pagesSeen++;
      seen.push(...page.items.map((m) => m.id));
    }
    expect(pagesSeen).toBeGreaterThanOrEqual(6);
    expect(new Set(seen).size).toBe(130);
    expect(new Set(seen)).toEqual(new Set(w.results.map((r) => r.id)));
    let n = 0;
    for await (const _ of c.memories.all({ limit: 50 })) n++;
    expect(n).toBe(130);
  }, 120_000);

  it('writes a bulk chunk once when the answer to its first try was lost', async () => {
    const proxy = await startTcpProxy('127.0.0.1', portOf(t.url), { dropAnswers: 1 });
    const retries: RetryInfo[] = [];
    const apiKey = await t.key('sdk-drop');
    let firstIds: (string | null)[] = [];
    try {
      const c = new LociClient({ baseUrl: `http://127.0.0.1:${proxy.port}`, apiKey, onRetry: (r) => retries.push(r), retry: { baseDelayMs: 50 } });
      const input = Array.from({ length: 150 }, (_, i) => ({ content: `Dropped connection memory ${i} on shard ${i * 104729}` }));
      const w = await c.memories.writeMany(input, { attemptPrefix: 'drop-test' });
      expect(proxy.dropped()).toBe(1);
      expect(retries.some((r) => r.status === null)).toBe(true);
      expect(w.errors).toBe(0);
      expect(w.results).toHaveLength(150);
      expect(w.results.every((r) => r && r.id)).toBe(true);
      firstIds = w.results.map((r) => r.id);
    } finally {
      await proxy.close();
    }
    const direct = new LociClient({ baseUrl: t.url, apiKey });
    expect((await direct.memories.stats()).total).toBe(150);
    // A rerun under the same attempt ids stores nothing new: it answers with the rows already stored.
    const again = await direct.memories.writeMany(
      Array.from({ length: 150 }, (_, i) => ({ content: `Dropped connection memory ${i} on shard ${i * 104729}` })), { attemptPrefix: 'drop-test' });
    expect(again.results.map((r) => r.id)).toEqual(firstIds);
    expect((await direct.memories.stats()).total).toBe(150);
  }, 120_000);

  it('waits out the same bulk attempt still running on the server and gets its answer', async () => {
    const retries: RetryInfo[] = [];
    const c = new LociClient({ baseUrl: t.url, apiKey: await t.key('sdk-inflight'), onRetry: (r) => retries.push(r), retry: { maxRetries: 0 } });
    const items = Array.from({ length: 60 }, (_, i) => ({ content: `In flight memory ${i} for cluster ${i * 613}` }));
    // Two sends of one attempt at once: the second finds the first in flight (409 + Retry-After) and waits for it.
    const [a, b] = await Promise.all([c.memories.bulk('same-attempt', { items }), c.memories.bulk('same-attempt', { items })]);
    expect(a.created).toBe(60);
    expect(b.results.map((r) => r.id)).toEqual(a.results.map((r) => r.id));
    expect(retries.some((r) => r.status === 409)).toBe(true);
    expect((await c.memories.stats()).total).toBe(60);
  }, 120_000);
});

describe('@loci/client retries', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await startTestApp({ LOCI_RATE_WRITE: '1' });
  });
  afterAll(() => limited?.close());

  it('retries a 429 after Retry-After until the write lands', async () => {
    const retries: RetryInfo[] = [];
    const c = new LociClient({ baseUrl: limited.url, apiKey: await limited.key('sdk-429'), onRetry: (r) => retries.push(r) });
    const started = Date.now();
    // One write per second, counted in fixed one-second windows: four writes sent at once span at
    // most two windows, so at least two of them are refused first (three could straddle a boundary
    // and see only one refusal).
    const written = await Promise.all([0, 1, 2, 3].map((i) => c.memories.create({ content: `Rate limited write ${i} of the retry test` })));
    expect(written).toHaveLength(4);
    const limitedRetries = retries.filter((r) => r.status === 429);
    expect(limitedRetries.length).toBeGreaterThanOrEqual(2);
    // Retry-After is whole seconds: each wait honours at least one.
    expect(limitedRetries.every((r) => r.delayMs >= 1000)).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
  }, 60_000);

  it('gives up after its retries with the 429 as a typed error', async () => {
    const c = new LociClient({ baseUrl: limited.url, apiKey: await limited.key('sdk-429-give-up'), retry: { maxRetries: 0 } });
    const results = await Promise.allSettled([0, 1, 2].map((i) => c.memories.create({ content: `No retry write ${i}` })));
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => r.reason);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    expect(refused[0]).toBeInstanceOf(LociError);
    expect(refused[0]).toMatchObject({ status: 429 });
    expect(refused[0].retryAfter).toBeGreaterThanOrEqual(1);
  });
});
