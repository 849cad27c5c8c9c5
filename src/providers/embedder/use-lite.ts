// Universal Sentence Encoder Lite (512-d) served by a pool of worker threads, so model
// inference (tens of ms per batch) never runs on the event loop.
import type { Embedder } from './types.js';
import { WorkerPool, workerUrl, type WorkerPoolStats } from './pool.js';
import { chunk } from './vector.js';
import { consecutiveGroups } from '../../infra/groups.js';
import { currentPriority } from '../../infra/priority.js';

/**
 * Background work (the search units of stored memories) goes to the workers in jobs of bounded
 * cost, because a write's embedding waits for the job a worker is running. A text costs the
 * characters the model reads of it (its window, ~500) plus a share for the call itself; a job
 * costs at most what two full windows do (110–170 ms). So a job holds two passages of a long memory,
 * or several of the short sentence units, whose cost per text is mostly the call's: a 12-token
 * text took 12.6 ms in a job of two and 8.8 ms in a job of eight.
 */
const BACKGROUND_COST = 1_200;
const CALL_SHARE = 100;

export interface UseLiteOptions {
  /** Worker threads, each with its own copy of the model (~100 MB RSS each). Default 2. */
  workers?: number;
  /**
   * Extra workers for search queries only (default 0; the service starts one): a query's embedding
   * then never waits for a running batch of writes (16 short texts take ~0.3 s).
   */
  queryWorkers?: number;
  /** Nice value of the workers taking writes' texts (WorkerPoolOptions.nice); query workers keep 0. Default 0. */
  nice?: number;
  /** Texts per worker job. 16 measured best on this model; larger batches pad to the longest text. */
  batchSize?: number;
  /**
   * Characters sent per text. The model reads its first 128 tokens (about 520 characters of
   * English) and no token is longer than 16 characters, so 2,400 characters give the same vector
   * as the whole text; the worker then cuts them to the model's window (token-window.ts).
   */
  maxChars?: number;
}

export class UseLiteEmbedder implements Embedder {
  readonly modelId = 'use-lite';
  readonly dim = 512;
  /** The 128 tokens the model reads, in characters of English text (measured: 118–133 tokens at 480–540). */
  readonly windowChars = 500;
  private readonly pool: WorkerPool<string, Float32Array>;
  private readonly workers: number;
  private readonly batchSize: number;
  private readonly maxChars: number;

  constructor(opts: UseLiteOptions = {}) {
    this.workers = opts.workers ?? 2;
    this.batchSize = opts.batchSize ?? 16;
    this.maxChars = opts.maxChars ?? 2_400;
    this.pool = new WorkerPool({
      name: 'use-lite embedder',
      url: workerUrl('use-lite-worker', import.meta.url),
      size: this.workers,
      reserved: opts.queryWorkers ?? 0,
      nice: opts.nice,
      maxBatch: this.batchSize,
      maxBackgroundBatch: BACKGROUND_COST,
      backgroundCost: (t) => this.cost(t),
    });
  }

  init(): Promise<void> {
    return this.pool.start();
  }

  async embed(texts: string[], opts: { urgent?: boolean } = {}): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const clean = texts.map((t) => (t.length > this.maxChars ? t.slice(0, this.maxChars) : t));
    // Texts of similar length share a batch: a batch costs what its longest text costs, so
    // length-sorted batches of a mixed input take about a third less CPU (results are unchanged).
    const order = clean.map((_, i) => i).sort((a, b) => clean[a].length - clean[b].length);
    // Small inputs are split evenly so every worker gets a share; large ones in batchSize chunks
    // (background work: in chunks of at most BACKGROUND_COST). Concurrent small calls are merged
    // by the pool up to the same bounds.
    let groups: number[][];
    if (currentPriority() === 'background') {
      const total = order.reduce((n, i) => n + this.cost(clean[i]), 0);
      groups = consecutiveGroups(order, (i) => this.cost(clean[i]), { items: this.batchSize, weight: Math.min(BACKGROUND_COST, Math.ceil(total / this.workers)) });
    } else {
      groups = chunk(order, Math.max(1, Math.min(this.batchSize, Math.ceil(clean.length / this.workers))));
    }
    const parts = await Promise.all(groups.map((g) => this.pool.run(g.map((i) => clean[i]), opts.urgent)));
    const out = new Array<Float32Array>(texts.length);
    groups.forEach((g, j) => g.forEach((i, k) => { out[i] = parts[j][k]; }));
    if (parts.reduce((n, p) => n + p.length, 0) !== texts.length || out.some((v) => !v)) {
      throw new Error(`use-lite embedder returned ${parts.flat().length} vectors for ${texts.length} texts`);
    }
    return out;
  }

  /** A text's share of a background job (BACKGROUND_COST). */
  private cost(text: string): number {
    return Math.min(text.length, this.windowChars) + CALL_SHARE;
  }

  /** Pool state, for /status and tests. */
  stats(): WorkerPoolStats {
    return this.pool.stats();
  }

  /** Replaces worker `index` (its in-flight job fails with WorkerCrashError). */
  recycleWorker(index: number): void {
    this.pool.recycle(index);
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
