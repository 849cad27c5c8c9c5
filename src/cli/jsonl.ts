// Export and import records: one memory per JSONL line, mapped to what a write may carry.
import type { MemoryInput } from '@loci/client';

/** Statuses a write may set; the rest are set after the write through a status transition. */
const WRITABLE_STATUSES = new Set(['active', 'pending', 'confirmed', 'cancelled', 'archived']);
/** Types the server produces itself: a write may not carry them. */
const SERVER_TYPES = new Set(['outcome', 'rule', 'insight']);

/** Fields of an exported memory that a write carries over. Ids, timestamps, counters and entity ids are the server's. */
const CARRIED = [
  'content', 'title', 'memory_type', 'weight', 'source_uri', 'run_id', 'metadata', 'expires_at', 'predicate', 'object_value',
  'ts_valid_start', 'ts_valid_end', 'visibility', 'fleet_id', 'agent_id',
] as const;

export interface ImportItem {
  /** The write. */
  item: MemoryInput;
  /** A status to set after the write (outdated, conflicted, or deleted for a soft-deleted row). */
  then: string | null;
}

export class ImportLineError extends Error {}

/** One exported record (or any object with content) as a write plus the status to restore. */
export function toImportItem(record: unknown, line: number): ImportItem {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) throw new ImportLineError(`line ${line}: not a JSON object`);
  const r = record as Record<string, unknown>;
  if (typeof r.content !== 'string' || !r.content.trim()) throw new ImportLineError(`line ${line}: no content`);
  if (typeof r.memory_type === 'string' && SERVER_TYPES.has(r.memory_type)) {
    throw new ImportLineError(`line ${line}: memory_type ${r.memory_type} is produced by the server and cannot be written`);
  }
  const item: Record<string, unknown> = Object.create(null);
  for (const k of CARRIED) if (r[k] !== undefined) item[k] = r[k];
  const status = typeof r.status === 'string' ? r.status : null;
  if (status && WRITABLE_STATUSES.has(status)) item.status = status;
  const then = r.deleted_at ? 'deleted' : status && !WRITABLE_STATUSES.has(status) ? status : null;
  return { item: { ...item } as MemoryInput, then };
}

/** Parses JSONL text; blank lines are skipped, a bad line names its number. */
export function parseJsonl(text: string): { line: number; value: unknown }[] {
  const rows: { line: number; value: unknown }[] = [];
  text.split('\n').forEach((raw, i) => {
    if (!raw.trim()) return;
    try {
      rows.push({ line: i + 1, value: JSON.parse(raw) });
    } catch {
      throw new ImportLineError(`line ${i + 1}: not valid JSON`);
    }
  });
  return rows;
}
