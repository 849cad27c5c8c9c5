// Steps every memory write shares (single create and bulk): input checks and normalisation,
// the INSERT column list and values, the quota refusal and the post-commit event.
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { pgCode, UNIQUE_VIOLATION, vectorParam, type Queryable } from '../../store/db.js';
import type { EventBus } from '../../infra/bus/types.js';
import { publishWithRetry } from '../../infra/bus/retry.js';
import { DomainError, invalid } from '../errors.js';
import { contentHash, normaliseContent } from './content.js';
import type { Params } from './params.js';
import type { Enrichment } from '../enrich/enricher.js';
import { canonicalType, DEFAULT_VISIBILITY, DEFAULT_WEIGHT, SERVER_MEMORY_TYPES, type CreateMemoryInput } from './types.js';

export const MEMORY_WRITTEN = 'memory.written';

/** Serialised metadata larger than this is refused: it is stored and returned with every record. */
export const METADATA_MAX_BYTES = 64 * 1024;

type Loc = (string | number)[];

export function checkMetadata(metadata: unknown, loc: Loc) {
  if (metadata == null) return;
  const size = Buffer.byteLength(JSON.stringify(metadata), 'utf8');
  if (size > METADATA_MAX_BYTES) {
    throw invalid(loc, `metadata should be at most ${METADATA_MAX_BYTES} bytes as JSON (got ${size})`, 'too_long', null, { max_bytes: METADATA_MAX_BYTES });
  }
}

export function checkType(t: string | null | undefined, loc: Loc) {
  if (t && (SERVER_MEMORY_TYPES as readonly string[]).includes(t)) {
    throw invalid(loc, `memory_type "${t}" is produced by the server and cannot be written by a client`, 'enum', t);
  }
}

export function checkValidity(start: unknown, end: unknown, loc: Loc) {
  if (start == null || end == null) return;
  if (new Date(end as string).getTime() < new Date(start as string).getTime()) {
    throw invalid(loc, 'ts_valid_end must not be before ts_valid_start', 'value_error', end);
  }
}

export const isContentDuplicate = (err: unknown) =>
  pgCode(err) === UNIQUE_VIOLATION && ((err as { constraint?: string }).constraint ?? 'memories_content_unique') === 'memories_content_unique';

/**
 * Caura clients send `tags` beside `metadata`; they are kept as metadata.tags (where enrichment
 * puts the tags it infers), after any the metadata already names. `write_mode` needs nothing:
 * every write is complete (embedded, extracted, stored) when it answers.
 */
export function withClientTags(input: CreateMemoryInput): CreateMemoryInput {
  const { tags, write_mode: _mode, ...rest } = input;
  if (!tags?.length) return rest;
  const metadata: Record<string, unknown> = { ...(rest.metadata ?? {}) };
  const own = Array.isArray(metadata.tags) ? metadata.tags : [];
  metadata.tags = [...new Set([...own, ...tags])];
  return { ...rest, metadata };
}

/** A create input after the checks no schema expresses; `at` is the loc of the input (e.g. ['body']). */
export interface PreparedMemory {
  input: CreateMemoryInput;
  content: string;
  hash: string;
  fleetId: string | null;
}

export function prepareMemory(input: CreateMemoryInput, at: Loc): PreparedMemory {
  const content = normaliseContent(input.content, [...at, 'content']);
  checkType(input.memory_type, [...at, 'memory_type']);
  checkMetadata(input.metadata, [...at, 'metadata']);
  checkValidity(input.ts_valid_start, input.ts_valid_end, [...at, 'ts_valid_end']);
  return { input, content, hash: contentHash(content), fleetId: input.fleet_id ?? null };
}

/** The prepared memory with what enrichment inferred set; content and hash are unchanged. */
export function withEnrichment(m: PreparedMemory, e: Enrichment): PreparedMemory {
  if (e.memory_type === undefined && e.title === undefined && e.metadata === undefined) return m;
  const input = { ...m.input };
  if (e.memory_type !== undefined) input.memory_type = e.memory_type;
  if (e.title !== undefined) input.title = e.title;
  if (e.metadata !== undefined) input.metadata = e.metadata;
  return { ...m, input };
}

export const INSERT_COLUMNS = `id, tenant_id, fleet_id, agent_id, memory_type, title, content, content_hash, weight,
  source_uri, run_id, metadata, expires_at, subject_entity_id, predicate, object_value, ts_valid_start,
  ts_valid_end, status, visibility, embedding, embedding_model, client_request_id, attempt_scope`;

/** One parenthesised VALUES tuple matching INSERT_COLUMNS. */
export function memoryValues(
  p: Params,
  row: {
    id: string; tenantId: string; agentId: string; m: PreparedMemory; vector: ArrayLike<number>; model: string;
    /** Bulk only: "<attempt>:<index>" and the scope (the key) it belongs to. */
    clientRequestId: string | null; attemptScope?: string | null;
  },
): string {
  const { input } = row.m;
  const values = [
    p.add(row.id, 'uuid'), p.add(row.tenantId), p.add(row.m.fleetId), p.add(row.agentId),
    p.add(canonicalType(input.memory_type ?? 'fact')), p.add(input.title ?? null), p.add(row.m.content), p.add(row.m.hash),
    p.add(input.weight ?? DEFAULT_WEIGHT), p.add(input.source_uri ?? null), p.add(input.run_id ?? null),
    p.add(JSON.stringify(input.metadata ?? {}), 'jsonb'), p.add(input.expires_at ?? null, 'timestamptz'),
    p.add(input.subject_entity_id ?? null, 'uuid'), p.add(input.predicate ?? null), p.add(input.object_value ?? null),
    p.add(input.ts_valid_start ?? null, 'timestamptz'), p.add(input.ts_valid_end ?? null, 'timestamptz'),
    p.add(input.status ?? 'active'), p.add(input.visibility ?? DEFAULT_VISIBILITY),
    p.add(vectorParam(row.vector), 'vector'), p.add(row.model), p.add(row.clientRequestId), p.add(row.attemptScope ?? null),
  ];
  return `(${values.join(', ')})`;
}

/** Live memories of a tenant, the quota's measure: one row kept by triggers (migration 045). */
export async function liveMemories(q: Queryable, tenantId: string): Promise<number> {
  const { rows } = await q.query<{ n: number }>(
    `SELECT coalesce((SELECT live_memories FROM tenant_usage WHERE tenant_id = $1), 0)::int AS n`, [tenantId]);
  return Number(rows[0].n);
}

/** 429 for a write that would take the tenant past its quota (DEFAULTS "Memories"). */
export function quotaExceeded(tenantId: string, stored: number, quota: number, wanted = 1): DomainError {
  const what = wanted === 1 ? '' : `; this request would add ${wanted}`;
  return new DomainError(429, 'Too Many Requests',
    `Tenant "${tenantId}" holds ${stored} memories, its quota of ${quota}${what}; delete memories before writing more`,
    { memories_stored: stored, memories_limit: quota, writes_remaining: Math.max(quota - stored, 0) });
}

export function publishWritten(bus: EventBus, log: Pick<Logger, 'warn'> | undefined, tenantId: string, data: Record<string, unknown>) {
  // Fire and forget: the write is committed; a bus problem shows in /health, not in this response.
  // Retried through a short outage so the detection of this write is not lost.
  const event = { id: randomUUID(), type: MEMORY_WRITTEN, version: 1, tenant_id: tenantId, occurred_at: new Date().toISOString(), data };
  publishWithRetry(bus, event).catch((err) => log?.warn({ err }, 'publishing memory.written failed'));
}
