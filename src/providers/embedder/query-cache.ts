// An in-process LRU in front of an embedder, for query texts: agents repeat the same
// searches, and a query embedding is on the request's critical path.
import { LRUCache } from 'lru-cache';
import type { Embedder } from './types.js';

export interface CachedEmbedderOptions {
  /** Entries kept. Default 2000 (≈4 MB at 512-d). */
  size?: number;
  /** Longer texts are embedded but not cached: they are documents, not queries. */
  maxTextLength?: number;
}

export class CachedEmbedder implements Embedder {
  private readonly cache: LRUCache<string, Float32Array>;
  /** Texts being embedded right now, so concurrent identical queries share one call. */
  private readonly inflight = new Map<string, Promise<Float32Array>>();
  private readonly maxTextLength: number;
  private hitCount = 0;
  private missCount = 0;

  constructor(
    private readonly inner: Embedder,
    opts: CachedEmbedderOptions = {},
  ) {
    this.cache = new LRUCache({ max: opts.size ?? 2000 });
    this.maxTextLength = opts.maxTextLength ?? 4096;
  }

  get modelId(): string {
    return this.inner.modelId;
  }

  get dim(): number {
    return this.inner.dim;
  }

  get windowChars(): number | undefined {
    return this.inner.windowChars;
  }

  init(): Promise<void> {
    return this.inner.init();
  }

  /** Returned vectors are copies: a caller mutating one cannot corrupt the cache. */
  async embed(texts: string[]): Promise<Float32Array[]> {
    const out: (Float32Array | Promise<Float32Array>)[] = new Array(texts.length);
    const missing: string[] = [];
    const missingIdx = new Map<string, number>();
    for (let i = 0; i < texts.length; i++) {
      const t = texts[i];
      const hit = this.cache.get(t);
      if (hit) {
        this.hitCount++;
        out[i] = hit;
        continue;
      }
      const pending = this.inflight.get(t);
      if (pending) {
        this.hitCount++;
        out[i] = pending;
        continue;
      }
      this.missCount++;
      if (!missingIdx.has(t)) {
        missingIdx.set(t, missing.length);
        missing.push(t);
      }
    }
    if (missing.length > 0) {
      // A query is waited on: it goes ahead of queued write batches.
      const call = this.inner.embed(missing, { urgent: true });
      const shared = missing.map((t, j) => {
        const p = call.then((vs) => vs[j]);
        if (t.length <= this.maxTextLength) {
          this.inflight.set(t, p);
          p.then(
            (v) => {
              this.cache.set(t, v);
              this.inflight.delete(t);
            },
            () => this.inflight.delete(t),
          );
        }
        return p;
      });
      for (let i = 0; i < texts.length; i++) {
        if (out[i] === undefined) out[i] = shared[missingIdx.get(texts[i])!];
      }
    }
    const vectors = await Promise.all(out);
    return vectors.map((v) => v.slice());
  }

  stats(): { size: number; hits: number; misses: number } {
    return { size: this.cache.size, hits: this.hitCount, misses: this.missCount };
  }

  close(): Promise<void> {
    this.cache.clear();
    return this.inner.close();
  }
}
