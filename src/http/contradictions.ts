// GET /api/v1/memories/{memory_id}/contradictions (spec 2.2): the detector's findings for one memory.
import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import type { Services } from '../services.js';
import { errorResponses, DateTime, Uuid } from './schemas.js';
import { MemoryIdParams, StrEnum, TenantAgentQuery } from './memory-schemas.js';

const itemFields = {
  id: Uuid,
  status: Type.String({ description: 'Status of the other memory' }),
  reason: StrEnum(['rdf_conflict', 'semantic_conflict'] as const, {
    description: 'rdf_conflict when the row that lost is outdated, semantic_conflict when it is conflicted',
  }),
  content_preview: Type.String({ description: 'The first 200 characters of the other memory' }),
  created_at: DateTime,
};

const FindingItem = Type.Object(itemFields);

const ContradictionItem = Type.Object({
  ...itemFields,
  direction: StrEnum(['superseded_by', 'supersedes'] as const, {
    description: 'superseded_by: the other (newer) memory replaced this one; supersedes: this memory replaced the other (older) one',
  }),
});

export const ContradictionFindingsSchema = Type.Object({
  detection_status: StrEnum(['completed', 'pending'] as const, {
    description: 'completed when any contradiction evidence exists for the memory (it has supersedes_id, another row supersedes it, ' +
      'or its own status is outdated or conflicted); otherwise pending, which covers both not-yet-run and found-nothing',
  }),
  contradictions: Type.Array(ContradictionItem),
  superseded_by: Type.Array(FindingItem, { description: 'Kept for back-compat: the newer memories that replaced this one' }),
  superseded_memories: Type.Array(FindingItem, { description: 'Kept for back-compat: the older memory this one replaced' }),
});

export const contradictionRoutes = (s: Services): FastifyPluginAsync => async (app) => {
  app.get('/api/v1/memories/:memory_id/contradictions', {
    schema: {
      tags: ['memories'], summary: 'Contradiction findings of a memory',
      description: 'The supersedes links and statuses the contradiction detector recorded for this memory, from both sides. ' +
        'Read-only. Memories the caller may not see are not listed.',
      params: MemoryIdParams,
      querystring: TenantAgentQuery,
      response: { 200: ContradictionFindingsSchema, ...errorResponses(404) },
    },
  }, async (req) => s.contradictions.findings(
    req.caller, (req.params as Static<typeof MemoryIdParams>).memory_id, req.query as Static<typeof TenantAgentQuery>,
  ));
};
