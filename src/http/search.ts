// Search and recall (spec 4.3; DEFAULTS "Search and recall"): schema + parse → SearchService.
import type { FastifyPluginAsync } from 'fastify';
import { Type } from 'typebox';
import type { Services } from '../services.js';
import type { SearchRequest } from '../core/search/service.js';
import { QUERY_MAX_CHARS, TOP_K } from '../core/search/service.js';
import { DateTime, Ident, OptTenantId, errorResponses } from './schemas.js';
import { MemoryTypeFilter, StatusFilter, ViewerAgent } from './memory-schemas.js';
import { searchAliases } from './caura-names.js';

const Rank = Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]);

export const SearchBody = Type.Object({
  tenant_id: OptTenantId,
  query: Type.String({ minLength: 1, maxLength: QUERY_MAX_CHARS, description: `1 to ${QUERY_MAX_CHARS} characters (not only whitespace)` }),
  fleet_id: Type.Optional(Ident),
  fleet_ids: Type.Optional(Type.Array(Ident, { minItems: 1, maxItems: 100, description: 'Memories of any of these fleets (with fleet_id: of any of all named)' })),
  agent_id: ViewerAgent,
  filter_agent_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Only memories written by this agent (author filter)' })),
  memory_type: Type.Optional(MemoryTypeFilter),
  memory_types: Type.Optional(Type.Array(MemoryTypeFilter, { minItems: 1, maxItems: 20, description: 'Memories of any of these types' })),
  memory_type_filter: Type.Optional(Type.Unsafe<string>({ ...MemoryTypeFilter, description: "Caura's name for memory_type" })),
  status: Type.Optional(StatusFilter),
  status_filter: Type.Optional(Type.Unsafe<string>({ ...StatusFilter, description: "Caura's name for status" })),
  valid_at: Type.Optional(Type.String({ format: 'date-time', description: 'Only memories valid at this instant: ts_valid_start <= t < ts_valid_end (an open end matches)' })),
  top_k: Type.Optional(Type.Integer({ minimum: TOP_K.min, maximum: TOP_K.max, default: TOP_K.default })),
  min_similarity: Type.Optional(Type.Number({ minimum: -1, maximum: 1, description: 'Drop results whose cosine similarity to the query is lower' })),
  include_deleted: Type.Optional(Type.Boolean({ default: false, description: 'Include soft-deleted memories' })),
  include_outdated: Type.Optional(Type.Boolean({ default: false, description: 'Include memories a newer one superseded (status outdated)' })),
  include_expired: Type.Optional(Type.Boolean({ default: false, description: 'Include memories whose expires_at has passed' })),
  diagnostic: Type.Optional(Type.Boolean({ default: false, description: 'Add per-leg ranks and fused scores to each item, and step timings' })),
}, { additionalProperties: false });

const ItemDiagnostic = Type.Object({
  score: Type.Number({ description: 'Fused score: rrf × boost' }),
  rrf: Type.Number({ description: 'Weighted reciprocal-rank-fusion score of the legs' }),
  boost: Type.Number({ description: 'Weight and recency multiplier' }),
  ranks: Type.Object({ vector: Rank, keyword: Rank, entity: Rank }, { description: '1-based rank in each leg; null where the leg did not find the memory' }),
});

const SearchItem = Type.Intersect([
  Type.Ref('Memory'),
  Type.Object({
    similarity: Type.Number({ description: 'Cosine similarity of the memory to the query' }),
    diagnostic: Type.Optional(ItemDiagnostic),
  }),
], { $id: 'SearchItem' });

const Ms = Type.Number();
const Count = Type.Union([Type.Integer(), Type.Null()]);
const SearchDiagnostic = Type.Object({
  timings_ms: Type.Object({ embed: Ms, analyze: Ms, keyword: Ms, entity: Ms, vector: Ms, fuse: Ms, hydrate: Ms, total: Ms }),
  candidates: Type.Object({ vector: Count, keyword: Count, entity: Count }),
  entities: Type.Array(Type.Object({
    id: Type.String({ format: 'uuid' }), name: Type.String(), mention_count: Type.Integer(),
    match: Type.Number({ description: '1: the query names the entity; less: a word of its name' }),
  }), { description: 'Entities the query named, as the entity leg used them' }),
  keyword_terms: Type.Array(Type.String(), { description: 'Lexemes the keyword leg searched, rarest first' }),
}, { description: 'With diagnostic: true' });

const SearchResponse = Type.Object({
  items: Type.Array(Type.Ref('SearchItem')),
  diagnostic: Type.Optional(SearchDiagnostic),
});

const RecallResponse = Type.Object({
  query: Type.String(),
  summary: Type.String({ description: 'Context summary citing memory ids in [brackets]; conflicted memories are flagged' }),
  summary_source: Type.Unsafe<'llm' | 'extractive'>({ type: 'string', enum: ['llm', 'extractive'] }),
  memory_count: Type.Integer(),
  memories: Type.Array(Type.Ref('SearchItem')),
  items: Type.Array(Type.Ref('SearchItem'), { description: 'The same list as memories' }),
  recall_ms: Type.Number(),
  diagnostic: Type.Optional(SearchDiagnostic),
});

const LEGS_DOC = 'Hybrid: a vector leg (HNSW cosine), a keyword leg (full text, any query term) and an entity leg ' +
  '(memories linked to entities the query names), fused by weighted reciprocal rank with small weight and recency boosts. ' +
  'Deleted, outdated and expired memories are left out unless asked for; conflicted ones are returned with their status. ' +
  'Without `agent_id`, scope_agent memories are hidden; with it, that agent\'s are included. Each returned memory\'s ' +
  'recall_count and last_recalled_at are updated.';

function searchRequest(body: unknown): SearchRequest {
  searchAliases(body as Record<string, unknown>);
  return body as SearchRequest;
}

export const searchRoutes = (s: Services): FastifyPluginAsync => async (app) => {
  app.addSchema(SearchItem);
  const tags = ['search'];

  app.post('/api/v1/search', {
    config: { rate: 'search' },
    schema: {
      tags, summary: 'Search memories', description: LEGS_DOC,
      body: SearchBody,
      response: { 200: SearchResponse, ...errorResponses(503) },
    },
  }, async (req) => s.search.search(req.caller, searchRequest(req.body)));

  app.post('/api/v1/recall', {
    config: { rate: 'search' },
    schema: {
      tags, summary: 'Recall: search plus a context summary',
      description: `${LEGS_DOC} The summary is written by the configured LLM (LOCI_LLM_URL) within LOCI_LLM_TIMEOUT_MS, ` +
        'otherwise, or when the LLM fails, it is extractive: near-duplicates removed, facts grouped by subject, each citing its memory id.',
      body: SearchBody,
      response: { 200: RecallResponse, ...errorResponses(503) },
    },
  }, async (req) => s.search.recall(req.caller, searchRequest(req.body)));
};
