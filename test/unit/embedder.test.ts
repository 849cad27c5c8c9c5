import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { UseLiteEmbedder } from '../../src/providers/embedder/use-lite.js';
import { OpenAIEmbedder, embeddingsEndpoint } from '../../src/providers/embedder/openai.js';
import { CachedEmbedder } from '../../src/providers/embedder/query-cache.js';
import { createEmbedder } from '../../src/providers/embedder/index.js';
import { WorkerCrashError, WorkerPool } from '../../src/providers/embedder/pool.js';
import { dot } from '../../src/providers/embedder/vector.js';
import type { Embedder } from '../../src/providers/embedder/types.js';

const norm = (v: Float32Array) => Math.sqrt(dot(v, v));
const sentences = (n: number, tag = '') => Array.from({ length: n }, (_, i) => `Note ${i}${tag}: the ${['red', 'blue', 'green', 'old'][i % 4]} report number ${i} mentions topic ${i * 7}.`);

describe('UseLiteEmbedder (real model, 2 workers)', () => {
  const emb = new UseLiteEmbedder({ workers: 2 });
  beforeAll(() => emb.init());
  afterAll(() => emb.close());

  it('returns unit-length 512-d vectors', async () => {
    expect(emb.modelId).toBe('use-lite');
    expect(emb.dim).toBe(512);
    const [a, b, empty] = await emb.embed(['hello world', 'The quick brown fox jumps over the lazy dog', '']);
    for (const v of [a, b, empty]) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v.length).toBe(512);
      expect(norm(v)).toBeCloseTo(1, 4);
    }
    expect(await emb.embed([])).toEqual([]);
  });

  it('reads about the first windowChars characters: a long text embeds as its start, whatever follows', async () => {
    const start = sentences(12).join(' ');
    expect(start.length).toBeGreaterThan(emb.windowChars + 100);
    const [a, b, head, short] = await emb.embed([
      `${start} ${sentences(40, 'x').join(' ')}`,
      `${start} ${'Completely different words about weather, soup and trains follow here. '.repeat(60)}`,
      start.slice(0, emb.windowChars + 100),
      start.slice(0, emb.windowChars / 2),
    ]);
    expect(dot(a, b)).toBeGreaterThan(0.9999);
    expect(dot(a, head)).toBeGreaterThan(0.9999);
    // Within the window every character counts.
    expect(dot(a, short)).toBeLessThan(0.99);
  });

  it('puts paraphrases closer than unrelated sentences', async () => {
    const [car1, car2, soup, market] = await emb.embed([
      'The car would not start this morning',
      'My vehicle broke down today',
      'I love a bowl of hot tomato soup in winter',
      'The stock market fell sharply after the announcement',
    ]);
    const para = dot(car1, car2);
    expect(para).toBeGreaterThan(dot(car1, soup) + 0.1);
    expect(para).toBeGreaterThan(dot(car1, market) + 0.1);
  });

  it('keeps batch order: each batched vector equals the text embedded alone', async () => {
    const texts = sentences(40);
    const batched = await emb.embed(texts);
    expect(batched).toHaveLength(40);
    for (const i of [0, 1, 15, 16, 17, 33, 39]) {
      const [alone] = await emb.embed([texts[i]]);
      expect(dot(alone, batched[i])).toBeGreaterThan(0.9999);
    }
  });

  it('resolves many concurrent callers with their own vectors', async () => {
    const texts = sentences(48, ' (concurrent)');
    const reference = await emb.embed(texts);
    const results = await Promise.all(texts.map((t) => emb.embed([t])));
    results.forEach(([v], i) => expect(dot(v, reference[i])).toBeGreaterThan(0.9999));
    // Mixed sizes in flight at once, merged and split by the pool.
    const mixed = await Promise.all([emb.embed(texts.slice(0, 5)), emb.embed([texts[7]]), emb.embed(texts.slice(10, 30))]);
    expect(dot(mixed[0][4], reference[4])).toBeGreaterThan(0.9999);
    expect(dot(mixed[1][0], reference[7])).toBeGreaterThan(0.9999);
    expect(dot(mixed[2][19], reference[29])).toBeGreaterThan(0.9999);
  });

  it('keeps the event loop free while embedding', async () => {
    let maxGap = 0;
    let ticks = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      maxGap = Math.max(maxGap, now - last);
      last = now;
      ticks++;
    }, 2);
    const started = performance.now();
    await emb.embed(sentences(64, ' (loop)'));
    const took = performance.now() - started;
    clearInterval(timer);
    // Embedding in this thread would hold the loop for the whole batch (one gap as long as the call).
    // Judged relative to the call's own duration, so a loaded machine does not decide the verdict.
    expect(ticks).toBeGreaterThanOrEqual(5);
    expect(maxGap).toBeLessThan(Math.max(100, took / 3));
  });
});

describe('UseLiteEmbedder worker replacement', () => {
  it('rejects the lost job with a clear error and replaces the worker', async () => {
    const emb = new UseLiteEmbedder({ workers: 1 });
    try {
      await emb.init();
      const job = emb.embed(sentences(64, ' (doomed)'));
      await new Promise((r) => setTimeout(r, 20));
      emb.recycleWorker(0);
      await expect(job).rejects.toBeInstanceOf(WorkerCrashError);
      await expect(job).rejects.toThrow(/use-lite embedder worker crashed/);
      const [v] = await emb.embed(['still works after the crash']);
      expect(norm(v)).toBeCloseTo(1, 4);
      expect(emb.stats()).toMatchObject({ size: 1, ready: 1, restarts: 1 });
    } finally {
      await emb.close();
    }
  });
});

describe('WorkerPool with a test worker that crashes on demand', () => {
  let dir: string;
  let url: URL;
  let badUrl: URL;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'loci-pool-'));
    // Speaks the pool protocol directly: "exit" kills the thread, "throw" raises outside any job.
    writeFileSync(
      join(dir, 'echo-worker.mjs'),
      `import { parentPort } from 'node:worker_threads';
      parentPort.on('message', (m) => {
        if (m.items.includes('exit')) process.exit(3);
        if (m.items.includes('throw')) setImmediate(() => { throw new Error('boom in worker'); });
        else if (m.items.includes('slow')) setTimeout(() => parentPort.postMessage({ type: 'result', id: m.id, ok: true, result: m.items }), 200);
        else parentPort.postMessage({ type: 'result', id: m.id, ok: true, result: m.items.map((s) => s.toUpperCase()) });
      });
      parentPort.postMessage({ type: 'ready' });`,
    );
    writeFileSync(
      join(dir, 'broken-worker.mjs'),
      `import { parentPort } from 'node:worker_threads';
      parentPort.postMessage({ type: 'init-error', message: 'weights not found' });`,
    );
    url = pathToFileURL(join(dir, 'echo-worker.mjs'));
    badUrl = pathToFileURL(join(dir, 'broken-worker.mjs'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('replaces a worker that exits or throws, failing only its own job', async () => {
    const pool = new WorkerPool<string, string>({ name: 'echo', url, size: 2 });
    try {
      expect(await pool.run(['a', 'b'])).toEqual(['A', 'B']);
      await expect(pool.run(['exit'])).rejects.toThrow(/echo worker crashed \(exit code 3\)/);
      await expect(pool.run(['throw'])).rejects.toThrow(/echo worker crashed \(boom in worker\)/);
      const many = await Promise.all(Array.from({ length: 20 }, (_, i) => pool.run([`x${i}`])));
      expect(many.map((r) => r[0])).toEqual(Array.from({ length: 20 }, (_, i) => `X${i}`));
      expect(pool.stats().restarts).toBe(2);
    } finally {
      await pool.close();
    }
  });

  it('merges queued jobs into one batch and splits the results back', async () => {
    const pool = new WorkerPool<string, string>({ name: 'echo', url, size: 1, maxBatch: 10 });
    try {
      await pool.start();
      const slow = pool.run(['slow']);
      const queued = [pool.run(['a']), pool.run(['b', 'c']), pool.run(['d'])];
      expect(pool.stats()).toMatchObject({ busy: 1, queued: 3 });
      expect(await slow).toEqual(['slow']);
      expect(await Promise.all(queued)).toEqual([['A'], ['B', 'C'], ['D']]);
    } finally {
      await pool.close();
    }
  });

  it('reports a worker that cannot load its model', async () => {
    const pool = new WorkerPool<string, string>({ name: 'broken', url: badUrl, size: 1 });
    await expect(pool.start()).rejects.toThrow('broken worker failed to start: weights not found');
    await expect(pool.run(['a'])).rejects.toThrow(/failed to start|closed/);
  });

  it('rejects pending jobs on close', async () => {
    const pool = new WorkerPool<string, string>({ name: 'echo', url, size: 1 });
    await pool.start();
    const pending = expect(pool.run(['slow'])).rejects.toThrow('echo was closed');
    await pool.close();
    await pending;
  });
});

// ---------------------------------------------------------------------------------------------
// OpenAI-compatible embedder against a fake embeddings server on 127.0.0.1.

interface FakeState {
  dim: number;
  failNext: number;
  failStatus: number;
  delayMs: number;
  requests: { inputs: string[]; auth?: string; model: string }[];
}

/** Test fake of the /v1/embeddings API: deterministic, not unit-length, answers in reverse order. */
function startFakeEmbeddingsServer(): Promise<{ server: Server; url: string; state: FakeState }> {
  const state: FakeState = { dim: 16, failNext: 0, failStatus: 500, delayMs: 0, requests: [] };
  const server = createServer(async (req: IncomingMessage, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const json = JSON.parse(body) as { input: string[]; model: string };
    state.requests.push({ inputs: json.input, auth: req.headers.authorization, model: json.model });
    if (state.failNext > 0) {
      state.failNext--;
      res.writeHead(state.failStatus, { 'content-type': 'application/json' }).end('{"error":{"message":"fake failure"}}');
      return;
    }
    if (state.delayMs) await new Promise((r) => setTimeout(r, state.delayMs));
    const data = json.input.map((text, index) => ({ object: 'embedding', index, embedding: fakeVector(text, state.dim) }));
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: data.reverse(), model: json.model }));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({ server, url: `http://127.0.0.1:${port}`, state });
    }),
  );
}

function fakeVector(text: string, dim: number): number[] {
  let h = 2166136261;
  for (const c of text) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  return Array.from({ length: dim }, (_, i) => ((h >>> (i % 24)) & 0xff) + i + 1);
}

const unit = (v: number[]) => {
  const n = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return v.map((x) => x / n);
};

describe('OpenAIEmbedder', () => {
  let fake: Awaited<ReturnType<typeof startFakeEmbeddingsServer>>;
  beforeAll(async () => {
    fake = await startFakeEmbeddingsServer();
  });
  afterAll(() => new Promise<void>((r) => fake.server.close(() => r())));
  const reset = (over: Partial<FakeState> = {}) => Object.assign(fake.state, { dim: 16, failNext: 0, failStatus: 500, delayMs: 0, requests: [] }, over);

  it('resolves the endpoint from the usual ways of writing a base URL', () => {
    expect(embeddingsEndpoint('http://h:1')).toBe('http://h:1/v1/embeddings');
    expect(embeddingsEndpoint('http://h:1/v1/')).toBe('http://h:1/v1/embeddings');
    expect(embeddingsEndpoint('https://h/v1beta/openai')).toBe('https://h/v1beta/openai/embeddings');
    expect(embeddingsEndpoint('http://h/v1/embeddings')).toBe('http://h/v1/embeddings');
    expect(() => embeddingsEndpoint('not a url')).toThrow(/not a valid URL/);
  });

  it('learns the dimension with one probe at init and normalises vectors', async () => {
    reset({ dim: 24 });
    const emb = new OpenAIEmbedder({ url: fake.url, model: 'fake-model', key: 'sk-test' });
    expect(emb.modelId).toBe('openai:fake-model');
    expect(() => emb.dim).toThrow(/unknown until init/);
    await emb.init();
    await emb.init();
    expect(emb.dim).toBe(24);
    expect(fake.state.requests).toHaveLength(1);
    expect(fake.state.requests[0]).toMatchObject({ auth: 'Bearer sk-test', model: 'fake-model' });
    const [v] = await emb.embed(['hello']);
    expect(v.length).toBe(24);
    expect(norm(v)).toBeCloseTo(1, 5);
    const expected = unit(fakeVector('hello', 24));
    v.forEach((x, i) => expect(x).toBeCloseTo(expected[i], 5));
  });

  it('batches up to 128 inputs per request and keeps order', async () => {
    reset();
    const emb = new OpenAIEmbedder({ url: fake.url, model: 'm', dim: 16 });
    const texts = Array.from({ length: 300 }, (_, i) => `text ${i}`);
    const out = await emb.embed(texts);
    expect(fake.state.requests.map((r) => r.inputs.length).sort((a, b) => b - a)).toEqual([128, 128, 44]);
    expect(fake.state.requests[0].auth).toBeUndefined();
    for (const i of [0, 127, 128, 200, 299]) {
      const expected = unit(fakeVector(texts[i], 16));
      expect(out[i][3]).toBeCloseTo(expected[3], 5);
      expect(out[i][11]).toBeCloseTo(expected[11], 5);
    }
  });

  it('retries 500s and 429s, then succeeds', async () => {
    reset({ failNext: 2 });
    const emb = new OpenAIEmbedder({ url: fake.url, model: 'm', dim: 16, retryBaseMs: 5 });
    const [v] = await emb.embed(['retry me']);
    expect(norm(v)).toBeCloseTo(1, 5);
    expect(fake.state.requests).toHaveLength(3);
    reset({ failNext: 1, failStatus: 429 });
    await emb.embed(['rate limited']);
    expect(fake.state.requests).toHaveLength(2);
  });

  it('gives up after 3 attempts, and does not retry a 400', async () => {
    reset({ failNext: 5 });
    const emb = new OpenAIEmbedder({ url: fake.url, model: 'm', dim: 16, retryBaseMs: 5 });
    await expect(emb.embed(['x'])).rejects.toThrow(/HTTP 500.*fake failure/);
    expect(fake.state.requests).toHaveLength(3);
    reset({ failNext: 1, failStatus: 400 });
    await expect(emb.embed(['x'])).rejects.toMatchObject({ status: 400, retryable: false });
    expect(fake.state.requests).toHaveLength(1);
  });

  it('times out slow requests (and retries them)', async () => {
    reset({ delayMs: 400 });
    const emb = new OpenAIEmbedder({ url: fake.url, model: 'm', dim: 16, timeoutMs: 80, maxAttempts: 2, retryBaseMs: 5 });
    const started = Date.now();
    await expect(emb.embed(['slow'])).rejects.toThrow('openai:m: timed out after 80 ms');
    expect(fake.state.requests).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('refuses a dimension other than the configured one at init', async () => {
    reset({ dim: 16 });
    const emb = new OpenAIEmbedder({ url: fake.url, model: 'm', dim: 8 });
    await expect(emb.init()).rejects.toThrow(/got a 16-d vector, expected 8-d/);
  });

  it('reports a connection failure clearly', async () => {
    // A port that was just free: nothing listens there.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', () => r()));
    const { port } = probe.address() as { port: number };
    await new Promise((r) => probe.close(r));
    const emb = new OpenAIEmbedder({ url: `http://127.0.0.1:${port}`, model: 'm', retryBaseMs: 1 });
    await expect(emb.init()).rejects.toThrow(`openai:m at http://127.0.0.1:${port}/v1/embeddings is not usable: openai:m: network error: ECONNREFUSED`);
  });
});

// ---------------------------------------------------------------------------------------------

/** Test fake: counts what reaches the inner embedder. */
class CountingEmbedder implements Embedder {
  readonly modelId = 'counting';
  readonly dim = 3;
  readonly windowChars = 7;
  calls: string[][] = [];
  closed = false;
  async init() {}
  async embed(texts: string[]) {
    this.calls.push(texts);
    await new Promise((r) => setTimeout(r, 5));
    return texts.map((t) => Float32Array.from([t.length, 1, 0]));
  }
  async close() {
    this.closed = true;
  }
}

describe('CachedEmbedder', () => {
  it('serves repeated texts from the cache and embeds only the misses', async () => {
    const inner = new CountingEmbedder();
    const cached = new CachedEmbedder(inner, { size: 3 });
    expect(cached.modelId).toBe('counting');
    expect(cached.dim).toBe(3);
    expect(cached.windowChars).toBe(7);
    const first = await cached.embed(['a', 'bb', 'a']);
    expect(inner.calls).toEqual([['a', 'bb']]);
    expect(first.map((v) => v[0])).toEqual([1, 2, 1]);
    const second = await cached.embed(['bb', 'ccc', 'a']);
    expect(inner.calls[1]).toEqual(['ccc']);
    expect(second.map((v) => v[0])).toEqual([2, 3, 1]);
    // Copies: mutating a result does not change the cache.
    second[0][0] = 99;
    expect((await cached.embed(['bb']))[0][0]).toBe(2);
    expect(inner.calls).toHaveLength(2);
    await cached.close();
    expect(inner.closed).toBe(true);
  });

  it('evicts the least recently used entry', async () => {
    const inner = new CountingEmbedder();
    const cached = new CachedEmbedder(inner, { size: 2 });
    await cached.embed(['a']);
    await cached.embed(['b']);
    await cached.embed(['a']);
    await cached.embed(['c']); // evicts b
    await cached.embed(['a', 'b']);
    expect(inner.calls).toEqual([['a'], ['b'], ['c'], ['b']]);
  });

  it('shares one inner call among concurrent identical queries', async () => {
    const inner = new CountingEmbedder();
    const cached = new CachedEmbedder(inner);
    const results = await Promise.all(Array.from({ length: 10 }, () => cached.embed(['same query'])));
    expect(inner.calls).toEqual([['same query']]);
    expect(results.every(([v]) => v[0] === 10)).toBe(true);
    expect(cached.stats()).toMatchObject({ size: 1, misses: 1, hits: 9 });
  });
});

describe('createEmbedder', () => {
  const base = { embeddings: { timeoutMs: 1000 }, embedWorkers: 1, embedQueryWorkers: 0, modelWorkerNice: 0 };
  it('builds the configured embedder', () => {
    expect(createEmbedder({ ...base, embedder: 'use-lite' })).toBeInstanceOf(UseLiteEmbedder);
    const oa = createEmbedder({ ...base, embedder: 'openai', embeddings: { url: 'http://127.0.0.1:9', model: 'e5', dim: 384, timeoutMs: 1000 } });
    expect(oa).toBeInstanceOf(OpenAIEmbedder);
    expect(oa.modelId).toBe('openai:e5');
    expect(oa.dim).toBe(384);
  });
  it('refuses an incomplete OpenAI configuration', () => {
    expect(() => createEmbedder({ ...base, embedder: 'openai' })).toThrow(/LOCI_EMBEDDINGS_URL/);
    expect(() => createEmbedder({ ...base, embedder: 'openai', embeddings: { url: 'http://x', timeoutMs: 1 } })).toThrow(/LOCI_EMBEDDINGS_MODEL/);
  });
});
