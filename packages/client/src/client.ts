// The Loci client: `request()` reaches every endpoint of the OpenAPI document with its types;
// the named methods below wrap each endpoint, fill tenant_id (and the writing agent) from the
// client's defaults, and add what the raw endpoints leave to the caller: pagination and bulk chunking.
import { randomUUID } from 'node:crypto';
import { attemptId, BULK_CHUNK, BULK_ITEM_RETRIES, chunk, retryableItem } from './bulk.js';
import { send, type RetryInfo, type TransportOptions } from './http.js';
import { items, pages, type CursorPage } from './pages.js';
import { DEFAULT_RETRY, retryDelayMs, type RetryPolicy } from './retry.js';
import type {
  BodyOf, CallOptions, HttpMethod, Operation, Paths, PathsWith, QueryOf, RequestOptions, ResponseOf,
} from './types.js';

export interface ClientOptions {
  /** Server base URL (default: LOCI_URL, else http://127.0.0.1:8080). */
  baseUrl?: string;
  /** API key sent as X-API-Key (default: LOCI_API_KEY). */
  apiKey?: string;
  /** Tenant filled into calls that leave tenant_id out (default: the key's tenant, from /whoami). */
  tenantId?: string;
  /** Writing agent filled into writes that leave agent_id out, and viewer of reads (default: the key's agent, else "default"). */
  agentId?: string;
  retry?: Partial<RetryPolicy>;
  onRetry?: (info: RetryInfo) => void;
  fetch?: typeof fetch;
}

type Op<P extends keyof Paths, M extends HttpMethod> = Operation<P, M>;
type Body<P extends keyof Paths, M extends HttpMethod> = BodyOf<Op<P, M>>;
type Query<P extends keyof Paths, M extends HttpMethod> = QueryOf<Op<P, M>>;
type Res<P extends keyof Paths, M extends HttpMethod> = ResponseOf<Op<P, M>>;
/** tenant_id (and agent_id) become optional: the client fills them. */
type T<X> = Omit<X, 'tenant_id'> & { tenant_id?: string };
type TA<X> = Omit<X, 'tenant_id' | 'agent_id'> & { tenant_id?: string; agent_id?: string };

export type MemoryInput = Body<'/api/v1/memories/bulk', 'post'>['items'][number];
export type ListQuery = Query<'/api/v1/memories', 'get'>;
export type BulkResult = Res<'/api/v1/memories/bulk', 'post'>;
export type BulkItemResult = BulkResult['results'][number];

export interface WriteManyOptions extends RequestOptions {
  tenant_id?: string;
  agent_id?: string;
  fleet_id?: string | null;
  /** Attempt ids are "<prefix>-<chunk>": the same prefix on a rerun makes the server skip what landed (default: random). */
  attemptPrefix?: string;
  /** Items per request, at most 100. */
  chunkSize?: number;
  /** Chunks already stored by an earlier run (resuming from a checkpoint): skipped. */
  skipChunks?: number;
  /** After each chunk: items done so far, total, and that chunk's answer. */
  onChunk?: (done: number, total: number, result: BulkResult, chunkIndex: number) => void | Promise<void>;
}

export interface WriteManyResult {
  created: number;
  duplicates: number;
  errors: number;
  /** One per input item, index = position in the input. */
  results: BulkItemResult[];
}

/** POSTs the server honours Idempotency-Key on, or that change nothing: a lost answer may be asked again. */
const REPEATABLE_POSTS = new Set([
  '/api/v1/memories', '/api/v1/memories/bulk', '/api/v1/ingest/commit', '/api/v1/ingest/preview', '/api/v1/ingest/file',
  '/api/v1/search', '/api/v1/recall', '/api/v1/documents', '/api/v1/documents/query', '/api/v1/documents/search',
  '/api/v1/skills/installable',
]);

const fillPath = (path: string, params: Record<string, unknown> | undefined) =>
  path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const v = params?.[name];
    if (v === undefined || v === null) throw new TypeError(`path parameter ${name} is required for ${path}`);
    return encodeURIComponent(String(v));
  });

export class LociClient {
  private readonly t: TransportOptions;
  private identity: Promise<{ tenant_id: string | null; agent_id: string | null }> | null = null;

  constructor(private readonly options: ClientOptions = {}) {
    const baseUrl = (options.baseUrl ?? process.env.LOCI_URL ?? 'http://127.0.0.1:8080').replace(/\/+$/, '');
    this.t = {
      baseUrl,
      apiKey: options.apiKey ?? process.env.LOCI_API_KEY ?? undefined,
      retry: { ...DEFAULT_RETRY, ...options.retry },
      fetch: options.fetch ?? globalThis.fetch,
      userAgent: '@loci/client',
      onRetry: options.onRetry,
    };
  }

  get baseUrl(): string {
    return this.t.baseUrl;
  }

  /**
   * Any endpoint, typed from the OpenAPI document. Writes carry an Idempotency-Key (one per call,
   * kept across its retries); 429 and 503 are retried with backoff honouring Retry-After.
   */
  async request<M extends HttpMethod, P extends PathsWith<M>>(method: M, path: P, opts?: CallOptions<P, M>): Promise<Res<P, M>> {
    const o = (opts ?? {}) as RequestOptions & { path?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown };
    const headers = { ...o.headers };
    const write = method !== 'get';
    if (write && !Object.keys(headers).some((h) => h.toLowerCase() === 'idempotency-key')) headers['idempotency-key'] = randomUUID();
    const safe = o.safe ?? (method === 'get' || method === 'put' || method === 'delete' || method === 'patch' || REPEATABLE_POSTS.has(path));
    const answer = await send<Res<P, M>>(this.t, {
      method, path: fillPath(path, o.path), query: o.query, body: o.body, headers, signal: o.signal, maxRetries: o.maxRetries, safe,
    });
    return answer.data;
  }

  // ---- defaults --------------------------------------------------------------------------------

  private whoamiOnce() {
    this.identity ??= this.request('get', '/api/v1/whoami').then((w) => ({ tenant_id: w.tenant_id, agent_id: w.agent_id }));
    return this.identity;
  }

  /** The tenant calls default to. */
  async tenant(): Promise<string> {
    return this.options.tenantId ?? (await this.whoamiOnce()).tenant_id ?? 'default';
  }

  /** The agent writes default to. */
  async agent(): Promise<string> {
    return this.options.agentId ?? (await this.whoamiOnce()).agent_id ?? 'default';
  }

  private async withTenant<X extends object>(x: X | undefined): Promise<X & { tenant_id: string }> {
    const v = { ...(x ?? {}) } as X & { tenant_id?: string };
    v.tenant_id ??= await this.tenant();
    return v as X & { tenant_id: string };
  }

  private async withViewer<X extends object>(x: X | undefined): Promise<X & { tenant_id: string }> {
    const v = (await this.withTenant(x)) as X & { tenant_id: string; agent_id?: string };
    if (this.options.agentId) v.agent_id ??= this.options.agentId;
    return v;
  }

  private async withWriter<X extends object>(x: X | undefined): Promise<X & { tenant_id: string; agent_id: string }> {
    const v = (await this.withTenant(x)) as X & { tenant_id: string; agent_id?: string };
    v.agent_id ??= await this.agent();
    return v as X & { tenant_id: string; agent_id: string };
  }

  // ---- system ----------------------------------------------------------------------------------

  readonly system = {
    version: (o?: RequestOptions) => this.request('get', '/api/v1/version', o),
    whoami: (o?: RequestOptions) => this.request('get', '/api/v1/whoami', o),
    toolDescriptions: (query?: Query<'/api/v1/tool-descriptions', 'get'>, o?: RequestOptions) =>
      this.request('get', '/api/v1/tool-descriptions', { ...o, query } as never) as Promise<Res<'/api/v1/tool-descriptions', 'get'>>,
    health: (o?: RequestOptions) => this.request('get', '/api/v1/health', o),
    status: (o?: RequestOptions) => this.request('get', '/api/v1/status', o),
    stats: (o?: RequestOptions) => this.request('get', '/api/v1/stats', o),
    /** The identity a key resolves to (the key in the body; 401 when it does not resolve). */
    verifyKey: (key: string, o?: RequestOptions) => this.request('post', '/api/v1/auth/verify', { ...o, body: { key } }),
    /** Writes per day and search latency of a tenant (the dashboard's Stats page). */
    activity: async (query?: T<Query<'/api/v1/activity', 'get'>>, o?: RequestOptions) =>
      this.request('get', '/api/v1/activity', { ...o, query: await this.withTenant(query) } as never) as Promise<Res<'/api/v1/activity', 'get'>>,
  };

  // ---- memories --------------------------------------------------------------------------------

  readonly memories = {
    create: async (body: TA<Body<'/api/v1/memories', 'post'>>, o?: RequestOptions) =>
      this.request('post', '/api/v1/memories', { ...o, body: await this.withWriter(body) }),
    get: async (memory_id: string, query?: T<Query<'/api/v1/memories/{memory_id}', 'get'>>, o?: RequestOptions) =>
      this.request('get', '/api/v1/memories/{memory_id}', { ...o, path: { memory_id }, query: await this.withViewer(query) } as never) as
        Promise<Res<'/api/v1/memories/{memory_id}', 'get'>>,
    update: async (memory_id: string, body: Body<'/api/v1/memories/{memory_id}', 'patch'>,
      query?: T<Query<'/api/v1/memories/{memory_id}', 'patch'>>, o?: RequestOptions) =>
      this.request('patch', '/api/v1/memories/{memory_id}', { ...o, path: { memory_id }, query: await this.withViewer(query), body }),
    delete: async (memory_id: string, query?: T<Query<'/api/v1/memories/{memory_id}', 'delete'>>, o?: RequestOptions) =>
      this.request('delete', '/api/v1/memories/{memory_id}', { ...o, path: { memory_id }, query: await this.withViewer(query) }),
    setStatus: async (memory_id: string, status: Body<'/api/v1/memories/{memory_id}/status', 'patch'>['status'],
      query?: T<Query<'/api/v1/memories/{memory_id}/status', 'patch'>>, o?: RequestOptions) =>
      this.request('patch', '/api/v1/memories/{memory_id}/status', { ...o, path: { memory_id }, query: await this.withViewer(query), body: { status } }),
    contradictions: async (memory_id: string, query?: T<Query<'/api/v1/memories/{memory_id}/contradictions', 'get'>>, o?: RequestOptions) =>
      this.request('get', '/api/v1/memories/{memory_id}/contradictions', { ...o, path: { memory_id }, query: await this.withViewer(query) }),
    /** One page. */
    list: async (query?: Partial<ListQuery>, o?: RequestOptions) =>
      this.request('get', '/api/v1/memories', { ...o, query: await this.withViewer(query) as ListQuery }),
    /** Every page, newest first, following next_cursor. */
    pages: (query?: Omit<Partial<ListQuery>, 'cursor' | 'sort' | 'order' | 'offset'>, o?: RequestOptions) =>
      pages((cursor) => this.memories.list({ ...query, cursor, sort: 'created_at', order: 'desc' }, o) as Promise<CursorPage<Memory>>),
    /** Every memory matching the query, newest first. */
    all: (query?: Omit<Partial<ListQuery>, 'cursor' | 'sort' | 'order' | 'offset'>, o?: RequestOptions) =>
      items((cursor) => this.memories.list({ ...query, cursor, sort: 'created_at', order: 'desc' }, o) as Promise<CursorPage<Memory>>),
    deleteWhere: async (query?: T<Query<'/api/v1/memories', 'delete'>>, body?: Body<'/api/v1/memories', 'delete'>, o?: RequestOptions) =>
      this.request('delete', '/api/v1/memories', { ...o, query: await this.withTenant(query), body } as never) as Promise<Res<'/api/v1/memories', 'delete'>>,
    stats: async (query?: Partial<Query<'/api/v1/memories/stats', 'get'>>, o?: RequestOptions) =>
      this.request('get', '/api/v1/memories/stats', { ...o, query: await this.withViewer(query) as Query<'/api/v1/memories/stats', 'get'> }),
    count: async (query?: Query<'/api/v1/memories/count', 'get'>, o?: RequestOptions) =>
      this.request('get', '/api/v1/memories/count', { ...o, query: await this.withViewer(query) }),
    bulkDelete: async (body: T<Body<'/api/v1/memories/bulk-delete', 'post'>>, o?: RequestOptions) =>
      this.request('post', '/api/v1/memories/bulk-delete', { ...o, body: await this.withTenant(body) }),
    /** One batch of at most 100 under an attempt id; see writeMany for any number. */
    bulk: async (attempt: string, body: TA<Body<'/api/v1/memories/bulk', 'post'>>, o?: RequestOptions) =>
      this.request('post', '/api/v1/memories/bulk', {
        ...o, body: await this.withWriter(body),
        // The attempt id names the batch for the server's dedup; the idempotency key replays its answer.
        headers: { 'x-bulk-attempt-id': attempt, 'idempotency-key': `bulk:${attempt}`, ...o?.headers },
      } as never) as Promise<BulkResult>,
    writeMany: (input: readonly MemoryInput[], opts?: WriteManyOptions) => this.writeMany(input, opts),
    redistribute: async (query: TA<Query<'/api/v1/memories/redistribute', 'post'>>, body: Body<'/api/v1/memories/redistribute', 'post'>, o?: RequestOptions) =>
      this.request('post', '/api/v1/memories/redistribute', { ...o, query: await this.withWriter(query), body }),
  };

  /** Chunks to 100 under stable attempt ids; each chunk is retried until it lands or retries run out. */
  private async writeMany(input: readonly MemoryInput[], opts: WriteManyOptions = {}): Promise<WriteManyResult> {
    const { tenant_id, agent_id, fleet_id, attemptPrefix = randomUUID(), chunkSize = BULK_CHUNK, skipChunks = 0, onChunk, ...o } = opts;
    const envelope = await this.withWriter({ tenant_id, agent_id, ...(fleet_id !== undefined ? { fleet_id } : {}) });
    const chunks = chunk(input, chunkSize);
    const out: WriteManyResult = { created: 0, duplicates: 0, errors: 0, results: [] };
    for (let n = skipChunks; n < chunks.length; n++) {
      const offset = n * chunkSize;
      const r = await this.bulkChunk(attemptId(attemptPrefix, n), { ...envelope, items: chunks[n] }, o);
      out.created += r.created;
      out.duplicates += r.duplicates;
      out.errors += r.errors;
      for (const item of r.results) out.results[offset + item.index] = { ...item, index: offset + item.index };
      await onChunk?.(Math.min(offset + chunks[n].length, input.length), input.length, r, n);
    }
    return out;
  }

  /**
   * One chunk, re-sent under the same attempt id while items fail with a retryable per-item code
   * (enrichment_timeout: the server was busy). The server stores each item once across tries; the
   * first answer of an item that did not fail stands, so counts are not doubled.
   */
  private async bulkChunk(attempt: string, body: object, o: RequestOptions): Promise<BulkResult> {
    let r = await this.memories.bulk(attempt, body as never, o);
    for (let tryNo = 1; tryNo <= BULK_ITEM_RETRIES && r.results.some(retryableItem); tryNo++) {
      await new Promise((done) => setTimeout(done, retryDelayMs(tryNo, null, { ...DEFAULT_RETRY, baseDelayMs: 1_000 })));
      // A new idempotency key: the old one would replay the answer with the failures.
      const again = await this.memories.bulk(attempt, body as never, { ...o, headers: { ...o.headers, 'idempotency-key': `bulk:${attempt}:${tryNo}` } });
      const byIndex = new Map(again.results.map((x) => [x.index, x]));
      const results = r.results.map((x) => (retryableItem(x) ? byIndex.get(x.index) ?? x : x));
      const count = (...st: string[]) => results.filter((x) => st.includes(x.status)).length;
      r = { ...r, results, created: count('created'), duplicates: count('duplicate_attempt', 'duplicate_content'), errors: count('error') };
    }
    return r;
  }

  // ---- search ----------------------------------------------------------------------------------

  search = async (body: T<Body<'/api/v1/search', 'post'>>, o?: RequestOptions) =>
    this.request('post', '/api/v1/search', { ...o, body: await this.withViewer(body) });

  recall = async (body: T<Body<'/api/v1/recall', 'post'>>, o?: RequestOptions) =>
    this.request('post', '/api/v1/recall', { ...o, body: await this.withViewer(body) });

  // ---- tenants and fleets ----------------------------------------------------------------------

  readonly tenants = {
    list: (o?: RequestOptions) => this.request('get', '/api/v1/tenants', o),
    fleets: async (query?: Query<'/api/v1/fleets', 'get'>, o?: RequestOptions) =>
      this.request('get', '/api/v1/fleets', { ...o, query: await this.withViewer(query) }),
  };

  // ---- documents -------------------------------------------------------------------------------

  readonly documents = {
    upsert: async (body: T<Body<'/api/v1/documents', 'post'>>, o?: RequestOptions) =>
      this.request('post', '/api/v1/documents', { ...o, body: await this.withTenant(body) }),
    query: async (body: T<Body<'/api/v1/documents/query', 'post'>>, o?: RequestOptions) =>
      this.request('post', '/api/v1/documents/query', { ...o, body: await this.withTenant(body) }),
    search: async (body: T<Body<'/api/v1/documents/search', 'post'>>, o?: RequestOptions) =>
      this.request('post', '/api/v1/documents/search', { ...o, body: await this.withTenant(body) }),
    collections: async (query?: T<Query<'/api/v1/documents/collections', 'get'>>, o?: RequestOptions) =>
      this.request('get', '/api/v1/documents/collections', { ...o, query: await this.withTenant(query) }),
    get: async (collection: string, doc_id: string, query?: T<Query<'/api/v1/documents/{collection}/{doc_id}', 'get'>>, o?: RequestOptions) =>
      this.request('get', '/api/v1/documents/{collection}/{doc_id}', { ...o, path: { collection, doc_id }, query: await this.withTenant(query) }),
    delete: async (collection: string, doc_id: string, query?: T<Query<'/api/v1/documents/{collection}/{doc_id}', 'delete'>>, o?: RequestOptions) =>
      this.request('delete', '/api/v1/documents/{collection}/{doc_id}', { ...o, path: { collection, doc_id }, query: await this.withTenant(query) }),
  };

  // ---- knowledge graph -------------------------------------------------------------------------

  readonly entities = {
    list: async (query?: Partial<Query<'/api/v1/entities', 'get'>>, o?: RequestOptions) =>
      this.request('get', '/api/v1/entities', { ...o, query: await this.withViewer(query) as Query<'/api/v1/entities', 'get'> }),
    get: async (entity_id: string, query?: Query<'/api/v1/entities/{entity_id}', 'get'>, o?: RequestOptions) =>
      this.request('get', '/api/v1/entities/{entity_id}', { ...o, path: { entity_id }, query: await this.withViewer(query) }),
  };

  graph = async (query?: Partial<Query<'/api/v1/graph', 'get'>>, o?: RequestOptions) =>
    this.request('get', '/api/v1/graph', { ...o, query: await this.withViewer(query) as Query<'/api/v1/graph', 'get'> });

  // ---- ingest ----------------------------------------------------------------------------------

  readonly ingest = {
    /** Facts a URL or a text would give; writes nothing. */
    preview: async (body: T<Body<'/api/v1/ingest/preview', 'post'>>, o?: RequestOptions) =>
      this.request('post', '/api/v1/ingest/preview', { ...o, body: await this.withTenant(body) }),
    /** Facts a file would give; writes nothing. The content type picks the reader. */
    file: async (file: Blob, filename: string, fields: Record<string, string | number | boolean> = {}, o?: RequestOptions) => {
      const form = new FormData();
      form.set('tenant_id', (fields.tenant_id as string | undefined) ?? await this.tenant());
      for (const [k, v] of Object.entries(fields)) if (k !== 'tenant_id') form.set(k, String(v));
      form.set('file', file, filename);
      return this.request('post', '/api/v1/ingest/file', { ...o, body: form } as never) as Promise<Res<'/api/v1/ingest/file', 'post'>>;
    },
    commit: async (body: TA<Body<'/api/v1/ingest/commit', 'post'>>, o?: RequestOptions) =>
      this.request('post', '/api/v1/ingest/commit', { ...o, body: await this.withWriter(body) }),
    undo: async (run_id: string, query?: T<Query<'/api/v1/ingest/undo/{run_id}', 'post'>>, o?: RequestOptions) =>
      this.request('post', '/api/v1/ingest/undo/{run_id}', { ...o, path: { run_id }, query: await this.withTenant(query) }),
  };

  // ---- skills and settings ---------------------------------------------------------------------

  readonly skills = {
    inbox: async (query?: Partial<Query<'/api/v1/skills-inbox', 'get'>>, o?: RequestOptions) =>
      this.request('get', '/api/v1/skills-inbox', { ...o, query: await this.withTenant(query) as Query<'/api/v1/skills-inbox', 'get'> }),
    approve: async (slug: string, o?: RequestOptions) =>
      this.request('post', '/api/v1/skills-inbox/{slug}/approve', { ...o, path: { slug }, query: await this.withTenant({}) }),
    defer: async (slug: string, o?: RequestOptions) =>
      this.request('post', '/api/v1/skills-inbox/{slug}/defer', { ...o, path: { slug }, query: await this.withTenant({}) }),
    quarantine: async (slug: string, reason: string, o?: RequestOptions) =>
      this.request('post', '/api/v1/skills-inbox/{slug}/quarantine', { ...o, path: { slug }, query: await this.withTenant({}), body: { reason } }),
    reject: async (slug: string, reason: string, o?: RequestOptions) =>
      this.request('post', '/api/v1/skills-inbox/{slug}/reject', { ...o, path: { slug }, query: await this.withTenant({}), body: { reason } }),
    edit: async (slug: string, body: Body<'/api/v1/skills-inbox/{slug}/edit', 'post'>, o?: RequestOptions) =>
      this.request('post', '/api/v1/skills-inbox/{slug}/edit', { ...o, path: { slug }, query: await this.withTenant({}), body }),
    installable: (body: Body<'/api/v1/skills/installable', 'post'>, o?: RequestOptions) =>
      this.request('post', '/api/v1/skills/installable', { ...o, body }),
  };

  readonly settings = {
    get: async (o?: RequestOptions) => this.request('get', '/api/v1/org/settings', { ...o, query: await this.withTenant({}) }),
    update: async (body: Body<'/api/v1/org/settings', 'patch'>, o?: RequestOptions) =>
      this.request('patch', '/api/v1/org/settings', { ...o, query: await this.withTenant({}), body }),
  };

  // ---- keystones -------------------------------------------------------------------------------

  readonly keystones = {
    list: async (query?: Query<'/api/v1/loci/keystones', 'get'>, o?: RequestOptions) =>
      this.request('get', '/api/v1/loci/keystones', { ...o, query: await this.withViewer(query) }),
    create: async (body: T<Body<'/api/v1/loci/keystones', 'post'>>, o?: RequestOptions) =>
      this.request('post', '/api/v1/loci/keystones', { ...o, body: await this.withTenant(body) } as never) as Promise<Res<'/api/v1/loci/keystones', 'post'>>,
    delete: async (doc_id: string, o?: RequestOptions) =>
      this.request('delete', '/api/v1/loci/keystones/{doc_id}', { ...o, path: { doc_id }, query: await this.withTenant({}) }),
  };

  // ---- administration (trust 3) ----------------------------------------------------------------

  readonly admin = {
    createKey: (body: Body<'/api/v1/admin/keys', 'post'>, o?: RequestOptions) =>
      this.request('post', '/api/v1/admin/keys', { ...o, body }),
    listKeys: (query?: Query<'/api/v1/admin/keys', 'get'>, o?: RequestOptions) =>
      this.request('get', '/api/v1/admin/keys', { ...o, query }),
    revokeKey: (id: string, o?: RequestOptions) => this.request('delete', '/api/v1/admin/keys/{id}', { ...o, path: { id } }),
    tenants: (o?: RequestOptions) => this.request('get', '/api/v1/admin/tenants', o),
    fleets: (query?: Query<'/api/v1/admin/fleets', 'get'>, o?: RequestOptions) => this.request('get', '/api/v1/admin/fleets', { ...o, query }),
    memories: (query?: Partial<Query<'/api/v1/admin/memories', 'get'>>, o?: RequestOptions) =>
      this.request('get', '/api/v1/admin/memories', { ...o, query: query as Query<'/api/v1/admin/memories', 'get'> }),
    /** Every memory across tenants (or of one), newest first. */
    allMemories: (query?: Omit<Partial<Query<'/api/v1/admin/memories', 'get'>>, 'cursor' | 'sort' | 'order' | 'offset'>, o?: RequestOptions) =>
      items((cursor) => this.admin.memories({ ...query, cursor, sort: 'created_at', order: 'desc' }, o) as Promise<CursorPage<Memory>>),
    memoryStats: (query?: Partial<Query<'/api/v1/admin/memories/stats', 'get'>>, o?: RequestOptions) =>
      this.request('get', '/api/v1/admin/memories/stats', { ...o, query: query as Query<'/api/v1/admin/memories/stats', 'get'> }),
    auditEvents: (query?: Partial<Query<'/api/v1/admin/audit-events', 'get'>>, o?: RequestOptions) =>
      this.request('get', '/api/v1/admin/audit-events', { ...o, query: query as Query<'/api/v1/admin/audit-events', 'get'> }),
    /** Every audit event, following next_cursor. */
    allAuditEvents: (query?: Omit<Partial<Query<'/api/v1/admin/audit-events', 'get'>>, 'cursor'>, o?: RequestOptions) =>
      items((cursor) => this.admin.auditEvents({ ...query, cursor }, o) as Promise<CursorPage<AuditEvent>>),
    forgeDistill: (o?: RequestOptions) => this.request('post', '/api/v1/admin/lifecycle/fanout/forge-distill', o),
  };
}

type Memory = import('./types.js').Memory;
type AuditEvent = import('./types.js').Schemas['AuditEvent'];
