// loci_stats (Caura's caura_stats): counts by type, agent and status, with Caura's scope.
import { Type } from 'typebox';
import type { StatsQuery } from '../../core/memories/service.js';
import { scopeFilter, type MemoryScope } from '../../core/memories/scope.js';
import { StatsQuery as StatsQuerySchema } from '../../http/memory-schemas.js';
import { actingAgent, arg, defineTool, identityArgs, pick } from '../tool.js';
import { ScopeArg } from './list.js';

const input = Type.Object({
  scope: ScopeArg,
  agent_id: arg(StatsQuerySchema.properties.agent_id, "You. Default: the key's agent, else mcp-agent"),
  ...pick(StatsQuerySchema, ['fleet_id', 'memory_type', 'status']),
  include_deleted: arg(StatsQuerySchema.properties.include_deleted, 'Also count deleted ones (deleted, total_including_deleted)'),
  ...identityArgs,
}, { additionalProperties: false });

type Args = Omit<StatsQuery, 'filter_agent_id'> & { scope?: MemoryScope };

export const tool = defineTool<Args>({
  name: 'loci_stats',
  order: 70,
  description: 'Memory counts: {total, by_type, by_agent, by_status, scope}.',
  input,
  trust: 0,
  stm_only: false,
  rate: 'other',
  rest: 'GET /api/v1/memories/stats',
  async handler(ctx, { scope = 'agent', ...a }) {
    const agent = actingAgent(ctx, a.agent_id);
    const scoped = scopeFilter(scope, agent, { fleet_id: a.fleet_id });
    return { ...(await ctx.services.memories.stats(ctx.caller, { ...a, ...scoped, agent_id: agent })), scope };
  },
});
