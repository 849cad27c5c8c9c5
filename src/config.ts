// The one typed configuration, read from the environment once at start.
import { resolve } from 'node:path';
import { searchConfigFromEnv, type SearchConfig } from './core/search/config.js';
import { ENRICH_MODES, type EnrichMode } from './core/enrich/types.js';

export type Mode = 'standalone' | 'multitenant';

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  mode: Mode;
  /** Tenant used by standalone mode. */
  standaloneTenant: string;
  adminKey?: string;
  trustGateway: boolean;
  /** Standalone mode bound to loopback: a request without a key acts as the fixed tenant at trust 1. */
  keylessLoopback: boolean;
  databaseUrl?: string;
  databasePoolMax: number;
  /** Longest one database statement may run; past it the request fails (503) and the database is freed. */
  dbStatementTimeoutMs: number;
  redisUrl?: string;
  /** Prefix of every cache key (isolates deployments sharing one Redis). */
  cachePrefix: string;
  natsUrl?: string;
  natsStream: string;
  /** Event bus delivery: attempts before dead-lettering, first retry delay, NATS ack wait (unset: the bus defaults). */
  bus: { maxDeliver?: number; retryBaseMs?: number; ackWaitMs?: number };
  embedder: 'use-lite' | 'openai';
  embeddings: { url?: string; model?: string; key?: string; dim?: number; timeoutMs: number };
  embedWorkers: number;
  /** Extra embedder workers for search queries only. */
  embedQueryWorkers: number;
  /** Nice value of the model workers serving writes (embedder, entity extractor): requests' threads go first. */
  modelWorkerNice: number;
  llm: { url?: string; model?: string; key?: string; timeoutMs: number };
  /** Write-time enrichment (type, title, tags a client leaves out): who infers, and how long a write waits for the model. */
  enrich: { mode: EnrichMode; llmTimeoutMs: number };
  /**
   * Contradiction detector: pairs at or above llmMinSimilarity go to the LLM judge when one is
   * configured; judge `model` (default) is the learned judge, `rules` the earlier rule judge alone;
   * `neighbours` nearest memories by embedding are compared with each written one.
   */
  contradictions: { llmMinSimilarity: number; judge: 'model' | 'rules'; neighbours: number };
  logLevel: string;
  quotaPerTenant: number;
  rateLimits: { write: number; bulk: number; search: number; other: number };
  bulkBudgetMs: number;
  /** Detections queued or running before writes wait for room (back-pressure). */
  detectorMaxBacklog: number;
  /** Lag the backlog's bound aims at: it shrinks to what detection finishes in this long (0: depth bound only). */
  detectorTargetLagMs: number;
  bulkEnrichTimeoutMs: number;
  ingestMaxBytes: number;
  fetchAllowList: string[];
  fetchTimeoutMs: number;
  extractTimeoutMs: number;
  /** Extraction worker threads running at once across the service (uploads and URL ingest); more wait, a few. */
  extractWorkers: number;
  /** Requests per second and client address without a valid key (open endpoints, 401s). */
  rateUnauthenticated: number;
  /** Search legs and fusion (src/core/search/config.ts), with LOCI_SEARCH_CONFIG laid over the defaults. */
  search: SearchConfig;
}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, dflt: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return dflt;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new Error(`${name} must be an integer ${max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `from ${min} to ${max}`}, got "${raw}"`);
  }
  return n;
}

function fraction(env: Env, name: string, dflt: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return dflt;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0 || n > 1) throw new Error(`${name} must be a number from 0 to 1, got "${raw}"`);
  return n;
}

const optInt = (env: Env, name: string, min: number) => (env[name] ? int(env, name, 0, min) : undefined);

function bool(env: Env, name: string, dflt: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return dflt;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new Error(`${name} must be true or false, got "${raw}"`);
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], dflt: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return dflt;
  if (!(allowed as readonly string[]).includes(raw)) throw new Error(`${name} must be one of ${allowed.join(', ')}, got "${raw}"`);
  return raw as T;
}

function opt(env: Env, name: string): string | undefined {
  const raw = env[name];
  return raw === undefined || raw === '' ? undefined : raw;
}

export function loadConfig(env: Env = process.env): Config {
  const embedder = oneOf(env, 'LOCI_EMBEDDER', ['use-lite', 'openai'] as const, 'use-lite');
  const embeddingsUrl = opt(env, 'LOCI_EMBEDDINGS_URL');
  if (embedder === 'openai' && !embeddingsUrl) throw new Error('LOCI_EMBEDDER=openai needs LOCI_EMBEDDINGS_URL');
  if (opt(env, 'LOCI_LLM_URL') && !opt(env, 'LOCI_LLM_MODEL')) throw new Error('LOCI_LLM_URL needs LOCI_LLM_MODEL');
  return {
    host: env.LOCI_HOST || '127.0.0.1',
    port: int(env, 'LOCI_PORT', 8080),
    dataDir: resolve(env.LOCI_DATA_DIR || './data'),
    mode: oneOf(env, 'LOCI_MODE', ['standalone', 'multitenant'] as const, 'standalone'),
    standaloneTenant: env.LOCI_TENANT || 'default',
    adminKey: opt(env, 'LOCI_ADMIN_KEY'),
    trustGateway: bool(env, 'LOCI_TRUST_GATEWAY', false),
    keylessLoopback: bool(env, 'LOCI_KEYLESS_LOOPBACK', true),
    databaseUrl: opt(env, 'DATABASE_URL'),
    databasePoolMax: int(env, 'LOCI_DATABASE_POOL_MAX', 10, 1),
    dbStatementTimeoutMs: int(env, 'LOCI_DB_STATEMENT_TIMEOUT_MS', 30_000, 100),
    redisUrl: opt(env, 'LOCI_REDIS_URL'),
    cachePrefix: env.LOCI_CACHE_PREFIX || 'loci:',
    natsUrl: opt(env, 'LOCI_NATS_URL'),
    natsStream: env.LOCI_NATS_STREAM || 'LOCI_EVENTS',
    bus: {
      maxDeliver: optInt(env, 'LOCI_BUS_MAX_DELIVER', 1),
      retryBaseMs: optInt(env, 'LOCI_BUS_RETRY_BASE_MS', 1),
      ackWaitMs: optInt(env, 'LOCI_BUS_ACK_WAIT_MS', 100),
    },
    embedder,
    embeddings: {
      url: embeddingsUrl,
      model: opt(env, 'LOCI_EMBEDDINGS_MODEL'),
      key: opt(env, 'LOCI_EMBEDDINGS_KEY'),
      dim: env.LOCI_EMBEDDINGS_DIM ? int(env, 'LOCI_EMBEDDINGS_DIM', 0, 1) : undefined,
      timeoutMs: int(env, 'LOCI_EMBEDDINGS_TIMEOUT_MS', 10_000, 1),
    },
    embedWorkers: int(env, 'LOCI_EMBED_WORKERS', 2, 1),
    embedQueryWorkers: int(env, 'LOCI_EMBED_QUERY_WORKERS', 1, 0),
    modelWorkerNice: int(env, 'LOCI_MODEL_WORKER_NICE', 19, 0, 19),
    llm: {
      url: opt(env, 'LOCI_LLM_URL'),
      model: opt(env, 'LOCI_LLM_MODEL'),
      key: opt(env, 'LOCI_LLM_KEY'),
      timeoutMs: int(env, 'LOCI_LLM_TIMEOUT_MS', 8_000, 1),
    },
    enrich: {
      mode: oneOf(env, 'LOCI_ENRICH', ENRICH_MODES, 'auto'),
      llmTimeoutMs: int(env, 'LOCI_ENRICH_LLM_TIMEOUT_MS', 3_000, 1),
    },
    contradictions: {
      llmMinSimilarity: fraction(env, 'LOCI_CONTRADICTION_LLM_MIN_SIMILARITY', 0.6),
      judge: oneOf(env, 'LOCI_CONTRADICTION_JUDGE', ['model', 'rules'] as const, 'model'),
      neighbours: int(env, 'LOCI_CONTRADICTION_NEIGHBOURS', 10, 1, 100),
    },
    logLevel: env.LOCI_LOG_LEVEL || 'info',
    quotaPerTenant: int(env, 'LOCI_QUOTA_PER_TENANT', 100_000, 1),
    rateLimits: {
      write: int(env, 'LOCI_RATE_WRITE', 10, 1),
      bulk: int(env, 'LOCI_RATE_BULK', 2, 1),
      search: int(env, 'LOCI_RATE_SEARCH', 30, 1),
      other: int(env, 'LOCI_RATE_OTHER', 60, 1),
    },
    bulkBudgetMs: int(env, 'LOCI_BULK_BUDGET_MS', 30_000, 1),
    detectorMaxBacklog: int(env, 'LOCI_DETECTOR_MAX_BACKLOG', 2_000, 1),
    detectorTargetLagMs: int(env, 'LOCI_DETECTOR_TARGET_LAG_MS', 2_000, 0),
    bulkEnrichTimeoutMs: int(env, 'LOCI_BULK_ENRICH_TIMEOUT_MS', 20_000, 1),
    ingestMaxBytes: int(env, 'LOCI_INGEST_MAX_BYTES', 3 * 1024 * 1024, 1),
    fetchAllowList: (env.LOCI_FETCH_ALLOW || '').split(',').map((s) => s.trim()).filter(Boolean),
    fetchTimeoutMs: int(env, 'LOCI_FETCH_TIMEOUT_MS', 15_000, 1),
    extractTimeoutMs: int(env, 'LOCI_EXTRACT_TIMEOUT_MS', 20_000, 1),
    extractWorkers: int(env, 'LOCI_EXTRACT_WORKERS', 2, 1),
    rateUnauthenticated: int(env, 'LOCI_RATE_UNAUTHENTICATED', 20, 1),
    search: searchConfigFromEnv(env.LOCI_SEARCH_CONFIG),
  };
}
