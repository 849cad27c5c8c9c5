// The document store: JSON documents in collections per tenant and optional fleet, with
// equality queries over their fields and hybrid (semantic + keyword) search over their text.
// Used by HTTP, the tool surface, ingest (parent documents) and the skills workflow. Every method
// takes the Caller and authorizes inside: the tenant it may act on, trust 1 to change anything,
// and the collections features own (`_…`, skills, ingest-sources), which only the service's own
// system caller writes.
import { randomUUID } from 'node:crypto';
import type { Db } from '../../store/db.js';
import { vectorLiteral } from '../../store/db.js';
import type { Embedder } from '../../providers/embedder/types.js';
import { type Caller, checkReadFleets, confinedFleet, isSystem, requireTrust, resolveTenant, resolveWriteFleet, TRUST } from '../caller.js';
import { DomainError, embedderUnavailable, forbidden, invalid, notFound } from '../errors.js';
import {
  COLLECTION_PATTERN, DOC_ID_PATTERN, DOC_MAX_BYTES, EMBED_MAX_CHARS, FilterConflictError,
  SYSTEM_DOC_MAX_BYTES, documentText, filterToContainment, isPlainObject, isProtectedCollection,
} from './rules.js';
import { Params } from '../memories/params.js';
import { DEFAULT_SEARCH_CONFIG, type BoostConfig, type LegName, type SearchConfig } from '../search/config.js';
import { fuseLegs, type Candidate } from '../search/fusion.js';
import { TermStats } from '../search/keyword-plan.js';
import { analyzeQuery, keywordLeg, vectorLeg, type LegTable } from '../search/legs.js';
import { MAX_JSON_DEPTH as MAX_DEPTH, jsonDepth } from '../json-limits.js';

export interface DocumentRecord {
  tenant_id: string;
  fleet_id: string | null;
  collection: string;
  doc_id: string;
  data: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

export interface DocumentKey {
  /** Default: the caller's tenant. */
  tenant_id?: string;
  /** Absent or null: the tenant-wide document (no fleet). */
  fleet_id?: string | null;
  collection: string;
  doc_id: string;
}

export interface WriteDocumentInput extends DocumentKey {
  data: Record<string, unknown>;
  /** Fields (dotted paths allowed) whose strings are indexed; default every string value. */
  text_fields?: string[];
}

export interface QueryDocumentsInput {
  tenant_id?: string;
  /** Absent: documents of every fleet and the tenant-wide ones. */
  fleet_id?: string | null;
  collection: string;
  filter?: Record<string, unknown>;
  /** A field of `data` (dotted path for nested ones) to sort by; default doc_id. */
  order_by?: string;
  order?: 'asc' | 'desc';
  limit?: number;
  offset?: number;
}

export interface SearchDocumentsInput {
  tenant_id?: string;
  fleet_id?: string | null;
  /** Absent: every collection except the system (`_…`) ones. */
  collection?: string | null;
  query: string;
  top_k?: number;
}

export interface DocumentHit {
  collection: string;
  doc_id: string;
  fleet_id: string | null;
  data: Record<string, unknown>;
  /** Weighted reciprocal-rank-fusion score of the semantic and keyword legs (as in memory search). */
  score: number;
  /** Cosine similarity of the document's embedding to the query (0 when it has none). */
  similarity: number;
}

export interface CollectionSummary {
  collection: string;
  count: number;
  updated_at: string;
}

export const QUERY_LIMIT = { min: 1, max: 500, default: 50 } as const;
export const TOP_K = { min: 1, max: 50, default: 5 } as const;
export const QUERY_MAX_CHARS = 5_000;

export interface DocumentServiceDeps {
  db: Db;
  embedder: Embedder;
  /** Embeds search queries (the cached one in the running service); default: `embedder`. */
  queryEmbedder?: Embedder;
  /** Legs and fusion of hybrid search, as memory search runs them; default: the defaults. */
  search?: SearchConfig;
}

/** Documents carry no weight, and an edit does not make one more relevant: fusion alone ranks them. */
const NO_BOOSTS: BoostConfig = { weight: 0, recency: 0, recencyHalfLifeDays: 0 };

const COLUMNS = 'id, tenant_id, fleet_id, collection, doc_id, data, created_at, updated_at';

const iso = (v: unknown) => (v instanceof Date ? v : new Date(String(v))).toISOString();
const fleetOf = (f: string | null | undefined) => (f == null || f === '' ? null : f);

function toRecord(r: Record<string, any>): DocumentRecord {
  return {
    tenant_id: r.tenant_id,
    fleet_id: r.fleet_id ?? null,
    collection: r.collection,
    doc_id: r.doc_id,
    data: typeof r.data === 'string' ? JSON.parse(r.data) : r.data,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}

function checkCollection(collection: unknown, loc = 'collection'): string {
  if (typeof collection !== 'string' || !COLLECTION_PATTERN.test(collection)) {
    throw invalid(['body', loc], `String should match pattern '${COLLECTION_PATTERN.source}'`, 'string_pattern_mismatch',
      collection ?? null, { pattern: COLLECTION_PATTERN.source });
  }
  return collection;
}

function checkDocId(docId: unknown): string {
  if (typeof docId !== 'string' || !DOC_ID_PATTERN.test(docId)) {
    throw invalid(['body', 'doc_id'], `String should match pattern '${DOC_ID_PATTERN.source}'`, 'string_pattern_mismatch',
      docId ?? null, { pattern: DOC_ID_PATTERN.source });
  }
  return docId;
}

function checkInt(v: number | undefined, loc: string, min: number, max: number, dflt: number): number {
  if (v === undefined || v === null) return dflt;
  if (!Number.isInteger(v)) throw invalid(['body', loc], 'Input should be a valid integer', 'int_type', v);
  if (v < min) throw invalid(['body', loc], `Input should be greater than or equal to ${min}`, 'greater_than_equal', v, { ge: min });
  if (v > max) throw invalid(['body', loc], `Input should be less than or equal to ${max}`, 'less_than_equal', v, { le: max });
  return v;
}

/** `WHERE` clause builder: every query starts from the tenant predicate. */
class Where {
  private parts: string[];
  constructor(tenant: string, private readonly p = new Params()) {
    this.parts = [`tenant_id = ${p.add(tenant)}`];
  }
  get params(): unknown[] {
    return this.p.values;
  }
  add(sqlWithPlaceholder: (p: string) => string, value: unknown): this {
    this.parts.push(sqlWithPlaceholder(this.p.add(value)));
    return this;
  }
  raw(sql: string): this {
    this.parts.push(sql);
    return this;
  }
  conditions(): string[] {
    return [...this.parts];
  }
  toString() {
    return this.parts.join(' AND ');
  }
}

/**
 * How a feature governs its collection on the generic surfaces (HTTP documents, `loci_doc`):
 * writes and deletes by callers other than the system go to the feature, and those callers read
 * only the documents matching `readable` (a fixed SQL predicate over the row's `data`).
 */
export interface CollectionPolicy {
  write(caller: Caller, input: WriteDocumentInput): Promise<DocumentRecord & { created: boolean }>;
  delete(caller: Caller, key: DocumentKey): Promise<void>;
  readable: string;
}

export class DocumentService {
  private readonly db: Db;
  private readonly embedder: Embedder;
  private readonly queryEmbedder: Embedder;
  private readonly policies = new Map<string, CollectionPolicy>();
  private readonly searchConfig: SearchConfig;
  private readonly termStats: TermStats;

  constructor(deps: DocumentServiceDeps) {
    this.db = deps.db;
    this.embedder = deps.embedder;
    this.queryEmbedder = deps.queryEmbedder ?? deps.embedder;
    this.searchConfig = deps.search ?? DEFAULT_SEARCH_CONFIG;
    this.termStats = new TermStats(this.searchConfig.keyword.statsMaxAgeMs, 'documents');
  }

  /** Hands a feature's collection to its policy (at composition, before serving). */
  govern(collection: string, policy: CollectionPolicy): void {
    this.policies.set(collection, policy);
  }

  /** The policy that applies to this caller on this collection (none for the system itself). */
  private policy(caller: Caller, collection: string): CollectionPolicy | undefined {
    return isSystem(caller) ? undefined : this.policies.get(collection);
  }

  /** Restricts a read to what the caller may see of governed collections. */
  private readableOnly(caller: Caller, w: Where, collection: string | null): void {
    if (isSystem(caller)) return;
    for (const [name, p] of this.policies) {
      if (collection === name) w.raw(`(${p.readable})`);
      else if (collection === null) w.add((ph) => `(collection <> ${ph} OR (${p.readable}))`, name);
    }
  }

  /** Tenant of a change: writable by the caller, which must hold trust 1 or more. */
  private writer(caller: Caller, tenant: string | undefined, what: string): string {
    requireTrust(caller, TRUST.standard, what);
    return resolveTenant(caller, tenant, 'write');
  }

  /** Creates or replaces a document (the whole `data`). */
  async write(caller: Caller, input: WriteDocumentInput): Promise<DocumentRecord & { created: boolean }> {
    const governed = this.policy(caller, checkCollection(input.collection));
    if (governed) return governed.write(caller, input);
    const tenant = this.writer(caller, input.tenant_id, 'Writing documents');
    const system = isSystem(caller);
    const collection = checkCollection(input.collection);
    const docId = checkDocId(input.doc_id);
    const fleet = keyFleet(caller, fleetOf(input.fleet_id));
    if (isProtectedCollection(collection) && !system) throw protectedError(collection);
    const data = input.data;
    if (!isPlainObject(data)) throw invalid(['body', 'data'], 'Input should be a valid object', 'dict_type', data ?? null);
    if (jsonDepth(data) > MAX_DEPTH) {
      throw invalid(['body', 'data'], `Documents may nest at most ${MAX_DEPTH} levels deep`, 'value_error', null, { max_depth: MAX_DEPTH });
    }
    const json = JSON.stringify(data);
    // jsonb cannot store NUL characters (in values or keys); refuse them rather than fail in storage.
    if (/(^|[^\\])(\\\\)*\\u0000/.test(json)) {
      throw invalid(['body', 'data'], 'Strings in a document may not contain NUL (\\u0000) characters', 'value_error', null);
    }
    const max = system ? SYSTEM_DOC_MAX_BYTES : DOC_MAX_BYTES;
    const bytes = Buffer.byteLength(json);
    if (bytes > max) {
      throw new DomainError(413, 'Payload Too Large', `The document is ${bytes} bytes as JSON; the limit is ${max} bytes`, { limit: max });
    }
    if (input.text_fields !== undefined) {
      if (!Array.isArray(input.text_fields) || input.text_fields.some((f) => typeof f !== 'string' || f === '')) {
        throw invalid(['body', 'text_fields'], 'Input should be a list of field names', 'list_type', input.text_fields ?? null);
      }
    }
    const text = documentText(data, input.text_fields);

    const where = keyWhere(tenant, fleet, collection, docId);
    const prev = await this.db.query<{ text: string; embedding_model: string | null; has_vec: boolean }>(
      `SELECT text, embedding_model, embedding IS NOT NULL AS has_vec FROM documents WHERE ${where}`, where.params);
    const old = prev.rows[0];
    // Unchanged text (status flips, metadata edits) keeps its vector: no embedding call.
    const reuse = !!old && old.text === text && old.has_vec && old.embedding_model === this.embedder.modelId;
    const vector = text && !reuse ? vectorLiteral(await this.embedText(text)) : null;

    const upsert = await this.db.query(
      `INSERT INTO documents (id, tenant_id, fleet_id, collection, doc_id, data, text, embedding, embedding_model)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8::vector, $9)
       ON CONFLICT (tenant_id, (coalesce(fleet_id, '')), collection, doc_id) DO UPDATE SET
         data = EXCLUDED.data,
         text = EXCLUDED.text,
         updated_at = now(),
         embedding = CASE WHEN $10::boolean AND documents.text = EXCLUDED.text THEN documents.embedding ELSE EXCLUDED.embedding END,
         embedding_model = CASE WHEN $10::boolean AND documents.text = EXCLUDED.text THEN documents.embedding_model ELSE EXCLUDED.embedding_model END
       RETURNING ${COLUMNS}, (xmax = 0) AS created, (embedding IS NULL AND text <> '') AS needs_vector`,
      [randomUUID(), tenant, fleet, collection, docId, json, text, vector, text ? this.embedder.modelId : null, reuse],
    );
    const row = upsert.rows[0];
    if (row.needs_vector) {
      // The stored text changed between the read and the upsert; embed what was written.
      await this.db.query(
        `UPDATE documents SET embedding = $3::vector, embedding_model = $4
         WHERE tenant_id = $1 AND id = $2 AND text = $5`,
        [tenant, row.id, vectorLiteral(await this.embedText(text)), this.embedder.modelId, text],
      );
    }
    return { ...toRecord(row), created: row.created === true };
  }

  /** One document; 404 when there is none. */
  async read(caller: Caller, key: DocumentKey): Promise<DocumentRecord> {
    const tenant = resolveTenant(caller, key.tenant_id, 'read');
    const collection = checkCollection(key.collection);
    const where = keyWhere(tenant, keyFleet(caller, fleetOf(key.fleet_id)), collection, checkDocId(key.doc_id));
    this.readableOnly(caller, where, collection);
    const { rows } = await this.db.query(`SELECT ${COLUMNS} FROM documents WHERE ${where}`, where.params);
    if (!rows[0]) throw notFound('Document');
    return toRecord(rows[0]);
  }

  /** Deletes a document for good; 404 when there was none. */
  async delete(caller: Caller, key: DocumentKey): Promise<void> {
    const governed = this.policy(caller, checkCollection(key.collection));
    if (governed) return governed.delete(caller, key);
    const tenant = this.writer(caller, key.tenant_id, 'Deleting documents');
    const collection = checkCollection(key.collection);
    if (isProtectedCollection(collection) && !isSystem(caller)) throw protectedError(collection);
    const where = keyWhere(tenant, keyFleet(caller, fleetOf(key.fleet_id)), collection, checkDocId(key.doc_id));
    const { rowCount } = await this.db.query(`DELETE FROM documents WHERE ${where}`, where.params);
    if (rowCount === 0) throw notFound('Document');
  }

  /**
   * Documents of a collection whose fields equal the filter's (AND; nested fields by dotted key
   * or nested object; arrays match by containment). Ordered by `order_by` (a field of data), then
   * doc_id; `count` is the total match.
   */
  async query(caller: Caller, input: QueryDocumentsInput): Promise<{ items: DocumentRecord[]; count: number }> {
    const tenant = resolveTenant(caller, input.tenant_id, 'read');
    const collection = checkCollection(input.collection);
    const limit = checkInt(input.limit, 'limit', QUERY_LIMIT.min, QUERY_LIMIT.max, QUERY_LIMIT.default);
    const offset = checkInt(input.offset, 'offset', 0, Number.MAX_SAFE_INTEGER, 0);
    const filter = input.filter ?? {};
    if (!isPlainObject(filter)) throw invalid(['body', 'filter'], 'Input should be a valid object', 'dict_type', filter);
    if (jsonDepth(filter) > MAX_DEPTH) throw invalid(['body', 'filter'], `Filters may nest at most ${MAX_DEPTH} levels deep`, 'value_error', null);
    let containment: Record<string, unknown>;
    try {
      containment = filterToContainment(filter);
    } catch (err) {
      if (err instanceof FilterConflictError) throw invalid(['body', 'filter', err.key], err.message, 'value_error', null);
      throw err;
    }

    const where = fleetCondition(caller, new Where(tenant).add((p) => `collection = ${p}`, collection), fleetOf(input.fleet_id));
    this.readableOnly(caller, where, collection);
    if (Object.keys(containment).length) where.add((p) => `data @> ${p}::jsonb`, JSON.stringify(containment));
    const dir = input.order === 'desc' ? 'DESC' : 'ASC';
    if (input.order !== undefined && input.order !== 'asc' && input.order !== 'desc') {
      throw invalid(['body', 'order'], 'Input should be one of: asc, desc', 'enum', input.order, { expected: ['asc', 'desc'] });
    }
    const params = [...where.params];
    // A field path sorts by its JSON value (numbers as numbers); documents without it come last.
    let order = `doc_id ${dir}, fleet_id NULLS FIRST`;
    if (input.order_by !== undefined) {
      const path = input.order_by.split('.');
      if (!input.order_by || path.some((part) => part === '')) {
        throw invalid(['body', 'order_by'], 'order_by names a field of data (dotted for nested fields)', 'value_error', input.order_by);
      }
      params.push(path);
      order = `data #> $${params.length}::text[] ${dir} NULLS LAST, ${order}`;
    }
    const n = params.length;
    const [items, total] = await Promise.all([
      this.db.query(
        `SELECT ${COLUMNS} FROM documents WHERE ${where}
         ORDER BY ${order} LIMIT $${n + 1} OFFSET $${n + 2}`, [...params, limit, offset]),
      this.db.query<{ count: number }>(`SELECT count(*)::int AS count FROM documents WHERE ${where}`, where.params),
    ]);
    return { items: items.rows.map(toRecord), count: total.rows[0]?.count ?? 0 };
  }

  /**
   * Hybrid search with memory search's legs (search/legs.ts) over the documents table: the
   * vector leg (HNSW, cosine) and the keyword leg (query planned against the term statistics,
   * ranked by idf: documents have no BM25 index), fused by the same weighted reciprocal rank
   * (without memory boosts: documents carry no weight).
   */
  async search(caller: Caller, request: SearchDocumentsInput): Promise<DocumentHit[]> {
    const tenant = resolveTenant(caller, request.tenant_id, 'read');
    // NUL cannot be sent to Postgres as text; it separates words like any other control character.
    const query = typeof request.query === 'string' ? request.query.replaceAll('\u0000', ' ').trim() : '';
    if (!query) throw invalid(['body', 'query'], 'String should have at least 1 character', 'string_too_short', request.query ?? null, { min_length: 1 });
    if (query.length > QUERY_MAX_CHARS) {
      throw invalid(['body', 'query'], `String should have at most ${QUERY_MAX_CHARS} characters`, 'string_too_long', null, { max_length: QUERY_MAX_CHARS });
    }
    const topK = checkInt(request.top_k, 'top_k', TOP_K.min, TOP_K.max, TOP_K.default);
    const collection = request.collection == null || request.collection === '' ? null : checkCollection(request.collection);
    const fleet = fleetOf(request.fleet_id);
    checkReadFleets(caller, [fleet]);

    const table: LegTable = {
      name: 'documents', tenantId: tenant,
      conditions: (p) => {
        const w = fleetCondition(caller, new Where(tenant, p), fleet);
        // Unscoped searches skip system collections: those hold feature internals, not content.
        if (collection) w.add((ph) => `collection = ${ph}`, collection);
        else w.raw(`left(collection, 1) <> '_'`);
        this.readableOnly(caller, w, collection);
        return w.conditions();
      },
      weight: '0.5', createdAt: 'm.updated_at', runId: 'NULL::text', validStart: 'NULL::timestamptz', text: 'm.text', titled: false, bm25Index: null,
    };
    const cfg = this.searchConfig;
    const vectorP = this.queryEmbedder.embed([query]).then(([v]) => v, () => Promise.reject(embedderUnavailable()));
    vectorP.catch(() => undefined); // awaited below; an earlier failure must not leave it unhandled
    const keywordP = cfg.keyword.enabled
      ? Promise.all([analyzeQuery(this.db, tenant, query, null, cfg.entity), this.termStats.get(this.db)])
        .then(([a, freqs]) => keywordLeg(this.db, table, query, a.lexemes ?? [], cfg.keyword, freqs, cfg.keyword.rank))
      : null;
    const keyword = await keywordP;
    const vector = await vectorP;
    const vec = await vectorLeg(this.db, table, vector, (keyword?.candidates ?? []).map((c) => c.id), cfg.vector, cfg.vector.enabled);
    const legs: Partial<Record<LegName, Candidate[]>> = {};
    if (cfg.vector.enabled) legs.vector = vec.ranked;
    if (keyword) legs.keyword = keyword.candidates;
    const top = fuseLegs(legs, cfg.fusion, NO_BOOSTS, new Date()).slice(0, topK);
    if (!top.length) return [];

    const { rows } = await this.db.query(
      `SELECT id, fleet_id, collection, doc_id, data FROM documents WHERE tenant_id = $1 AND id = ANY($2::uuid[])`,
      [tenant, top.map((f) => f.id)],
    );
    const byId = new Map(rows.map((r) => [r.id as string, r]));
    const hits: DocumentHit[] = [];
    for (const f of top) {
      const r = byId.get(f.id);
      if (!r) continue; // deleted between the legs and this read
      hits.push({
        collection: r.collection,
        doc_id: r.doc_id,
        fleet_id: r.fleet_id ?? null,
        data: typeof r.data === 'string' ? JSON.parse(r.data) : r.data,
        score: f.score,
        similarity: vec.similarity.get(f.id) ?? 0,
      });
    }
    return hits;
  }

  /** Collections of a tenant (of one fleet when given) with their document counts. */
  async listCollections(caller: Caller, input: { tenant_id?: string; fleet_id?: string | null }): Promise<CollectionSummary[]> {
    const where = fleetCondition(caller, new Where(resolveTenant(caller, input.tenant_id, 'read')), fleetOf(input.fleet_id));
    this.readableOnly(caller, where, null);
    const { rows } = await this.db.query(
      `SELECT collection, count(*)::int AS count, max(updated_at) AS updated_at
       FROM documents WHERE ${where} GROUP BY collection ORDER BY collection`, where.params);
    return rows.map((r) => ({ collection: r.collection, count: Number(r.count), updated_at: iso(r.updated_at) }));
  }

  /** A failing embedder refuses the write (503), as it does a memory write. */
  private async embedText(text: string): Promise<Float32Array> {
    const [v] = await this.embedder.embed([text.slice(0, EMBED_MAX_CHARS)]).catch(() => Promise.reject(embedderUnavailable()));
    return v;
  }
}

/**
 * The fleet a document key addresses. A fleet-confined key (trust below 2 on a fleet-bound key)
 * addresses its own fleet when it names none, and may name no other (403).
 */
function keyFleet(caller: Caller, fleet: string | null): string | null {
  return confinedFleet(caller) ? resolveWriteFleet(caller, fleet) : fleet;
}

/** A listing's fleet condition: the named fleet; for a confined key, its fleet and the tenant-wide documents. */
function fleetCondition(caller: Caller, where: Where, fleet: string | null): Where {
  checkReadFleets(caller, [fleet]);
  const confined = confinedFleet(caller);
  if (fleet) where.add((p) => `fleet_id = ${p}`, fleet);
  else if (confined) where.add((p) => `(fleet_id = ${p} OR fleet_id IS NULL)`, confined);
  return where;
}

/** The unique key of one document, matching the `documents_key` index. */
function keyWhere(tenant: string, fleet: string | null, collection: string, docId: string): Where {
  return new Where(tenant)
    .add((p) => `coalesce(fleet_id, '') = ${p}`, fleet ?? '')
    .add((p) => `collection = ${p}`, collection)
    .add((p) => `doc_id = ${p}`, docId);
}

function protectedError(collection: string) {
  return forbidden(
    `Collection "${collection}" is managed by its own feature (system collections start with "_"; ` +
      `"skills" and "ingest-sources" belong to the skills workflow and ingest) and cannot be written directly`,
    { collection },
  );
}
