// What write-time enrichment may infer and how it says so.

/**
 * Types inference may give a memory: every type a client may write. outcome, rule and insight are
 * produced by the server's own flows and never inferred from a client's text; the deprecated
 * alias `semantic` is never produced either.
 */
export const INFERRED_TYPES = [
  'fact', 'episode', 'decision', 'preference', 'task', 'intention', 'plan', 'commitment', 'action', 'cancellation',
] as const;
export type InferredType = (typeof INFERRED_TYPES)[number];

export const isInferredType = (t: unknown): t is InferredType => (INFERRED_TYPES as readonly unknown[]).includes(t);

/** auto: the model when one is configured, else the rules; rules: never the model; off: infer nothing. */
export const ENRICH_MODES = ['auto', 'rules', 'off'] as const;
export type EnrichMode = (typeof ENRICH_MODES)[number];

/** Who inferred the fields: the rules (lexical cues, embedding centroids) or the configured LLM. */
export type EnrichedBy = 'rules' | 'llm';

/** The fields a write may have inferred. */
export type EnrichedField = 'memory_type' | 'title' | 'tags';

export interface Inferred {
  memory_type?: InferredType;
  title?: string;
  tags?: string[];
}

/** `metadata` keys enrichment writes (a client's own keys of these names win). */
export const ENRICHED_BY_KEY = 'enriched_by';
export const ENRICHED_FIELDS_KEY = 'enriched_fields';
export const TAGS_KEY = 'tags';

export const TITLE_MAX_CHARS = 80;
export const TAGS_MAX = 5;

/** A stored metadata value as an object (a driver may hand jsonb over as text). */
function asObject(metadata: unknown): Record<string, unknown> {
  let m = metadata;
  if (typeof m === 'string') {
    try {
      m = JSON.parse(m);
    } catch {
      return {};
    }
  }
  return m && typeof m === 'object' && !Array.isArray(m) ? (m as Record<string, unknown>) : {};
}

/** The fields a stored memory's metadata marks as inferred. */
export function inferredFields(metadata: unknown): EnrichedField[] {
  const raw = asObject(metadata)[ENRICHED_FIELDS_KEY];
  if (!Array.isArray(raw)) return [];
  return raw.filter((f): f is EnrichedField => f === 'memory_type' || f === 'title' || f === 'tags');
}

/**
 * The title that goes into the indexed text: the client's own. An inferred title repeats the
 * content's opening and is left out, so enrichment never changes what a memory is found by.
 */
export const indexedTitle = (title: string | null | undefined, metadata: unknown): string | null =>
  title && !inferredFields(metadata).includes('title') ? title : null;

export interface EditedMarks {
  /** Fields inferred before that the edit leaves alone: inferred again when the content changed. */
  still: EnrichedField[];
  /** Whether the stored marks change (then `drop` is removed and `keep` merged, before the edit's own metadata). */
  changed: boolean;
  drop: string[];
  keep: Record<string, unknown>;
}

/**
 * How an edit changes the enrichment marks of a stored memory. A field the edit sets is the
 * client's from then on; when the content changes, the fields still inferred are inferred again
 * (their marks and inferred tags are replaced by the new inference). A metadata replace without
 * a content change leaves exactly the client's metadata, marks included.
 */
export function editedMarks(
  metadata: unknown,
  edit: { memory_type?: unknown; title?: unknown; metadata?: Record<string, unknown> },
  mode: 'merge' | 'replace' | undefined,
  contentChanged: boolean,
): EditedMarks {
  const before = inferredFields(metadata);
  const sets: Record<EnrichedField, boolean> = {
    memory_type: edit.memory_type !== undefined,
    title: edit.title !== undefined,
    tags: edit.metadata !== undefined && (mode === 'replace' || Object.prototype.hasOwnProperty.call(edit.metadata, TAGS_KEY)),
  };
  const still = before.filter((f) => !sets[f]);
  if (contentChanged) {
    return { still, changed: before.length > 0, drop: [ENRICHED_BY_KEY, ENRICHED_FIELDS_KEY, ...(still.includes('tags') ? [TAGS_KEY] : [])], keep: {} };
  }
  // A replaced metadata is exactly the client's: the marks go with the rest.
  if (still.length === before.length || mode === 'replace') return { still, changed: false, drop: [], keep: {} };
  if (still.length === 0) return { still, changed: before.length > 0, drop: [ENRICHED_BY_KEY, ENRICHED_FIELDS_KEY], keep: {} };
  const by = asObject(metadata)[ENRICHED_BY_KEY] ?? 'rules';
  return { still, changed: true, drop: [], keep: { [ENRICHED_BY_KEY]: by, [ENRICHED_FIELDS_KEY]: still } };
}
