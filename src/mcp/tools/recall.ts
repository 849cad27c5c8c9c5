// loci_recall (Caura's caura_recall): hybrid search; with include_brief, the recall answer and its summary.
import { Type } from 'typebox';
import type { SearchRequest } from '../../core/search/service.js';
import { SearchBody } from '../../http/search.js';
import { actingAgent, arg, defineTool, identityArgs, pick, requiredArg } from '../tool.js';

const P = SearchBody.properties;
const input = Type.Object({
  query: requiredArg(P.query, 'Natural-language query'),
  agent_id: arg(P.agent_id, "You (your scope_agent memories are included). Default: the key's agent, else mcp-agent"),
  filter_agent_id: arg(P.filter_agent_id, 'Only memories this agent wrote'),
  ...pick(SearchBody, ['memory_type', 'status', 'fleet_id', 'fleet_ids', 'valid_at']),
  top_k: arg(P.top_k),
  include_brief: Type.Optional(Type.Boolean({ default: false, description: 'Add a summary of the results (the recall answer)' })),
  ...identityArgs,
}, { additionalProperties: false });

type Args = SearchRequest & { include_brief?: boolean };

export const tool = defineTool<Args>({
  name: 'loci_recall',
  order: 20,
  description: 'Find memories by meaning and words (hybrid vector + keyword + entity search). ' +
    'include_brief=true adds a summary citing memory ids. To browse by metadata use loci_list; by id, loci_manage op=read.',
  input,
  trust: 0,
  stm_only: false,
  rate: 'search',
  rest: { search: 'POST /api/v1/search', brief: 'POST /api/v1/recall' },
  async handler(ctx, { include_brief, ...a }) {
    const req = { ...a, agent_id: actingAgent(ctx, a.agent_id) };
    return include_brief ? ctx.services.search.recall(ctx.caller, req) : ctx.services.search.search(ctx.caller, req);
  },
});
