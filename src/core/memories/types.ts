// Value lists and shapes of the memory domain (DEFAULTS "Memories").

export const MEMORY_TYPES = [
  'fact', 'episode', 'decision', 'preference', 'task', 'intention', 'plan', 'commitment', 'action',
  'cancellation', 'outcome', 'rule', 'insight',
] as const;
export type MemoryType = (typeof MEMORY_TYPES)[number];

/** Produced by the server (consolidation, rules): a client may not write them. */
export const SERVER_MEMORY_TYPES = ['outcome', 'rule', 'insight'] as const;

/** What a client may write; `semantic` is the deprecated alias of fact. */
export const CLIENT_MEMORY_TYPES = [
  ...MEMORY_TYPES.filter((t) => !(SERVER_MEMORY_TYPES as readonly string[]).includes(t)),
  'semantic',
] as const;

export const STATUSES = ['active', 'pending', 'confirmed', 'cancelled', 'outdated', 'conflicted', 'archived'] as const;
export type MemoryStatus = (typeof STATUSES)[number];

/** Statuses a client may set; outdated and conflicted belong to the contradiction detector. */
export const CLIENT_STATUSES = ['active', 'pending', 'confirmed', 'cancelled', 'archived'] as const;

/**
 * Targets of PATCH …/status: a client's statuses, outdated and conflicted set by hand (resolving
 * what the detector would), and `deleted`, a soft delete as Caura's clients send it.
 */
export const TRANSITION_STATUSES = [...CLIENT_STATUSES, 'outdated', 'conflicted', 'deleted'] as const;
export type TransitionStatus = (typeof TRANSITION_STATUSES)[number];

/** Answer of a status change: ours and Caura's names for the same facts. */
export interface StatusChange {
  id: string;
  status: string;
  previous_status: string;
  memory_id: string;
  old_status: string;
  new_status: string;
}

export const VISIBILITIES = ['scope_agent', 'scope_team', 'scope_org'] as const;
export type Visibility = (typeof VISIBILITIES)[number];

export const SORTS = [
  'created_at', 'weight', 'memory_type', 'agent_id', 'status', 'recall_count', 'fleet_id', 'tenant_id',
  'expires_at', 'deleted_at',
] as const;
export type SortColumn = (typeof SORTS)[number];

export const CONTENT_MAX = 10_000;
export const DEFAULT_WEIGHT = 0.5;
export const DEFAULT_VISIBILITY: Visibility = 'scope_team';

/** Folds the deprecated alias; every other value passes through. */
export const canonicalType = (t: string): string => (t === 'semantic' ? 'fact' : t);

export interface EntityLink {
  entity_id: string;
  name: string;
  entity_type: string;
  role: string;
}

export interface SupersededEntry {
  old_memory_id: string;
  old_status: string;
  reason: string;
  old_content_preview: string;
}

/** The memory record of spec 2.1 (list items and write/update responses). */
export interface MemoryRecord {
  id: string;
  tenant_id: string;
  fleet_id: string | null;
  agent_id: string;
  memory_type: string;
  title: string | null;
  content: string;
  weight: number;
  source_uri: string | null;
  run_id: string | null;
  metadata: Record<string, unknown>;
  created_at: string;
  updated_at: string;
  expires_at: string | null;
  deleted_at: string | null;
  entity_links: EntityLink[];
  subject_entity_id: string | null;
  predicate: string | null;
  object_value: string | null;
  ts_valid_start: string | null;
  ts_valid_end: string | null;
  status: string;
  visibility: string;
  recall_count: number;
  last_recalled_at: string | null;
  supersedes_id: string | null;
}

export interface MemoryDetail extends MemoryRecord {
  embedding: number[] | null;
  embedding_model: string | null;
}

export interface Usage {
  memories_stored: number;
  memories_limit: number;
  writes_remaining: number;
}

export interface WrittenMemory extends MemoryRecord {
  superseded_by: SupersededEntry[];
  usage: Usage;
}

export interface CreateMemoryInput {
  /** Omitted: the caller's tenant. */
  tenant_id?: string;
  /** Omitted: the caller's agent, else "default". */
  agent_id?: string;
  content: string;
  fleet_id?: string | null;
  memory_type?: string | null;
  title?: string | null;
  weight?: number | null;
  source_uri?: string | null;
  run_id?: string | null;
  metadata?: Record<string, unknown> | null;
  expires_at?: string | null;
  subject_entity_id?: string | null;
  predicate?: string | null;
  object_value?: string | null;
  ts_valid_start?: string | null;
  ts_valid_end?: string | null;
  status?: string | null;
  visibility?: string | null;
  /** Caura's tags: stored as metadata.tags. */
  tags?: string[] | null;
  /** Caura's write mode (fast, strong, auto): every write here is complete when it answers. */
  write_mode?: string | null;
}

/** Fields of PATCH; undefined = leave as is, null = clear (nullable columns only). */
export interface UpdateMemoryInput {
  title?: string | null;
  content?: string;
  metadata?: Record<string, unknown>;
  metadata_mode?: 'merge' | 'replace';
  memory_type?: string;
  weight?: number;
  status?: string;
  visibility?: string;
  expires_at?: string | null;
  source_uri?: string | null;
  subject_entity_id?: string | null;
  predicate?: string | null;
  object_value?: string | null;
  ts_valid_start?: string | null;
  ts_valid_end?: string | null;
}

/** Who reads or writes, after tenant and agent resolution. */
export interface Actor {
  tenantId: string;
  /** The viewing/acting agent (rule 1); null = a tenant-wide caller without an agent. */
  agentId: string | null;
  /** Admins see and change every row of a tenant whatever its visibility. */
  admin: boolean;
}
