// TypeBox schemas of the memory endpoints (spec 2.1, 4.2, 4.4; DEFAULTS "Memories", "Lists").
import { Type, type Static, type TSchema } from 'typebox';
import {
  CLIENT_MEMORY_TYPES, CLIENT_STATUSES, CONTENT_MAX, MEMORY_TYPES, SORTS, STATUSES, TRANSITION_STATUSES, VISIBILITIES,
} from '../core/memories/types.js';
import { MEMORY_SCOPES } from '../core/memories/scope.js';
import { AnyObject, DateTime, Ident, OptTenantId, TenantId, Uuid } from './schemas.js';

/** A string enum (`{type: string, enum}`): one clear 422 item instead of an anyOf cascade. */
export const StrEnum = <T extends string>(values: readonly T[], opts: Record<string, unknown> = {}) =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], ...opts });

/** `type: ['string', 'null']`: a nullable string that fails with one item, not an anyOf cascade. */
export function nullable(s: TSchema) {
  const { type: _type, ...rest } = s as unknown as Record<string, unknown>;
  return Type.Unsafe<string | null>({ ...rest, type: ['string', 'null'] });
}

const TITLE_MAX = 500;
const Title = Type.String({ maxLength: TITLE_MAX, description: 'Omitted or null: a short title is derived from the content' });
const Content = Type.String({
  minLength: 1,
  description: `1 to ${CONTENT_MAX} characters after trimming surrounding whitespace`,
});
const Weight = Type.Number({ minimum: 0, maximum: 1, description: 'Importance 0.0–1.0 (default 0.5)' });
const SourceUri = Type.String({ maxLength: 2048 });
const RunId = Type.String({ minLength: 1, maxLength: 200 });
const Predicate = Type.String({ minLength: 1, maxLength: 200 });
const ObjectValue = Type.String({ maxLength: 2000 });
const Metadata = Type.Unsafe<Record<string, unknown>>(
  Type.Object({}, { additionalProperties: true, description: 'Free-form key/value map (at most 64 KiB as JSON)' }));
const MemoryTypeIn = StrEnum(CLIENT_MEMORY_TYPES, {
  description: 'fact, episode, decision, preference, task, intention, plan, commitment, action, cancellation; ' +
    '`semantic` is a deprecated alias of fact. outcome, rule and insight are server-produced. ' +
    'Omitted: inferred from the content (metadata.enriched_by says so; fact when LOCI_ENRICH=off).',
});
const StatusIn = StrEnum(CLIENT_STATUSES);
const VisibilityEnum = StrEnum(VISIBILITIES, { description: 'scope_agent: only its agent; scope_team / scope_org: the whole tenant' });
export const MemoryTypeFilter = StrEnum([...MEMORY_TYPES, 'semantic']);
export const StatusFilter = StrEnum(STATUSES);

const Nullable = (s: TSchema) => Type.Union([s, Type.Null()]);

export const EntityLinkSchema = Type.Object({
  entity_id: Uuid,
  name: Type.String(),
  entity_type: Type.String(),
  role: Type.String({ description: 'subject, object or mention' }),
});

export const MemorySchema = Type.Object({
  id: Uuid,
  tenant_id: Type.String(),
  fleet_id: Nullable(Type.String()),
  agent_id: Type.String(),
  memory_type: Type.String(),
  title: Nullable(Type.String()),
  content: Type.String(),
  weight: Type.Number(),
  source_uri: Nullable(Type.String()),
  run_id: Nullable(Type.String({ description: 'Set for memories written by an ingest run' })),
  metadata: AnyObject,
  created_at: DateTime,
  updated_at: DateTime,
  expires_at: Nullable(DateTime),
  deleted_at: Nullable(Type.String({ format: 'date-time', description: 'Set when soft-deleted' })),
  entity_links: Type.Array(EntityLinkSchema),
  subject_entity_id: Nullable(Uuid),
  predicate: Nullable(Type.String()),
  object_value: Nullable(Type.String()),
  ts_valid_start: Nullable(DateTime),
  ts_valid_end: Nullable(DateTime),
  status: Type.String({ description: STATUSES.join(', ') }),
  visibility: Type.String({ description: VISIBILITIES.join(', ') }),
  recall_count: Type.Integer(),
  last_recalled_at: Nullable(DateTime),
  supersedes_id: Nullable(Uuid),
}, { $id: 'Memory', additionalProperties: true, description: 'A memory record' });

const MemoryRef = Type.Ref('Memory');

export const SupersededSchema = Type.Object({
  old_memory_id: Uuid,
  old_status: Type.String(),
  reason: Type.String(),
  old_content_preview: Type.String(),
});

export const UsageSchema = Type.Object({
  memories_stored: Type.Integer(),
  memories_limit: Type.Integer(),
  writes_remaining: Type.Integer(),
});

export const MemoryWrittenSchema = Type.Intersect([
  MemoryRef,
  Type.Object({ superseded_by: Type.Array(SupersededSchema), usage: UsageSchema }),
]);

export const MemoryUpdatedSchema = Type.Intersect([MemoryRef, Type.Object({ superseded_by: Type.Array(SupersededSchema) })]);

export const MemoryDetailSchema = Type.Intersect([
  MemoryRef,
  Type.Object({
    embedding: Nullable(Type.Array(Type.Number())),
    embedding_model: Nullable(Type.String()),
  }),
]);

export const MemoryPageSchema = Type.Object({
  items: Type.Array(MemoryRef),
  next_cursor: Nullable(Type.String({ description: 'Opaque; pass as `cursor` for the next page. Only with sort=created_at&order=desc' })),
});

export const CreateMemoryBody = Type.Object({
  tenant_id: OptTenantId,
  agent_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'The writer. Omitted: the key\'s agent, else "default"' })),
  content: Content,
  fleet_id: Type.Optional(nullable(Ident)),
  memory_type: Type.Optional(MemoryTypeIn),
  title: Type.Optional(nullable(Title)),
  weight: Type.Optional(Weight),
  source_uri: Type.Optional(nullable(SourceUri)),
  run_id: Type.Optional(nullable(RunId)),
  metadata: Type.Optional(Metadata),
  expires_at: Type.Optional(nullable(DateTime)),
  subject_entity_id: Type.Optional(nullable(Uuid)),
  predicate: Type.Optional(nullable(Predicate)),
  object_value: Type.Optional(nullable(ObjectValue)),
  ts_valid_start: Type.Optional(nullable(DateTime)),
  ts_valid_end: Type.Optional(nullable(DateTime)),
  status: Type.Optional(StatusIn),
  visibility: Type.Optional(VisibilityEnum),
  tags: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
    maxItems: 50, description: 'Kept as metadata.tags (after any metadata.tags given)',
  })),
  write_mode: Type.Optional(StrEnum(['fast', 'strong', 'auto'] as const, {
    description: 'Accepted for Caura clients: every write is complete (embedded, extracted, stored) when it answers',
  })),
}, { additionalProperties: false, description: 'Fields not listed are refused (422 extra_forbidden)' });
export type CreateMemoryBody = Static<typeof CreateMemoryBody>;

const MetadataMode = StrEnum(['merge', 'replace'] as const, {
  description: 'merge (default): top-level keys of `metadata` are set, others kept; replace: `metadata` overwrites',
});

export const UpdateMemoryBody = Type.Object({
  title: Type.Optional(nullable(Title)),
  content: Type.Optional(Content),
  metadata: Type.Optional(Metadata),
  metadata_mode: Type.Optional(MetadataMode),
  memory_type: Type.Optional(MemoryTypeIn),
  weight: Type.Optional(Weight),
  status: Type.Optional(StatusIn),
  visibility: Type.Optional(VisibilityEnum),
  expires_at: Type.Optional(nullable(DateTime)),
  source_uri: Type.Optional(nullable(SourceUri)),
  subject_entity_id: Type.Optional(nullable(Uuid)),
  predicate: Type.Optional(nullable(Predicate)),
  object_value: Type.Optional(nullable(ObjectValue)),
  ts_valid_start: Type.Optional(nullable(DateTime)),
  ts_valid_end: Type.Optional(nullable(DateTime)),
}, { additionalProperties: false, description: 'Only the fields present change; null clears a nullable field' });
export type UpdateMemoryBody = Static<typeof UpdateMemoryBody>;

export const TransitionStatus = StrEnum(TRANSITION_STATUSES, {
  description: 'active, pending, confirmed, cancelled, archived; outdated or conflicted to resolve by hand; deleted = soft delete',
});

export const StatusBody = Type.Object({ status: TransitionStatus }, { additionalProperties: false });

export const StatusResult = Type.Object({
  id: Uuid,
  status: Type.String(),
  previous_status: Type.String(),
  memory_id: Type.String({ format: 'uuid', description: 'Caura\'s name for id' }),
  old_status: Type.String({ description: 'Caura\'s name for previous_status' }),
  new_status: Type.String({ description: 'Caura\'s name for status' }),
});

export const MemoryIdParams = Type.Object({ memory_id: Uuid });

const TenantQ = { tenant_id: OptTenantId };
export const ViewerAgent = Type.Optional(Type.String({
  minLength: 1, maxLength: 200,
  description: 'The viewing agent: its scope_agent memories become visible. An agent-scoped key is always its own viewer.',
}));
const IncludeDeleted = Type.Boolean({ default: false });

export const ItemQuery = Type.Object({ ...TenantQ, agent_id: ViewerAgent, include_deleted: IncludeDeleted });

export const UpdateQuery = Type.Object({
  ...TenantQ,
  agent_id: ViewerAgent,
  metadata_mode: Type.Optional(MetadataMode),
});

export const TenantAgentQuery = Type.Object({ ...TenantQ, agent_id: ViewerAgent });

const listParams = {
  tenant_id: Type.Optional(TenantId),
  fleet_id: Type.Optional(Ident),
  agent_id: ViewerAgent,
  filter_agent_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Only memories written by this agent (author filter)' })),
  memory_type: Type.Optional(MemoryTypeFilter),
  exclude_memory_types: Type.Optional(Type.Array(Type.String({ maxLength: 500 }), {
    maxItems: 50, description: 'Repeat the parameter and/or give a comma-separated list',
  })),
  status: Type.Optional(StatusFilter),
  visibility: Type.Optional(VisibilityEnum),
  run_id: Type.Optional(RunId),
  created_after: Type.Optional(DateTime),
  created_before: Type.Optional(DateTime),
  weight_min: Type.Optional(Type.Number({ minimum: 0, maximum: 1, description: 'Only memories at least this heavy' })),
  weight_max: Type.Optional(Type.Number({ minimum: 0, maximum: 1, description: 'Only memories at most this heavy' })),
  cursor: Type.Optional(Type.String({ maxLength: 200, description: 'next_cursor of the previous page (sort=created_at&order=desc only)' })),
  sort: StrEnum(SORTS, { default: 'created_at' }),
  order: StrEnum(['asc', 'desc'] as const, { default: 'desc' }),
  offset: Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 }),
  limit: Type.Integer({ minimum: 1, maximum: 500, default: 50 }),
  include_deleted: IncludeDeleted,
};

/** Caura's list and stats parameters: whose memories (scope) and the author under its name. */
const cauraListParams = {
  scope: Type.Optional(StrEnum(MEMORY_SCOPES, {
    description: 'agent: what the acting agent (agent_id, else the key\'s) wrote; fleet: one fleet (needs fleet_id); all: the tenant. ' +
      'Omitted: every memory the caller can see. Visibility rules apply in every scope',
  })),
  written_by: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: "Caura's name for filter_agent_id" })),
};

export const ListQuerySchema = Type.Object({ ...listParams, ...cauraListParams }, {
  additionalProperties: false, description: 'A parameter not listed is refused (422), never ignored',
});
export type ListQueryT = Static<typeof ListQuerySchema>;

export const AdminListQuerySchema = Type.Object({
  ...listParams,
  tenant_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Omit to list across every tenant' })),
  agent_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Only memories written by this agent (admins see every visibility)' })),
});

export const DeleteWhereQuery = Type.Object({
  // Required even where other requests default it: a delete by filter names the tenant it empties.
  tenant_id: TenantId,
  fleet_id: Type.Optional(Ident),
  agent_id: Type.Optional(Type.String({
    minLength: 1, maxLength: 200,
    description: 'Only memories written by this agent. An agent-scoped key always deletes only its own memories.',
  })),
  memory_type: Type.Optional(MemoryTypeFilter),
  status: Type.Optional(StatusFilter),
});

export const DeleteWhereBody = Type.Object({
  exclude_ids: Type.Optional(Type.Array(Uuid, { maxItems: 10_000 })),
  metadata_filter: Type.Optional(Type.Unsafe<Record<string, unknown>>(
    Type.Object({}, { additionalProperties: true, description: 'Equality on metadata keys, combined with AND' }))),
}, { additionalProperties: false });

export const BulkDeleteBody = Type.Object({
  tenant_id: OptTenantId,
  ids: Type.Array(Uuid, { minItems: 1, maxItems: 1000 }),
  agent_id: ViewerAgent,
}, { additionalProperties: false });

export const StatsQuery = Type.Object({
  tenant_id: Type.Optional(TenantId),
  fleet_id: Type.Optional(Ident),
  agent_id: ViewerAgent,
  filter_agent_id: listParams.filter_agent_id,
  memory_type: Type.Optional(MemoryTypeFilter),
  status: Type.Optional(StatusFilter),
  include_deleted: IncludeDeleted,
  ...cauraListParams,
}, { additionalProperties: false });

const Counts = Type.Record(Type.String(), Type.Integer());

export const StatsSchema = Type.Object({
  total: Type.Integer({ description: 'Non-deleted memories' }),
  by_type: Counts,
  by_agent: Counts,
  by_status: Counts,
  deleted: Type.Optional(Type.Integer({ description: 'With include_deleted=true' })),
  total_including_deleted: Type.Optional(Type.Integer({ description: 'With include_deleted=true' })),
});

export const AdminStatsSchema = Type.Intersect([StatsSchema, Type.Object({ by_tenant: Counts })]);

export const CountQuery = Type.Object({ tenant_id: Type.Optional(TenantId), fleet_id: Type.Optional(Ident), agent_id: ViewerAgent });

export const TenantsSchema = Type.Object({ tenants: Type.Array(Type.String()) });

export const FleetsSchema = Type.Object({
  fleets: Type.Array(Type.Object({ fleet_id: Type.String(), count: Type.Integer() })),
});

export const AdminFleetsSchema = Type.Object({
  fleets: Type.Array(Type.Object({ tenant_id: Type.String(), fleet_id: Type.String(), count: Type.Integer() })),
});

export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'Replays the final response of a retried request for 24 h' })),
});
