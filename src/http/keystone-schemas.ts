// TypeBox schemas of keystones (spec 2.4, 4.6), shared by the REST routes and the MCP tools.
import { Type } from 'typebox';
import {
  KEYSTONE_CONTENT_MAX, KEYSTONE_LIST_MAX, KEYSTONE_SCOPES, KEYSTONE_TITLE_MAX, KEYSTONE_WEIGHTS,
} from '../core/keystones.js';
import { DOC_ID_PATTERN } from '../core/documents/rules.js';
import { StrEnum, nullable } from './memory-schemas.js';
import { DateTime, Ident, Slug, TenantId, Uuid } from './schemas.js';

const Scope = StrEnum(KEYSTONE_SCOPES, { description: 'tenant: everyone; fleet: one fleet (fleet_id); agent: one agent (agent_id)' });
const WeightLabel = StrEnum(Object.keys(KEYSTONE_WEIGHTS) as (keyof typeof KEYSTONE_WEIGHTS)[], {
  description: 'low, med or high; stored and returned as 25, 50, 100',
});

export const KeystoneSchema = Type.Object({
  id: Uuid,
  tenant_id: Type.String(),
  doc_id: Type.String(),
  title: Type.String(),
  content: Type.String(),
  scope: Type.String(),
  weight: Type.Integer({ description: '25 (low), 50 (med) or 100 (high)' }),
  weight_label: Type.String(),
  fleet_id: Type.Union([Type.String(), Type.Null()]),
  agent_id: Type.Union([Type.String({ description: 'The agent an agent-scope rule binds' }), Type.Null()]),
  author_user_id: Type.Union([Type.String(), Type.Null()]),
  created_at: DateTime,
  updated_at: DateTime,
  data: Type.Object({}, { additionalProperties: true, description: 'title, content, weight, scope (and agent_id) as a document, for Caura clients' }),
}, { $id: 'Keystone' });

export const KeystoneListQuery = Type.Object({
  tenant_id: Type.Optional(TenantId),
  fleet_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Add the rules of this fleet' })),
  agent_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Add the rules of this agent (an agent-bound key: its own)' })),
});

export const KeystoneBody = Type.Object({
  tenant_id: Type.Optional(TenantId),
  doc_id: Type.String({ pattern: DOC_ID_PATTERN.source, description: 'Stable id of the rule; writing it again replaces the rule' }),
  title: Type.String({ minLength: 1, maxLength: KEYSTONE_TITLE_MAX }),
  content: Type.String({ minLength: 1, maxLength: KEYSTONE_CONTENT_MAX, description: 'The rule' }),
  scope: Scope,
  weight: WeightLabel,
  fleet_id: Type.Optional(nullable(Ident)),
  agent_id: Type.Optional(nullable(Type.String({ minLength: 1, maxLength: 200, description: 'scope=agent: the agent the rule binds (not the caller)' }))),
  author_user_id: Type.Optional(nullable(Type.String({ minLength: 1, maxLength: 200 }))),
}, { additionalProperties: false });

export const KeystoneDocParams = Type.Object({ doc_id: Slug });
export const KeystoneDeleteQuery = Type.Object({ tenant_id: Type.Optional(TenantId) });
export const KeystoneDeleted = Type.Object({ deleted: Type.Boolean(), doc_id: Type.String() });

export const KeystoneAgentHeader = Type.Object({
  'x-agent-id': Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Must equal the agent the key is bound to (403 otherwise)' })),
});

export const KEYSTONE_LIST_DOC = `Tenant rules, plus the fleet's with fleet_id and the agent's with agent_id, heaviest first, ` +
  `at most ${KEYSTONE_LIST_MAX} (X-Truncated: true when more exist).`;
