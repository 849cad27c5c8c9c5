// Universal Sentence Encoder Lite (512-d) served by a pool of worker threads, so model
// inference (tens of ms per batch) never runs on the event loop.
import type { Embedder } from './types.js';
import { WorkerPool, workerUrl, type WorkerPoolStats } from './pool.js';
import { chunk } from './vector.js';
import { currentPriority } from '../../infra/priority.js';

/**
 * Texts per worker job of background work (passages): a search's query embedding waits for the job
 * a worker is running, and two 500-character passages take ~110 ms (the cost per text is the same
 * at any batch size).
 */
const BACKGROUND_BATCH = 2;

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
      maxBackgroundBatch: BACKGROUND_BATCH,
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
    // Small inputs are split evenly so every worker gets a share; large ones in batchSize chunks.
    // Concurrent small calls are merged by the pool up to batchSize.
    const most = currentPriority() === 'background' ? BACKGROUND_BATCH : this.batchSize;
    const size = Math.max(1, Math.min(most, Math.ceil(clean.length / this.workers)));
    const groups = chunk(order, size);
    const parts = await Promise.all(groups.map((g) => this.pool.run(g.map((i) => clean[i]), opts.urgent)));
    const out = new Array<Float32Array>(texts.length);
    groups.forEach((g, j) => g.forEach((i, k) => { out[i] = parts[j][k]; }));
    if (parts.reduce((n, p) => n + p.length, 0) !== texts.length || out.some((v) => !v)) {
      throw new Error(`use-lite embedder returned ${parts.flat().length} vectors for ${texts.length} texts`);
    }
    return out;
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
