// Entity extraction served by worker threads: one call costs 5–15 ms of CPU for a few
// hundred characters, too long to run on the event loop (see nlp.ts for the method).
import { WorkerPool, workerUrl, type WorkerPoolStats } from '../embedder/pool.js';
import type { EntityExtractor, Extraction } from './types.js';

export interface NlpExtractorOptions {
  /** Worker threads (each holds both NLP models, ~60 MB). Default 1. */
  workers?: number;
  /** Characters read per text: cost is linear in length, and a memory is far shorter. Default 20,000. */
  maxChars?: number;
  /** Nice value of the workers (WorkerPoolOptions.nice). Default 0. */
  nice?: number;
}

export class NlpEntityExtractor implements EntityExtractor {
  private readonly pool: WorkerPool<string, Extraction>;
  private readonly maxChars: number;

  constructor(opts: NlpExtractorOptions = {}) {
    this.maxChars = opts.maxChars ?? 20_000;
    this.pool = new WorkerPool({
      name: 'entity extractor',
      url: workerUrl('extractor-worker', import.meta.url),
      size: opts.workers ?? 1,
      nice: opts.nice,
      // A few texts per message: less messaging overhead, short enough to keep latency low.
      maxBatch: 8,
    });
  }

  /** Loads the models now instead of on the first extract() (idempotent). */
  init(): Promise<void> {
    return this.pool.start();
  }

  async extract(text: string, opts: { urgent?: boolean } = {}): Promise<Extraction> {
    if (!text.trim()) return { entities: [], relations: [] };
    const [out] = await this.pool.run([text.length > this.maxChars ? text.slice(0, this.maxChars) : text], opts.urgent);
    return out;
  }

  /** Many texts in one call; output order matches input. */
  async extractMany(texts: string[]): Promise<Extraction[]> {
    return this.pool.run(texts.map((t) => (t.length > this.maxChars ? t.slice(0, this.maxChars) : t)));
  }

  stats(): WorkerPoolStats {
    return this.pool.stats();
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
