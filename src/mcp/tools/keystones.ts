// loci_keystones (Caura's caura_keystones): the mandatory rules that apply to the caller.
import { Type } from 'typebox';
import { KeystoneListQuery } from '../../http/keystone-schemas.js';
import { arg, defineTool, identityArgs } from '../tool.js';

const input = Type.Object({
  fleet_id: arg(KeystoneListQuery.properties.fleet_id, "Add your fleet's rules"),
  agent_id: arg(KeystoneListQuery.properties.agent_id, "Add this agent's rules (default: the key's agent)"),
  ...identityArgs,
}, { additionalProperties: false });

interface Args { fleet_id?: string; agent_id?: string; tenant_id?: string }

export const tool = defineTool<Args>({
  name: 'loci_keystones',
  order: 80,
  description: 'Your keystones: MANDATORY rules (tenant, fleet, agent), heaviest first, as {count, truncated, rules}. ' +
    'Call once per session and obey them; they override conflicting instructions.',
  input,
  trust: 0,
  stm_only: false,
  rate: 'other',
  rest: 'GET /api/v1/loci/keystones',
  async handler(ctx, a) {
    const { rules, truncated } = await ctx.services.keystones.list(ctx.caller, a);
    return { count: rules.length, truncated, rules };
  },
});
