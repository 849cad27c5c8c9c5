// The memory record lifecycle: write, read, list, update, status, soft delete, aggregates.
// Every method takes the resolved Caller and applies the tenant, agent, trust and visibility
// rules itself, so the HTTP routes and the tool-call surface share one implementation.
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Db, Row } from '../../store/db.js';
import { vectorLiteral } from '../../store/db.js';
import type { Embedder } from '../../providers/embedder/types.js';
import type { EntityExtractor, Extraction } from '../../providers/entities/types.js';
import type { EventBus } from '../../infra/bus/types.js';
import type { Enricher, Suggestion } from '../enrich/enricher.js';
import { editedMarks, indexedTitle } from '../enrich/types.js';
import {
  type Caller, DEFAULT_AGENT, checkReadFleets, confinedFleet, isAdmin, requireAuth, requireTrust, resolveAgent, resolveTenant, resolveWriteFleet, TRUST,
} from '../caller.js';
import { DomainError, badRequest, conflict, invalid, notFound, embedderUnavailable } from '../errors.js';
import { linksFor, recordExtraction, withdrawMemory } from '../entities/store.js';
import { supersededByPrecheck } from '../contradictions/precheck.js';
import { contentHash, indexText, normaliseContent } from './content.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { Params } from './params.js';
import { buildListQuery, cursorCapable, listConditions, type ListFilter } from './query.js';
import { DETAIL_COLUMNS, RECORD_COLUMNS, toDetail, toRecord } from './record.js';
import { canSee, visibilityPredicate, type FleetScope } from './visibility.js';
import { BulkWriter, type BulkOptions, type BulkRequest, type BulkResult } from './bulk.js';
import { redistribute, type RedistributeRequest, type RedistributeResult } from './redistribute.js';
import {
  checkMetadata, checkType, checkValidity, INSERT_COLUMNS, isContentDuplicate, liveMemories, memoryValues, prepareMemory, publishWritten, quotaExceeded,
  withClientTags, withEnrichment, type PreparedMemory,
} from './write.js';
import type { DetectionBacklog } from '../contradictions/backlog.js';
import {
  canonicalType,
  type CreateMemoryInput, type MemoryDetail, type MemoryRecord, type SortColumn, type StatusChange, type SupersededEntry,
  TRANSITION_STATUSES, type UpdateMemoryInput, type Usage, type WrittenMemory,
} from './types.js';

export interface MemoryDeps {
  db: Db;
  embedder: Embedder;
  entities: EntityExtractor;
  bus: EventBus;
  /** Fills the type, title and tags a client left out (src/core/enrich). */
  enricher: Enricher;
  /** Non-deleted memories a tenant may hold. */
  quotaPerTenant: number;
  log?: Pick<Logger, 'warn'>;
  /** The detector's backlog: writes wait for room in it (back-pressure). */
  backlog?: DetectionBacklog;
}

/** How long a single write waits for room in the detector's backlog before its 503. */
export const BACKLOG_WAIT_MS = 5_000;

export { MEMORY_WRITTEN, METADATA_MAX_BYTES } from './write.js';

const EMPTY_EXTRACTION: Extraction = { entities: [], relations: [] };

export interface ListQuery {
  tenant_id?: string;
  fleet_id?: string;
  agent_id?: string;
  filter_agent_id?: string;
  memory_type?: string;
  exclude_memory_types?: string[];
  status?: string;
  visibility?: string;
  run_id?: string;
  created_after?: string;
  created_before?: string;
  weight_min?: number;
  weight_max?: number;
  cursor?: string;
  sort?: SortColumn;
  order?: 'asc' | 'desc';
  offset?: number;
  limit?: number;
  include_deleted?: boolean;
}

export interface Page {
  items: MemoryRecord[];
  next_cursor: string | null;
}

export interface DeleteWhere {
  tenant_id?: string;
  fleet_id?: string;
  agent_id?: string;
  memory_type?: string;
  status?: string;
  /** Memories of one ingest run (ingest undo). */
  run_id?: string;
  exclude_ids?: string[];
  metadata_filter?: Record<string, unknown>;
}

export interface StatsQuery {
  tenant_id?: string;
  fleet_id?: string;
  agent_id?: string;
  filter_agent_id?: string;
  memory_type?: string;
  status?: string;
  include_deleted?: boolean;
}

export interface Stats {
  total: number;
  by_type: Record<string, number>;
  by_agent: Record<string, number>;
  by_status: Record<string, number>;
  by_tenant?: Record<string, number>;
  deleted?: number;
  total_including_deleted?: number;
}

/** Splits repeated and comma-separated values (`?x=a&x=b,c`). */
export function splitList(values: string[] | string | undefined): string[] {
  if (values === undefined) return [];
  return (Array.isArray(values) ? values : [values]).flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
}

class DuplicateContent extends Error {}

export class MemoryService {
  constructor(private deps: MemoryDeps) {}

  // ---- identity -----------------------------------------------------------------------

  /**
   * Tenant and agent a change acts as; restricted (trust 0) keys are read-only. `scope`: a
   * fleet-confined key changes rows of its fleet only.
   */
  private writer(caller: Caller, tenant: string | undefined, agent: string | undefined) {
    requireTrust(caller, TRUST.standard, 'Changing memories');
    const fleet = confinedFleet(caller);
    return {
      tenantId: resolveTenant(caller, tenant, 'write'), agentId: resolveAgent(caller, agent), admin: isAdmin(caller),
      scope: fleet ? { fleet, write: true } : null,
    };
  }

  /** Tenant and viewer of a read; `fleets` named by the request are checked against a fleet-bound key. */
  private reader(caller: Caller, tenant: string | undefined, agent: string | undefined, fleets: (string | undefined)[] = []) {
    checkReadFleets(caller, fleets);
    const fleet = confinedFleet(caller);
    return {
      tenantId: resolveTenant(caller, tenant, 'read'), agentId: resolveAgent(caller, agent), admin: isAdmin(caller),
      scope: fleet ? { fleet } : null,
    };
  }

  // ---- write --------------------------------------------------------------------------

  /**
   * One memory. `opts.suggestion` carries what an earlier server step (an ingest preview) already
   * inferred for fields the input leaves out; it is never taken from a request body.
   */
  async create(caller: Caller, given: CreateMemoryInput, opts: { suggestion?: Suggestion } = {}): Promise<WrittenMemory> {
    const input = withClientTags(given);
    const w = this.writer(caller, input.tenant_id, input.agent_id);
    const { tenantId, admin, scope } = w;
    const agentId = w.agentId ?? DEFAULT_AGENT;
    const checked = prepareMemory({ ...input, fleet_id: resolveWriteFleet(caller, input.fleet_id) }, ['body']);
    // Room for its detection first: a write the detector could not keep up with waits, then is refused.
    const backlog = this.deps.backlog;
    await backlog?.reserve(1, Date.now() + BACKLOG_WAIT_MS);
    let published = false;
    try {
      return await this.createReserved(input, checked, { tenantId, agentId, admin, scope }, opts.suggestion, () => { published = true; });
    } finally {
      if (!published) backlog?.release(1);
    }
  }

  private async createReserved(
    input: CreateMemoryInput, checked: PreparedMemory,
    { tenantId, agentId, admin, scope }: ReturnType<MemoryService['writer']> & { agentId: string },
    suggestion: Suggestion | undefined, onPublished: () => void,
  ): Promise<WrittenMemory> {
    const { content, hash, fleetId } = checked;
    // An exact duplicate is answered before any embedding or model work is spent on it (the
    // unique index still decides when two writes race).
    if (await this.holdsContent(tenantId, fleetId, agentId, hash)) {
      throw await this.duplicateError(tenantId, fleetId, agentId, hash, null, { agentId, admin });
    }
    // Slow work first, outside the transaction: PGlite has one session and a pg transaction
    // holds its row locks, so neither may wait on the embedder (nor on the enrichment model,
    // which runs alongside the embedding).
    const enrichment = this.deps.enricher.begin({ ...input, content }, suggestion);
    const { vector, extraction } = await this.enrich(indexText(input.title, content));
    const prepared = withEnrichment(checked, await enrichment.finish(extraction));
    const id = randomUUID();
    const quota = this.deps.quotaPerTenant;
    let out: { row: Row; links: MemoryRecord['entity_links']; stored: number };
    try {
      out = await this.deps.db.tx(async (q) => {
        const stored = await liveMemories(q, tenantId);
        if (stored >= quota) throw quotaExceeded(tenantId, stored, quota);
        const p = new Params();
        const values = memoryValues(p, { id, tenantId, agentId, m: prepared, vector, model: this.deps.embedder.modelId, clientRequestId: null });
        let row: Row;
        try {
          ({ rows: [row] } = await q.query(
            `INSERT INTO memories AS m (${INSERT_COLUMNS}) VALUES ${values} RETURNING ${RECORD_COLUMNS}`, p.values));
        } catch (err) {
          if (isContentDuplicate(err)) throw new DuplicateContent();
          throw err;
        }
        const links = await recordExtraction(q, tenantId, id, extraction, input);
        return { row, links, stored: stored + 1 };
      });
    } catch (err) {
      if (err instanceof DuplicateContent) throw await this.duplicateError(tenantId, fleetId, agentId, hash, null, { agentId, admin });
      throw err;
    }
    const usage: Usage = { memories_stored: out.stored, memories_limit: quota, writes_remaining: Math.max(quota - out.stored, 0) };
    // What a cheap indexed check already knows; the detector on the bus records it and finds the rest.
    const superseded_by: SupersededEntry[] = await supersededByPrecheck(this.deps.db, {
      tenantId, memoryId: id, viewer: agentId, admin, scope: scope && { fleet: scope.fleet },
      subject_entity_id: input.subject_entity_id, predicate: input.predicate, object_value: input.object_value,
    })
      .catch((err) => {
        this.deps.log?.warn({ err }, 'superseded_by pre-check failed');
        return [];
      });
    // Published after the pre-check: the detector must not change the rows the check reads first.
    publishWritten(this.deps.bus, this.deps.log, tenantId, { memory_id: id, fleet_id: fleetId, agent_id: agentId, op: 'create' });
    onPublished();
    return { ...toRecord(out.row, out.links), superseded_by, usage };
  }

  /** Embedding and entities of a text. An extractor failure only loses the graph links; an embedder failure refuses the write. */
  private async enrich(text: string): Promise<{ vector: Float32Array; extraction: Extraction }> {
    const [vectors, extraction] = await Promise.all([
      this.deps.embedder.embed([text]).catch((err) => {
        this.deps.log?.warn({ err }, 'embedding failed');
        throw embedderUnavailable();
      }),
      this.extract(text),
    ]);
    return { vector: vectors[0], extraction };
  }

  private extract(text: string): Promise<Extraction> {
    return this.deps.entities.extract(text).catch((err) => {
      this.deps.log?.warn({ err }, 'entity extraction failed');
      return EMPTY_EXTRACTION;
    });
  }

  /** Whether this writer already holds this exact content in this fleet (the unique index's key). */
  private async holdsContent(tenantId: string, fleetId: string | null, agentId: string, hash: string): Promise<boolean> {
    const { rows } = await this.deps.db.query(
      `SELECT 1 FROM memories WHERE tenant_id = $1 AND coalesce(fleet_id, '') = $2 AND agent_id = $3 AND content_hash = $4 AND deleted_at IS NULL LIMIT 1`,
      [tenantId, fleetId ?? '', agentId, hash]);
    return rows.length > 0;
  }

  /**
   * 409 for content its writer already holds in this fleet (the unique index is per tenant,
   * fleet, agent and content). The holder's id is named only when the caller can see it.
   */
  private async duplicateError(
    tenantId: string, fleetId: string | null, agentId: string, hash: string, selfId: string | null,
    viewer: { agentId: string | null; admin: boolean; scope?: FleetScope | null },
  ): Promise<DomainError> {
    const { rows } = await this.deps.db.query<{ id: string; visibility: string; agent_id: string }>(
      `SELECT id, visibility, agent_id, fleet_id FROM memories WHERE tenant_id = $1 AND coalesce(fleet_id, '') = $2 AND agent_id = $3
         AND content_hash = $4 AND deleted_at IS NULL AND ($5::uuid IS NULL OR id <> $5::uuid) LIMIT 1`,
      [tenantId, fleetId ?? '', agentId, hash, selfId]);
    const holder = rows[0];
    const shown = holder && canSee(holder, viewer.agentId, viewer.admin, viewer.scope) ? holder.id : null;
    return conflict(`Agent "${agentId}" already holds a memory with exactly this content in this fleet`, { existing_id: shown });
  }

  private publish(tenantId: string, data: Record<string, unknown>) {
    this.deps.backlog?.added(1);
    publishWritten(this.deps.bus, this.deps.log, tenantId, data);
  }

  // ---- read ---------------------------------------------------------------------------

  async get(caller: Caller, id: string, q: { tenant_id?: string; agent_id?: string; include_deleted?: boolean }): Promise<MemoryDetail> {
    const a = this.reader(caller, q.tenant_id, q.agent_id);
    const p = new Params();
    const w = [`m.tenant_id = ${p.add(a.tenantId)}`, `m.id = ${p.add(id, 'uuid')}`];
    if (!q.include_deleted) w.push('m.deleted_at IS NULL');
    const vis = visibilityPredicate(p, a.agentId, a.admin, 'm', a.scope);
    if (vis) w.push(vis);
    const { rows } = await this.deps.db.query(`SELECT ${DETAIL_COLUMNS} FROM memories m WHERE ${w.join(' AND ')}`, p.values);
    if (!rows[0]) throw notFound('Memory');
    const links = await linksFor(this.deps.db, [a.tenantId], [id]);
    return toDetail(rows[0], links.get(id) ?? []);
  }

  async list(caller: Caller, q: ListQuery): Promise<Page> {
    const a = this.reader(caller, q.tenant_id, q.agent_id, [q.fleet_id]);
    return this.page(q, { tenantId: a.tenantId, viewer: a.agentId, allVisibilities: false, authorId: q.filter_agent_id, scope: a.scope });
  }

  /** Admin list: every tenant unless one is named, every visibility; agent_id filters by author. */
  async adminList(caller: Caller, q: ListQuery): Promise<Page> {
    requireTrust(caller, TRUST.admin, 'Listing memories across tenants');
    return this.page(q, { tenantId: q.tenant_id ?? null, viewer: null, allVisibilities: true, authorId: q.filter_agent_id ?? q.agent_id });
  }

  private async page(q: ListQuery, who: Pick<ListFilter, 'tenantId' | 'viewer' | 'allVisibilities' | 'authorId' | 'scope'>): Promise<Page> {
    const sort = q.sort ?? 'created_at';
    const order = q.order ?? 'desc';
    const limit = q.limit ?? 50;
    // The sort is checked before the cursor is decoded: a cursor with another sort is a 400 whatever it holds.
    if (q.cursor !== undefined && !cursorCapable({ sort, order })) {
      throw badRequest('cursor pagination works only with sort=created_at and order=desc; use offset with other sorts');
    }
    const cursor = q.cursor !== undefined ? decodeCursor(q.cursor) : undefined;
    const { sql, params } = buildListQuery({
      ...who,
      fleetId: q.fleet_id, memoryType: q.memory_type, excludeTypes: splitList(q.exclude_memory_types), status: q.status,
      visibility: q.visibility, runId: q.run_id, createdAfter: q.created_after, createdBefore: q.created_before,
      weightMin: q.weight_min, weightMax: q.weight_max,
      includeDeleted: q.include_deleted ?? false,
      sort, order, offset: q.offset ?? 0, limit,
      cursor,
    });
    const { rows } = await this.deps.db.query(sql, params);
    const more = rows.length > limit;
    const page = more ? rows.slice(0, limit) : rows;
    const links = await linksFor(this.deps.db, page.map((r) => r.tenant_id), page.map((r) => r.id));
    const last = page[page.length - 1];
    return {
      items: page.map((r) => toRecord(r, links.get(r.id) ?? [])),
      next_cursor: more && last && cursorCapable({ sort, order }) ? encodeCursor({ createdAt: last.cursor_ts, id: last.id }) : null,
    };
  }

  // ---- update -------------------------------------------------------------------------

  async update(
    caller: Caller, id: string,
    q: { tenant_id?: string; agent_id?: string; metadata_mode?: 'merge' | 'replace' }, body: UpdateMemoryInput,
  ): Promise<MemoryRecord & { superseded_by: SupersededEntry[] }> {
    const a = this.writer(caller, q.tenant_id, q.agent_id);
    const { metadata_mode: bodyMode, ...fields } = body;
    const mode = bodyMode ?? q.metadata_mode;
    if (mode !== undefined && fields.metadata === undefined) {
      throw invalid(bodyMode !== undefined ? ['body', 'metadata_mode'] : ['query', 'metadata_mode'],
        'metadata_mode needs a metadata field in the body', 'missing', mode);
    }
    const provided = Object.keys(fields).filter((k) => (fields as Record<string, unknown>)[k] !== undefined);
    if (provided.length === 0) {
      throw invalid(['body'], 'Provide at least one field to change', 'missing', body ?? null);
    }
    const content = fields.content !== undefined ? normaliseContent(fields.content) : undefined;
    checkType(fields.memory_type, ['body', 'memory_type']);
    checkMetadata(fields.metadata, ['body', 'metadata']);
    checkValidity(fields.ts_valid_start, fields.ts_valid_end, ['body', 'ts_valid_end']);

    // A concurrent PATCH may change the text this one embedded; the guarded UPDATE notices and the PATCH reruns.
    for (let attempt = 0; attempt < 3; attempt++) {
      const p0 = new Params();
      const w0 = [`m.tenant_id = ${p0.add(a.tenantId)}`, `m.id = ${p0.add(id, 'uuid')}`, 'm.deleted_at IS NULL'];
      const vis0 = visibilityPredicate(p0, a.agentId, a.admin, 'm', a.scope);
      if (vis0) w0.push(vis0);
      const { rows: cur } = await this.deps.db.query(
        `SELECT m.title, m.content, m.content_hash, m.fleet_id, m.agent_id, m.ts_valid_start, m.ts_valid_end, m.metadata
         FROM memories m WHERE ${w0.join(' AND ')}`, p0.values);
      if (!cur[0]) throw notFound('Memory');
      const current = cur[0];
      checkValidity(fields.ts_valid_start !== undefined ? fields.ts_valid_start : current.ts_valid_start,
        fields.ts_valid_end !== undefined ? fields.ts_valid_end : current.ts_valid_end, ['body', 'ts_valid_end']);

      const newHash = content !== undefined ? contentHash(content) : current.content_hash;
      const oldIndexTitle = indexedTitle(current.title, current.metadata);
      const newIndexTitle = fields.title !== undefined ? fields.title : oldIndexTitle;
      const textChanged = newHash !== current.content_hash || (newIndexTitle ?? null) !== (oldIndexTitle ?? null);
      // Fields inferred from the old content that this edit leaves alone are inferred again.
      const marks = editedMarks(current.metadata, fields, mode, newHash !== current.content_hash);
      const reinferring = newHash !== current.content_hash ? this.deps.enricher.refresh(content!, marks.still) : null;
      const enriched = textChanged ? await this.enrich(indexText(newIndexTitle, content ?? current.content)) : null;
      // A new subject/predicate/object changes the memory's graph even when its text does not.
      const tripleChanged = fields.subject_entity_id !== undefined || fields.predicate !== undefined || fields.object_value !== undefined;
      const extraction = enriched?.extraction ?? (tripleChanged ? await this.extract(indexText(newIndexTitle, current.content)) : null);
      const reinferred = reinferring ? await reinferring.finish(extraction ?? undefined) : null;

      const p = new Params();
      const set: string[] = [];
      const col = (name: string, value: unknown, cast?: string) => set.push(`${name} = ${p.add(value, cast)}`);
      if (fields.title !== undefined) col('title', fields.title);
      else if (reinferred && marks.still.includes('title')) col('title', reinferred.title ?? null);
      if (content !== undefined) {
        col('content', content);
        col('content_hash', newHash);
      }
      {
        // Merge happens in SQL on the row's current value: concurrent merges of distinct keys all survive.
        const inferred = reinferred?.metadata ?? null;
        const base = fields.metadata !== undefined && mode === 'replace' ? `'{}'::jsonb` : 'm.metadata';
        const layers = [
          marks.changed ? `(${base} - ${p.add(marks.drop, 'text[]')})` : base,
          ...(inferred || marks.changed ? [p.add(JSON.stringify({ ...marks.keep, ...(inferred ?? {}) }), 'jsonb')] : []),
          ...(fields.metadata !== undefined ? [p.add(JSON.stringify(fields.metadata), 'jsonb')] : []),
        ];
        if (layers.length > 1 || fields.metadata !== undefined) set.push(`metadata = ${layers.join(' || ')}`);
      }
      if (fields.memory_type !== undefined) col('memory_type', canonicalType(fields.memory_type));
      else if (reinferred?.memory_type !== undefined) col('memory_type', reinferred.memory_type);
      if (fields.weight !== undefined) col('weight', fields.weight);
      if (fields.status !== undefined) col('status', fields.status);
      if (fields.visibility !== undefined) col('visibility', fields.visibility);
      if (fields.expires_at !== undefined) col('expires_at', fields.expires_at, 'timestamptz');
      if (fields.source_uri !== undefined) col('source_uri', fields.source_uri);
      if (fields.subject_entity_id !== undefined) col('subject_entity_id', fields.subject_entity_id, 'uuid');
      if (fields.predicate !== undefined) col('predicate', fields.predicate);
      if (fields.object_value !== undefined) col('object_value', fields.object_value);
      if (fields.ts_valid_start !== undefined) col('ts_valid_start', fields.ts_valid_start, 'timestamptz');
      if (fields.ts_valid_end !== undefined) col('ts_valid_end', fields.ts_valid_end, 'timestamptz');
      if (enriched) {
        col('embedding', vectorLiteral(enriched.vector), 'vector');
        col('embedding_model', this.deps.embedder.modelId);
      }
      set.push('updated_at = now()');
      const w = [`m.tenant_id = ${p.add(a.tenantId)}`, `m.id = ${p.add(id, 'uuid')}`, 'm.deleted_at IS NULL'];
      const vis = visibilityPredicate(p, a.agentId, a.admin, 'm', a.scope);
      if (vis) w.push(vis);
      if (extraction && content === undefined) w.push(`m.content_hash = ${p.add(current.content_hash)}`);
      if (extraction && fields.title === undefined) w.push(`m.title IS NOT DISTINCT FROM ${p.add(current.title ?? null)}`);

      let result: { row: Row; links: MemoryRecord['entity_links'] } | null;
      try {
        result = await this.deps.db.tx(async (tq) => {
          let row: Row | undefined;
          try {
            ({ rows: [row] } = await tq.query(`UPDATE memories AS m SET ${set.join(', ')} WHERE ${w.join(' AND ')} RETURNING ${RECORD_COLUMNS}`, p.values));
          } catch (err) {
            if (isContentDuplicate(err)) throw new DuplicateContent();
            throw err;
          }
          if (!row) return null;
          if (extraction) {
            await withdrawMemory(tq, a.tenantId, id);
            return { row, links: await recordExtraction(tq, a.tenantId, id, extraction, row) };
          }
          return { row, links: (await linksFor(tq, [a.tenantId], [id])).get(id) ?? [] };
        });
      } catch (err) {
        if (err instanceof DuplicateContent) throw await this.duplicateError(a.tenantId, current.fleet_id, current.agent_id, newHash, id, a);
        throw err;
      }
      if (!result) {
        if (extraction) continue; // the text changed under us (or the row went away): look again
        throw notFound('Memory');
      }
      if (enriched) {
        this.publish(a.tenantId, { memory_id: id, fleet_id: result.row.fleet_id ?? null, agent_id: result.row.agent_id, op: 'update' });
      }
      return { ...toRecord(result.row, result.links), superseded_by: [] };
    }
    throw conflict('The memory kept changing while this update ran; retry');
  }

  /** Sets the status (`deleted`: soft-deletes, keeping the status column as it was). */
  async setStatus(caller: Caller, id: string, q: { tenant_id?: string; agent_id?: string }, status: string): Promise<StatusChange> {
    const a = this.writer(caller, q.tenant_id, q.agent_id);
    if (!(TRANSITION_STATUSES as readonly string[]).includes(status)) {
      throw invalid(['body', 'status'], `Input should be one of: ${TRANSITION_STATUSES.join(', ')}`, 'enum', status, { expected: [...TRANSITION_STATUSES] });
    }
    const p = new Params();
    const w = [`o.tenant_id = ${p.add(a.tenantId)}`, `o.id = ${p.add(id, 'uuid')}`, 'o.deleted_at IS NULL'];
    const vis = visibilityPredicate(p, a.agentId, a.admin, 'o', a.scope);
    if (vis) w.push(vis);
    const change = status === 'deleted' ? 'deleted_at = now()' : `status = ${p.add(status)}`;
    // The sub-select locks the row and reads the status before the update changes it.
    const { rows } = await this.deps.db.query<{ id: string; previous_status: string }>(
      `UPDATE memories AS m SET ${change}, updated_at = now()
       FROM (SELECT o.id, o.status FROM memories o WHERE ${w.join(' AND ')} FOR UPDATE) AS old
       WHERE m.tenant_id = $1 AND m.id = old.id
       RETURNING m.id, old.status AS previous_status`, p.values);
    if (!rows[0]) throw notFound('Memory');
    const { previous_status } = rows[0];
    return { id, status, previous_status, memory_id: id, old_status: previous_status, new_status: status };
  }

  // ---- delete -------------------------------------------------------------------------

  async remove(caller: Caller, id: string, q: { tenant_id?: string; agent_id?: string }): Promise<void> {
    const a = this.writer(caller, q.tenant_id, q.agent_id);
    const n = await this.softDelete(a, (p) => [`m.id = ${p.add(id, 'uuid')}`]);
    if (n === 0) throw notFound('Memory');
  }

  /**
   * Soft-deletes every matching memory the caller can see. `agent_id` filters by author; an
   * agent-scoped key without it deletes only its own memories (never a whole team's at once).
   */
  async removeWhere(caller: Caller, f: DeleteWhere): Promise<number> {
    const a = this.writer(caller, f.tenant_id, f.agent_id);
    checkReadFleets(caller, [f.fleet_id]);
    return this.softDelete(a, (p) => {
      const w: string[] = [];
      if (f.fleet_id !== undefined) w.push(`m.fleet_id = ${p.add(f.fleet_id)}`);
      if (a.agentId) w.push(`m.agent_id = ${p.add(a.agentId)}`);
      if (f.memory_type !== undefined) w.push(`m.memory_type = ${p.add(canonicalType(f.memory_type))}`);
      if (f.status !== undefined) w.push(`m.status = ${p.add(f.status)}`);
      if (f.run_id !== undefined) w.push(`m.run_id = ${p.add(f.run_id)}`);
      if (f.exclude_ids?.length) w.push(`m.id <> ALL(${p.add(f.exclude_ids, 'uuid[]')})`);
      if (f.metadata_filter && Object.keys(f.metadata_filter).length) {
        w.push(`m.metadata @> ${p.add(JSON.stringify(f.metadata_filter), 'jsonb')}`);
      }
      return w;
    });
  }

  async bulkDelete(caller: Caller, body: { tenant_id?: string; ids: string[]; agent_id?: string }): Promise<number> {
    const a = this.writer(caller, body.tenant_id, body.agent_id);
    const ids = [...new Set(body.ids.map((i) => i.toLowerCase()))];
    return this.softDelete(a, (p) => [`m.id = ANY(${p.add(ids, 'uuid[]')})`]);
  }

  /** Shared soft delete: tenant, not-yet-deleted and visibility always apply; `where` adds the selection. */
  private async softDelete(a: { tenantId: string; agentId: string | null; admin: boolean; scope: FleetScope | null }, where: (p: Params) => string[]) {
    const p = new Params();
    const w = [`m.tenant_id = ${p.add(a.tenantId)}`, 'm.deleted_at IS NULL', ...where(p)];
    const vis = visibilityPredicate(p, a.agentId, a.admin, 'm', a.scope);
    if (vis) w.push(vis);
    const { rowCount } = await this.deps.db.query(`UPDATE memories AS m SET deleted_at = now(), updated_at = now() WHERE ${w.join(' AND ')}`, p.values);
    return rowCount;
  }

  // ---- aggregates ---------------------------------------------------------------------

  async stats(caller: Caller, q: StatsQuery): Promise<Stats> {
    const a = this.reader(caller, q.tenant_id, q.agent_id, [q.fleet_id]);
    return this.aggregate({
      tenantId: a.tenantId, viewer: a.agentId, allVisibilities: false, fleetId: q.fleet_id, authorId: q.filter_agent_id, scope: a.scope,
      memoryType: q.memory_type, status: q.status, includeDeleted: q.include_deleted ?? false,
    }, false);
  }

  async adminStats(caller: Caller, q: { tenant_id?: string; fleet_id?: string; include_deleted?: boolean }): Promise<Stats> {
    requireTrust(caller, TRUST.admin, 'Memory statistics across tenants');
    return this.aggregate({
      tenantId: q.tenant_id ?? null, viewer: null, allVisibilities: true, fleetId: q.fleet_id, includeDeleted: q.include_deleted ?? false,
    }, true);
  }

  private async aggregate(f: ListFilter, byTenant: boolean): Promise<Stats> {
    const p = new Params();
    const w = listConditions(p, f);
    const dims = ['memory_type', 'agent_id', 'status', ...(byTenant ? ['tenant_id'] : [])];
    const { rows } = await this.deps.db.query(
      `SELECT ${dims.map((d) => `m.${d}, GROUPING(m.${d}) AS g_${d}`).join(', ')},
         count(*) FILTER (WHERE m.deleted_at IS NULL)::int AS live,
         count(*) FILTER (WHERE m.deleted_at IS NOT NULL)::int AS deleted
       FROM memories m ${w.length ? `WHERE ${w.join(' AND ')}` : ''}
       GROUP BY GROUPING SETS (${dims.map((d) => `(m.${d})`).join(', ')}, ())`, p.values);
    // Buckets are keyed by stored values (agent ids, tenants): null-prototype, so "__proto__" is a key like any other.
    const dict = () => Object.create(null) as Record<string, number>;
    const out: Stats = { total: 0, by_type: dict(), by_agent: dict(), by_status: dict() };
    const buckets = new Map<string, Record<string, number>>([['memory_type', out.by_type], ['agent_id', out.by_agent], ['status', out.by_status]]);
    if (byTenant) buckets.set('tenant_id', (out.by_tenant = dict()));
    let deleted = 0;
    for (const r of rows) {
      const grouped = dims.filter((d) => Number(r[`g_${d}`]) === 0);
      if (grouped.length === 0) {
        out.total = Number(r.live);
        deleted = Number(r.deleted);
      } else if (grouped.length === 1 && Number(r.live) > 0) {
        buckets.get(grouped[0])![r[grouped[0]]] = Number(r.live);
      }
    }
    if (f.includeDeleted) {
      out.deleted = deleted;
      out.total_including_deleted = out.total + deleted;
    }
    return out;
  }

  /**
   * Which of these texts the caller can already see stored as a memory of the tenant (any fleet),
   * by exact content: text → memory id. Ingest preview drops them.
   */
  async storedContents(caller: Caller, q: { tenant_id?: string; agent_id?: string }, texts: readonly string[]): Promise<Map<string, string>> {
    const a = this.reader(caller, q.tenant_id, q.agent_id);
    const byHash = new Map<string, string>();
    for (const t of texts) {
      const c = t.trim();
      if (c) byHash.set(contentHash(c), t);
    }
    const out = new Map<string, string>();
    if (byHash.size === 0) return out;
    const p = new Params();
    const w = [`m.tenant_id = ${p.add(a.tenantId)}`, `m.content_hash = ANY(${p.add([...byHash.keys()], 'text[]')})`, 'm.deleted_at IS NULL'];
    const vis = visibilityPredicate(p, a.agentId, a.admin, 'm', a.scope);
    if (vis) w.push(vis);
    const { rows } = await this.deps.db.query<{ id: string; content_hash: string }>(
      `SELECT DISTINCT ON (m.content_hash) m.id, m.content_hash FROM memories m WHERE ${w.join(' AND ')} ORDER BY m.content_hash, m.created_at`, p.values);
    for (const r of rows) out.set(byHash.get(r.content_hash)!, r.id);
    return out;
  }

  /** Active, non-deleted memories the caller can see. */
  async count(caller: Caller, q: { tenant_id?: string; fleet_id?: string; agent_id?: string }): Promise<number> {
    const a = this.reader(caller, q.tenant_id, q.agent_id, [q.fleet_id]);
    const p = new Params();
    const w = listConditions(p, { tenantId: a.tenantId, viewer: a.agentId, allVisibilities: false, fleetId: q.fleet_id, includeDeleted: false, scope: a.scope });
    w.push(`m.status = 'active'`);
    const { rows } = await this.deps.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM memories m WHERE ${w.join(' AND ')}`, p.values);
    return Number(rows[0].n);
  }

  /**
   * Memories written per UTC day over the last `days` days (deleted ones included: they were
   * written), for what the caller can see. Days without writes are absent.
   */
  async writesPerDay(caller: Caller, q: { tenant_id?: string; fleet_id?: string; agent_id?: string; days: number }): Promise<{ day: string; writes: number }[]> {
    const a = this.reader(caller, q.tenant_id, q.agent_id, [q.fleet_id]);
    const p = new Params();
    const w = listConditions(p, { tenantId: a.tenantId, viewer: a.agentId, allVisibilities: false, fleetId: q.fleet_id, includeDeleted: true, scope: a.scope });
    w.push(`m.created_at >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - make_interval(days => ${p.add(q.days - 1, 'int')})`);
    const { rows } = await this.deps.db.query<{ day: string; n: number }>(
      `SELECT to_char(date_trunc('day', m.created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS day, count(*)::int AS n
       FROM memories m WHERE ${w.join(' AND ')} GROUP BY 1 ORDER BY 1`, p.values);
    return rows.map((r) => ({ day: r.day, writes: Number(r.n) }));
  }

  /** Tenants that hold memories: all of them for an admin, otherwise the caller's own and readable ones. */
  async tenants(caller: Caller): Promise<string[]> {
    requireAuth(caller);
    if (isAdmin(caller)) return this.allTenants();
    const candidates = [...new Set([caller.tenantId, ...caller.readableTenants].filter((t): t is string => !!t))];
    const { rows } = await this.deps.db.query<{ t: string }>(
      `SELECT c.t FROM unnest($1::text[]) AS c(t)
       WHERE EXISTS (SELECT 1 FROM memories m WHERE m.tenant_id = c.t AND m.deleted_at IS NULL)
       ORDER BY c.t`, [candidates]);
    return rows.map((r) => r.t);
  }

  async adminTenants(caller: Caller): Promise<string[]> {
    requireTrust(caller, TRUST.admin, 'Listing all tenants');
    return this.allTenants();
  }

  private async allTenants(): Promise<string[]> {
    // A skip scan over the (tenant_id, deleted_at, id) index: one probe per tenant, not one per row.
    const { rows } = await this.deps.db.query<{ tenant_id: string }>(
      `WITH RECURSIVE t(tenant_id) AS (
         (SELECT m.tenant_id FROM memories m WHERE m.deleted_at IS NULL ORDER BY m.tenant_id LIMIT 1)
         UNION ALL
         SELECT (SELECT m.tenant_id FROM memories m WHERE m.deleted_at IS NULL AND m.tenant_id > t.tenant_id
                 ORDER BY m.tenant_id LIMIT 1)
         FROM t WHERE t.tenant_id IS NOT NULL)
       SELECT tenant_id FROM t WHERE tenant_id IS NOT NULL`);
    return rows.map((r) => r.tenant_id);
  }

  /** Fleets of a tenant with their non-deleted memory counts (memories without a fleet are not listed). */
  async fleets(caller: Caller, q: { tenant_id?: string; agent_id?: string }): Promise<{ fleet_id: string; count: number }[]> {
    const a = this.reader(caller, q.tenant_id, q.agent_id);
    return this.fleetCounts(a.tenantId, a.agentId, false, a.scope) as Promise<{ fleet_id: string; count: number }[]>;
  }

  async adminFleets(caller: Caller, q: { tenant_id?: string }): Promise<{ tenant_id: string; fleet_id: string; count: number }[]> {
    requireTrust(caller, TRUST.admin, 'Listing fleets across tenants');
    return this.fleetCounts(q.tenant_id ?? null, null, true) as Promise<{ tenant_id: string; fleet_id: string; count: number }[]>;
  }

  private async fleetCounts(tenantId: string | null, viewer: string | null, admin: boolean, scope: FleetScope | null = null) {
    const p = new Params();
    const w = listConditions(p, { tenantId, viewer, allVisibilities: admin, includeDeleted: false, scope });
    w.push('m.fleet_id IS NOT NULL');
    const { rows } = await this.deps.db.query(
      `SELECT m.tenant_id, m.fleet_id, count(*)::int AS count FROM memories m WHERE ${w.join(' AND ')}
       GROUP BY m.tenant_id, m.fleet_id ORDER BY m.tenant_id, m.fleet_id`, p.values);
    return rows.map((r) => (admin ? { tenant_id: r.tenant_id, fleet_id: r.fleet_id, count: Number(r.count) } : { fleet_id: r.fleet_id, count: Number(r.count) }));
  }

  // ---- bulk write and redistribute (own modules) ----------------------------------------

  private bulkWriter?: BulkWriter;

  bulkCreate(caller: Caller, attempt: string, req: BulkRequest, opts: BulkOptions): Promise<BulkResult> {
    this.bulkWriter ??= new BulkWriter(this.deps);
    return this.bulkWriter.write(caller, attempt, req, opts);
  }

  redistribute(caller: Caller, q: { tenant_id: string; agent_id: string }, body: RedistributeRequest): Promise<RedistributeResult> {
    return redistribute(this.deps.db, caller, q, body);
  }
}
