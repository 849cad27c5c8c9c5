// Chooses the embedder from configuration.
import type { Config } from '../../config.js';
import type { Embedder } from './types.js';
import { UseLiteEmbedder } from './use-lite.js';
import { OpenAIEmbedder } from './openai.js';

export type EmbedderConfig = Pick<Config, 'embedder' | 'embeddings' | 'embedWorkers' | 'embedQueryWorkers' | 'modelWorkerNice'>;

export function createEmbedder(cfg: EmbedderConfig): Embedder {
  if (cfg.embedder === 'openai') {
    const { url, model, key, dim, timeoutMs } = cfg.embeddings;
    if (!url) throw new Error('LOCI_EMBEDDER=openai needs LOCI_EMBEDDINGS_URL');
    if (!model) throw new Error('LOCI_EMBEDDER=openai needs LOCI_EMBEDDINGS_MODEL');
    return new OpenAIEmbedder({ url, model, key, dim, timeoutMs });
  }
  return new UseLiteEmbedder({ workers: cfg.embedWorkers, queryWorkers: cfg.embedQueryWorkers, nice: cfg.modelWorkerNice });
}

export type { Embedder } from './types.js';
export { UseLiteEmbedder, type UseLiteOptions } from './use-lite.js';
export { OpenAIEmbedder, EmbeddingApiError, embeddingsEndpoint, type OpenAIEmbedderOptions } from './openai.js';
export { CachedEmbedder, type CachedEmbedderOptions } from './query-cache.js';
export { WorkerCrashError } from './pool.js';
