// loci_list (Caura's caura_list): browse memories by metadata, with Caura's scope and names.
import { Type } from 'typebox';
import type { ListQuery } from '../../core/memories/service.js';
import { MEMORY_SCOPES, scopeFilter } from '../../core/memories/scope.js';
import { ListQuerySchema, StrEnum } from '../../http/memory-schemas.js';
import { actingAgent, arg, defineTool, identityArgs, pick } from '../tool.js';

const P = ListQuerySchema.properties;
export const ScopeArg = Type.Optional(StrEnum(MEMORY_SCOPES, {
  default: 'agent', description: 'agent: what you wrote; fleet: one fleet (fleet_id); all: the whole tenant',
}));

const input = Type.Object({
  scope: ScopeArg,
  agent_id: arg(P.agent_id, "You. Default: the key's agent, else mcp-agent"),
  written_by: arg(P.filter_agent_id, 'Author (scope fleet/all)'),
  ...pick(ListQuerySchema, ['fleet_id', 'memory_type', 'status', 'weight_min', 'weight_max', 'created_after', 'created_before', 'cursor']),
  sort: arg(P.sort),
  order: arg(P.order),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 25 })),
  include_deleted: arg(P.include_deleted),
  ...identityArgs,
}, { additionalProperties: false });

type Args = Omit<ListQuery, 'filter_agent_id'> & { scope?: (typeof MEMORY_SCOPES)[number]; written_by?: string };

export const tool = defineTool<Args>({
  name: 'loci_list',
  order: 30,
  description: 'Browse memories by metadata (not by meaning): filter, sort, page. Cursor paging needs sort=created_at, ' +
    'order=desc. Answer: {items, next_cursor}.',
  input,
  trust: 0,
  stm_only: false,
  rate: 'other',
  rest: 'GET /api/v1/memories',
  async handler(ctx, { scope = 'agent', written_by, ...a }) {
    const agent = actingAgent(ctx, a.agent_id);
    const scoped = scopeFilter(scope, agent, { filter_agent_id: written_by, fleet_id: a.fleet_id }, { author: 'written_by', fleet: 'fleet_id' });
    return ctx.services.memories.list(ctx.caller, { ...a, ...scoped, agent_id: agent });
  },
});
