// Composes the running service from the configuration: storage, providers, infra and
// the core services. Everything is passed explicitly; nothing lives in module state.
import { mkdirSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import pino, { type Logger } from 'pino';
import type { Config } from './config.js';
import { KeyService } from './core/keys.js';
import { MemoryService, MEMORY_WRITTEN } from './core/memories/service.js';
import { ContradictionDetector } from './core/contradictions/detector.js';
import { DetectionBacklog } from './core/contradictions/backlog.js';
import { inBackground } from './infra/priority.js';
import { ContradictionFindingsService } from './core/contradictions/findings.js';
import { DocumentService } from './core/documents/service.js';
import { AuditLog } from './core/audit.js';
import { GraphService } from './core/graph/service.js';
import { IngestService } from './core/ingest/service.js';
import { Enricher } from './core/enrich/enricher.js';
import { SearchService } from './core/search/service.js';
import { PassageIndexer } from './core/passages/indexer.js';
import { createSkills, type SkillsServices } from './core/skills/services.js';
import { KeystoneService } from './core/keystones.js';
import type { Db } from './store/db.js';
import { PgDb } from './store/pg.js';
import { PgliteDb } from './store/pglite.js';
import { migrate } from './store/migrate.js';
import type { Embedder } from './providers/embedder/types.js';
import { CachedEmbedder, createEmbedder } from './providers/embedder/index.js';
import type { EntityExtractor } from './providers/entities/types.js';
import { createEntityExtractor } from './providers/entities/index.js';
import { createLlm, type LlmClient } from './providers/llm/index.js';
import type { Cache } from './infra/cache/types.js';
import { createCache } from './infra/cache/index.js';
import type { EventBus } from './infra/bus/types.js';
import { createBus } from './infra/bus/index.js';
import { checkEmbedderMatches, storedEmbeddingDim } from './store/meta.js';
import { claimDataDir } from './store/dir-lock.js';
import { scheduleMaintenance } from './store/maintenance.js';
import { Gate } from './infra/gate.js';

export interface Services {
  config: Config;
  log: Logger;
  db: Db;
  keys: KeyService;
  memories: MemoryService;
  documents: DocumentService;
  /** Runs after each memory write, from the bus. */
  detector: ContradictionDetector;
  /** Detections not yet finished: bound, depth and lag. */
  backlog: DetectionBacklog;
  contradictions: ContradictionFindingsService;
  audit: AuditLog;
  graph: GraphService;
  ingest: IngestService;
  search: SearchService;
  /** Writes the passages and in-context units of stored memories, after each write. */
  passages: PassageIndexer;
  /** Skills workflow: settings, catalog, inbox, Forge. */
  skills: SkillsServices;
  keystones: KeystoneService;
  embedder: Embedder;
  /** The embedder behind an LRU of query texts: what search paths embed queries with. */
  queryEmbedder: CachedEmbedder;
  entities: EntityExtractor;
  /** The configured chat model; null when none is (extractive fallbacks). */
  llm: LlmClient | null;
  cache: Cache;
  bus: EventBus;
  /** Symbolic tags of non-critical providers that failed to start (never raw messages). */
  initErrors: string[];
  startedAt: Date;
  close(): Promise<void>;
}

export function openDb(config: Config, log?: Logger): Db {
  if (config.databaseUrl) return new PgDb(config.databaseUrl, config.databasePoolMax, config.dbStatementTimeoutMs);
  mkdirSync(config.dataDir, { recursive: true });
  const release = claimDataDir(config.dataDir);
  const db = new PgliteDb(`${config.dataDir}/pg`, undefined, {
    statementTimeoutMs: config.dbStatementTimeoutMs,
    onRestart: (reason) => log?.error({ reason }, 'embedded database restarted by its watchdog'),
  });
  const close = db.close.bind(db);
  db.close = async () => {
    await close();
    release();
  };
  return db;
}

export interface ServiceOverrides {
  db?: Db;
  embedder?: Embedder;
  llm?: LlmClient | null;
  log?: Logger;
  /** The time the skills workflow runs at (cool-offs, freshness); default the wall clock. */
  clock?: () => Date;
}

export async function createServices(config: Config, overrides: ServiceOverrides = {}): Promise<Services> {
  const log = overrides.log ?? pino({ level: config.logLevel });
  const db = overrides.db ?? openDb(config, log);
  const embedder = overrides.embedder ?? createEmbedder(config);
  const initErrors: string[] = [];
  // The extractor's worker loads beside the embedder's: loaded on the first write instead, it kept
  // that write waiting about a second. Without it writes go on without entities (each extract()
  // fails alone), so its failure degrades the service rather than stopping it.
  const entities = createEntityExtractor({ nice: config.modelWorkerNice });
  const entitiesReady = entities.init().catch((err) => {
    log.warn({ err }, 'entity extractor failed to start');
    initErrors.push('entity_extractor');
  });
  try {
    await embedder.init();
  } finally {
    await entitiesReady;
  }
  await migrate(db, { embeddingDim: (await storedEmbeddingDim(db)) ?? embedder.dim });
  await checkEmbedderMatches(db, embedder);
  const cache = createCache({ redisUrl: config.redisUrl, keyPrefix: config.cachePrefix });
  const bus = createBus({
    natsUrl: config.natsUrl, stream: config.natsStream, ...config.bus,
    // The detector gathers the events handed to it at once into one batch (one set of queries
    // for a bulk write): a bulk's events are delivered together, the backlog bounds how many.
    concurrency: 128,
    onError: (tag, err) => log.warn({ err, tag }, 'event bus problem'),
  });
  await bus.start();
  const llm = overrides.llm !== undefined ? overrides.llm : createLlm(config);
  const keys = new KeyService(db);
  const enricher = new Enricher({ mode: config.enrich.mode, llm, llmTimeoutMs: config.enrich.llmTimeoutMs, log: log.child({ component: 'enrich' }) });
  // Depth is known here only when this process both publishes and handles the events.
  const backlog = new DetectionBacklog(config.detectorMaxBacklog, bus.kind === 'in-process', config.detectorTargetLagMs);
  const memories = new MemoryService({ db, embedder, entities, bus, enricher, backlog, quotaPerTenant: config.quotaPerTenant, log: log.child({ component: 'memories' }) });
  const queryEmbedder = new CachedEmbedder(embedder);
  const documents = new DocumentService({ db, embedder, queryEmbedder, search: config.search });
  const audit = new AuditLog({ db, bus, log: log.child({ component: 'audit' }) });
  const graph = new GraphService({ db, audit });
  const detector = new ContradictionDetector({
    db, cache, llm, log: log.child({ component: 'contradictions' }),
    llmMinSimilarity: config.contradictions.llmMinSimilarity, llmTimeoutMs: config.llm.timeoutMs, judge: config.contradictions.judge,
    neighbours: config.contradictions.neighbours,
    maxBatch: db.singleSession ? 25 : 100,
  });
  const passages = new PassageIndexer({ db, embedder, log: log.child({ component: 'passages' }) });
  // Background work: the embedded database serves foreground requests first.
  bus.subscribe(MEMORY_WRITTEN, (event) => {
    passages.enqueueEvent(event);
    return backlog.track(event, () => inBackground(() => detector.handle(event)));
  });
  const contradictions = new ContradictionFindingsService({ db });
  const ingest = new IngestService({
    memories, documents, llm, log: log.child({ component: 'ingest' }),
    limits: {
      maxBytes: config.ingestMaxBytes, fetchTimeoutMs: config.fetchTimeoutMs, extractTimeoutMs: config.extractTimeoutMs, allowList: config.fetchAllowList,
      // One place per worker, and a short queue: beyond it an upload is a 503, not a pile of threads.
      workers: new Gate(config.extractWorkers, config.extractWorkers * 4),
    },
  });
  const search = new SearchService({
    db, embedder: queryEmbedder, entities, llm, config: config.search, llmTimeoutMs: config.llm.timeoutMs,
    log: log.child({ component: 'search' }),
  });
  const skills = createSkills({
    db, documents, embedder, audit, llm, llmTimeoutMs: config.llm.timeoutMs, clock: overrides.clock, log: log.child({ component: 'skills' }),
  });
  const keystones = new KeystoneService({ db, audit });
  const stopMaintenance = scheduleMaintenance(db, {}, (err) => log.warn({ err }, 'database maintenance failed'));
  const services: Services = {
    config, log, db, keys, memories, documents, detector, backlog, contradictions, audit, graph, embedder, queryEmbedder, entities, llm, cache, bus, initErrors,
    ingest, search, passages, skills, keystones,
    startedAt: new Date(),
    async close() {
      stopMaintenance();
      await search.settled();
      await passages.settled();
      await bus.close().catch(() => undefined);
      await cache.close().catch(() => undefined);
      await embedder.close().catch(() => undefined);
      await entities.close().catch(() => undefined);
      await db.close().catch(() => undefined);
    },
  };
  return services;
}

export const newId = () => randomUUID();
