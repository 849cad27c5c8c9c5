// Worker pool lanes: an urgent job (a search's query) goes ahead of queued ordinary jobs (write batches),
// and background work (passages) waits for both.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UseLiteEmbedder } from '../../src/providers/embedder/use-lite.js';
import { inBackground } from '../../src/infra/priority.js';

let emb: UseLiteEmbedder;
beforeAll(async () => {
  emb = new UseLiteEmbedder({ workers: 1 });
  await emb.init();
});
afterAll(async () => emb?.close());

const texts = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `sentence ${i} about the ${tag} plan for the quarter`);

describe('worker pool lanes', () => {
  it('serves an urgent job before ordinary jobs queued earlier', async () => {
    const done: string[] = [];
    const running = emb.embed(texts(16, 'running')).then(() => done.push('running'));
    const queued = [1, 2, 3].map((k) => emb.embed(texts(16, `queued ${k}`)).then(() => done.push(`queued ${k}`)));
    const urgent = emb.embed(['where is the quarterly plan'], { urgent: true }).then(() => done.push('urgent'));
    await Promise.all([running, ...queued, urgent]);
    expect(done).toEqual(['running', 'urgent', 'queued 1', 'queued 2', 'queued 3']);
  });

  it('serves background jobs only when no other job waits, also when queued first', async () => {
    const done: string[] = [];
    const running = emb.embed(texts(16, 'running')).then(() => done.push('running'));
    const passages = [1, 2].map((k) => inBackground(() => emb.embed(texts(16, `passages ${k}`))).then(() => done.push(`passages ${k}`)));
    const write = emb.embed(texts(16, 'write')).then(() => done.push('write'));
    const urgent = emb.embed(['where is the quarterly plan'], { urgent: true }).then(() => done.push('urgent'));
    await Promise.all([running, ...passages, write, urgent]);
    expect(done).toEqual(['running', 'urgent', 'write', 'passages 1', 'passages 2']);
  });

  it('runs background work in jobs of bounded cost: two long passages, or several short sentences', async () => {
    const long = Array.from({ length: 24 }, (_, i) => `${i} ${'the passage of a long memory about the quarterly plan '.repeat(12)}`);
    const passages = inBackground(() => emb.embed(long));
    await new Promise((r) => setTimeout(r, 20));
    await emb.embed(['where is the quarterly plan'], { urgent: true });
    // Most of the 24 passages still wait, in jobs of two, behind the urgent one.
    expect(emb.stats().queued).toBeGreaterThanOrEqual(8);
    expect(await passages).toHaveLength(24);

    const sentences = inBackground(() => emb.embed(texts(40, 'sentences')));
    await new Promise((r) => setTimeout(r, 5));
    // 40 short sentences: five jobs of eight (one running), not twenty of two.
    expect(emb.stats().queued).toBeLessThanOrEqual(5);
    expect(emb.stats().queued).toBeGreaterThanOrEqual(3);
    expect(await sentences).toHaveLength(40);
  });
});

describe('a worker reserved for queries', () => {
  let pool: UseLiteEmbedder;
  beforeAll(async () => {
    pool = new UseLiteEmbedder({ workers: 1, queryWorkers: 1 });
    await pool.init();
  });
  afterAll(async () => pool?.close());

  it('embeds an urgent job while the ordinary worker runs a batch, and takes no ordinary job', async () => {
    const done: string[] = [];
    const writes = [1, 2].map((k) => pool.embed(texts(16, `write ${k}`)).then(() => done.push(`write ${k}`)));
    await new Promise((r) => setTimeout(r, 5));
    // Two batches of writes: the second waits for the ordinary worker rather than take the reserved one.
    expect(pool.stats()).toMatchObject({ size: 2, busy: 1, queued: 1 });
    const urgent = pool.embed(['where is the quarterly plan'], { urgent: true }).then(() => done.push('urgent'));
    await Promise.all([...writes, urgent]);
    expect(done).toEqual(['urgent', 'write 1', 'write 2']);
  });
});
