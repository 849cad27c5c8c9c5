// loci_entity_get (Caura's caura_entity_get): one entity of the knowledge graph by id.
import { Type } from 'typebox';
import { EntityDetailQuery, EntityIdParams } from '../../http/graph.js';
import { actingAgent, arg, defineTool, identityArgs, requiredArg } from '../tool.js';

const input = Type.Object({
  entity_id: requiredArg(EntityIdParams.properties.entity_id, 'From entity_links of a memory'),
  agent_id: arg(EntityDetailQuery.properties.agent_id, "You. Default: the key's agent, else mcp-agent"),
  fleet_id: arg(EntityDetailQuery.properties.fleet_id),
  ...identityArgs,
}, { additionalProperties: false });

interface Args { entity_id: string; agent_id?: string; fleet_id?: string; tenant_id?: string }

export const tool = defineTool<Args>({
  name: 'loci_entity_get',
  order: 60,
  description: 'An entity (person, organization, place, …) by id, with its relations and the memories mentioning it. ' +
    'Use an entity_id from a memory\'s entity_links.',
  input,
  trust: 0,
  stm_only: false,
  rate: 'other',
  rest: 'GET /api/v1/entities/:entity_id',
  handler: (ctx, { entity_id, ...q }) => ctx.services.graph.entity(ctx.caller, entity_id, { ...q, agent_id: actingAgent(ctx, q.agent_id) }),
});
