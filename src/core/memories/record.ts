// Row → record shaping. Both drivers return timestamps as Date; the API speaks ISO strings.
import { parseVector, type Row } from '../../store/db.js';
import type { EntityLink, MemoryDetail, MemoryRecord } from './types.js';

/** Columns of the memory record (no embedding: lists stay light). `m` is the table alias. */
export const RECORD_COLUMNS = [
  'id', 'tenant_id', 'fleet_id', 'agent_id', 'memory_type', 'title', 'content', 'weight', 'source_uri', 'run_id',
  'metadata', 'created_at', 'updated_at', 'expires_at', 'deleted_at', 'subject_entity_id', 'predicate',
  'object_value', 'ts_valid_start', 'ts_valid_end', 'status', 'visibility', 'recall_count', 'last_recalled_at',
  'supersedes_id',
].map((c) => `m.${c}`).join(', ');

/** Extra columns of the single-memory read. */
export const DETAIL_COLUMNS = `${RECORD_COLUMNS}, m.embedding::text AS embedding, m.embedding_model`;

export function iso(v: unknown): string | null {
  if (v == null) return null;
  const d = v instanceof Date ? v : new Date(String(v));
  return Number.isNaN(d.getTime()) ? String(v) : d.toISOString();
}

export function toRecord(r: Row, links: EntityLink[] = []): MemoryRecord {
  return {
    id: r.id,
    tenant_id: r.tenant_id,
    fleet_id: r.fleet_id ?? null,
    agent_id: r.agent_id,
    memory_type: r.memory_type,
    title: r.title ?? null,
    content: r.content,
    weight: Number(r.weight),
    source_uri: r.source_uri ?? null,
    run_id: r.run_id ?? null,
    metadata: typeof r.metadata === 'string' ? JSON.parse(r.metadata) : (r.metadata ?? {}),
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
    expires_at: iso(r.expires_at),
    deleted_at: iso(r.deleted_at),
    entity_links: links,
    subject_entity_id: r.subject_entity_id ?? null,
    predicate: r.predicate ?? null,
    object_value: r.object_value ?? null,
    ts_valid_start: iso(r.ts_valid_start),
    ts_valid_end: iso(r.ts_valid_end),
    status: r.status,
    visibility: r.visibility,
    recall_count: Number(r.recall_count ?? 0),
    last_recalled_at: iso(r.last_recalled_at),
    supersedes_id: r.supersedes_id ?? null,
  };
}

export function toDetail(r: Row, links: EntityLink[] = []): MemoryDetail {
  return { ...toRecord(r, links), embedding: parseVector(r.embedding), embedding_model: r.embedding_model ?? null };
}
