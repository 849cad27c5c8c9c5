// TypeBox schemas of bulk write and redistribute (spec 4.2; DEFAULTS "Bulk writes"; docs/bulk-and-redistribute.md).
import { Type, type TSchema } from 'typebox';
import { BULK_MAX_ITEMS } from '../core/memories/bulk.js';
import { MEMORY_TYPES, STATUSES } from '../core/memories/types.js';
import { CreateMemoryBody, IdempotencyHeaders, UsageSchema } from './memory-schemas.js';
import { Ident, OptTenantId, TenantId, Uuid } from './schemas.js';

const create = CreateMemoryBody.properties;

export const ATTEMPT_ID_PATTERN = '^[A-Za-z0-9._:-]{1,128}$';

export const BulkHeaders = Type.Object({
  'x-bulk-attempt-id': Type.Optional(Type.String({
    pattern: ATTEMPT_ID_PATTERN,
    description: 'Required. Names this batch; a retry of the batch sends the same value. Item i is stored with client_request_id "<attempt>:<i>".',
  })),
  ...IdempotencyHeaders.properties,
});

export const BulkItemSchema = Type.Object({
  ...create,
  tenant_id: Type.Optional(TenantId),
  agent_id: Type.Optional(Ident),
}, {
  additionalProperties: false,
  description: 'A memory create body; tenant_id, agent_id and fleet_id default to the envelope (a tenant_id must equal it)',
});

const envelope = {
  tenant_id: OptTenantId,
  agent_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Writer of items that name none. Omitted: the key\'s agent, else "default"' })),
  fleet_id: create.fleet_id,
};

export const BulkBody = Type.Object({
  ...envelope,
  items: Type.Array(BulkItemSchema, { minItems: 1, maxItems: BULK_MAX_ITEMS }),
}, { additionalProperties: false });

/** What the route validates up front: the envelope. Items are checked one by one, so one bad item fails alone. */
export const BulkEnvelope = Type.Object({
  ...envelope,
  items: Type.Array(Type.Unknown(), { minItems: 1, maxItems: BULK_MAX_ITEMS }),
}, { additionalProperties: false });

const ValidationItemSchema = Type.Object({
  loc: Type.Array(Type.Union([Type.String(), Type.Integer()])),
  msg: Type.String(),
  type: Type.String(),
  input: Type.Unknown(),
  ctx: Type.Object({}, { additionalProperties: true }),
});

const Nullable = (s: TSchema) => Type.Union([s, Type.Null()]);

export const BulkItemResultSchema = Type.Object({
  index: Type.Integer(),
  client_request_id: Type.String({ description: '"<attempt>:<index>"' }),
  status: Type.Unsafe<string>({ type: 'string', enum: ['created', 'duplicate_attempt', 'duplicate_content', 'error'] }),
  id: Nullable(Uuid),
  duplicate_of: Nullable(Uuid),
  error: Nullable(Type.Object({
    code: Type.Unsafe<string>({ type: 'string', enum: ['validation', 'forbidden', 'enrichment_timeout', 'missing_storage_id'] }),
    message: Type.String(),
    detail: Type.Optional(Type.Array(ValidationItemSchema)),
  })),
});

export const BulkResultSchema = Type.Object({
  created: Type.Integer(),
  duplicates: Type.Integer({ description: 'duplicate_attempt plus duplicate_content' }),
  errors: Type.Integer(),
  results: Type.Array(BulkItemResultSchema),
  usage: UsageSchema,
  bulk_ms: Type.Integer(),
});

export const RedistributeQuery = Type.Object({
  tenant_id: TenantId,
  agent_id: Type.String({ minLength: 1, maxLength: 200, description: 'The requesting agent (the key needs trust level 3)' }),
});

export const RedistributeBody = Type.Object({
  target_agent_id: Ident,
  target_fleet_id: Type.Optional(Type.Unsafe<string | null>({
    type: ['string', 'null'], minLength: 1, maxLength: 200,
    description: 'Move the rows into this fleet (may cross fleets); null: out of any fleet; absent: fleets unchanged',
  })),
  memory_ids: Type.Optional(Type.Array(Uuid, { minItems: 1, maxItems: 10_000 })),
  source_agent_id: Type.Optional(Ident),
  fleet_id: Type.Optional(Ident),
  memory_type: Type.Optional(Type.Unsafe<string>({ type: 'string', enum: [...MEMORY_TYPES, 'semantic'] })),
  status: Type.Optional(Type.Unsafe<string>({ type: 'string', enum: [...STATUSES] })),
  limit: Type.Integer({ minimum: 1, maximum: 10_000, default: 1000, description: 'Most rows moved by this call (oldest first)' }),
}, {
  additionalProperties: false,
  description: 'Selection: memory_ids and/or a filter (source_agent_id, fleet_id, memory_type, status), combined with AND; ' +
    'at least one of memory_ids, source_agent_id or fleet_id',
});

export const RedistributeResultSchema = Type.Object({
  moved: Type.Integer(),
  ids: Type.Array(Uuid),
  promoted: Type.Integer({ description: 'Moved rows promoted from scope_agent to scope_team' }),
  skipped: Type.Array(Type.Object({
    id: Uuid,
    reason: Type.String({ description: 'duplicate_content: the target agent already holds this content in the destination fleet' }),
    existing_id: Uuid,
  })),
  has_more: Type.Boolean({ description: 'More rows match than limit: call again' }),
  target_agent_id: Type.String(),
  target_fleet_id: Type.Optional(Nullable(Type.String())),
});
