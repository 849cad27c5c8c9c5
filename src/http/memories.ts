// Memory endpoints (spec 4.2, all but bulk write and redistribute): schema + parse → MemoryService → response.
// Static segments (count, stats, bulk-delete) are registered as their own routes; the router
// prefers them over `/:memory_id`, and a non-uuid id is a 422 from the params schema.
import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import type { Services } from '../services.js';
import { MEMORY_TYPES } from '../core/memories/types.js';
import { splitList, type ListQuery } from '../core/memories/service.js';
import { ValidationError, type ValidationItem } from '../core/errors.js';
import { errorResponses } from './schemas.js';
import { scopedQuery } from './caura-names.js';
import {
  BulkDeleteBody, CountQuery, CreateMemoryBody, DeleteWhereBody, DeleteWhereQuery, FleetsSchema, IdempotencyHeaders,
  ItemQuery, ListQuerySchema, MemoryDetailSchema, MemoryIdParams, MemoryPageSchema, MemoryUpdatedSchema,
  MemoryWrittenSchema, StatsQuery, StatsSchema, StatusBody, StatusResult, TenantAgentQuery, TenantsSchema,
  UpdateMemoryBody, UpdateQuery,
} from './memory-schemas.js';

const KNOWN_TYPES = new Set<string>([...MEMORY_TYPES, 'semantic']);

/** exclude_memory_types arrives repeated and/or comma-separated; every value must be a known type. */
export function parseExcludeTypes(raw: string[] | undefined): string[] {
  const values = splitList(raw);
  const bad: ValidationItem[] = values
    .map((v, i) => ({ v, i }))
    .filter(({ v }) => !KNOWN_TYPES.has(v))
    .map(({ v, i }) => ({
      loc: ['query', 'exclude_memory_types', i], msg: `Input should be one of: ${[...KNOWN_TYPES].join(', ')}`,
      type: 'enum', input: v, ctx: { expected: [...KNOWN_TYPES] },
    }));
  if (bad.length) throw new ValidationError(bad);
  return values;
}

export const memoryRoutes = (s: Services): FastifyPluginAsync => async (app) => {
  const tags = ['memories'];
  const mem = s.memories;

  app.post('/api/v1/memories', {
    config: { idempotent: true },
    schema: {
      tags, summary: 'Write a memory',
      description: 'Embeds the content and extracts entities before storing. Content its writer (agent) already holds in the same tenant and fleet is refused with 409 and `existing_id`; the same content from another agent is stored. Over the tenant quota: 429.',
      headers: IdempotencyHeaders,
      body: CreateMemoryBody,
      response: { 201: MemoryWrittenSchema, ...errorResponses(409, 503) },
    },
  }, async (req, reply) => {
    const written = await mem.create(req.caller, req.body as CreateMemoryBody);
    return reply.code(201).header('location', `/api/v1/memories/${written.id}`).send(written);
  });

  app.get('/api/v1/memories', {
    schema: {
      tags, summary: 'List memories',
      description: 'Rule 1: without `agent_id`, scope_agent memories are hidden; with it, that agent\'s scope_agent memories are included. ' +
        '`filter_agent_id` filters by author. Cursor pagination needs sort=created_at&order=desc (400 otherwise); offset works with every sort.',
      querystring: ListQuerySchema,
      response: { 200: MemoryPageSchema, ...errorResponses(400) },
    },
  }, async (req) => {
    const q = scopedQuery(req.caller, req.query as Static<typeof ListQuerySchema>);
    return mem.list(req.caller, { ...q, exclude_memory_types: parseExcludeTypes(q.exclude_memory_types) } as ListQuery);
  });

  app.delete('/api/v1/memories', {
    // The body is optional: an empty one (even labelled JSON) means "no extra filters".
    onRequest: async (req) => {
      const len = req.headers['content-length'];
      if ((len === undefined || len === '0') && req.headers['transfer-encoding'] === undefined) delete req.headers['content-type'];
    },
    preValidation: async (req) => {
      if (req.body == null) req.body = {};
    },
    schema: {
      tags, summary: 'Soft-delete the matching memories of a tenant',
      description: 'Only memories the caller can see are touched. An agent-scoped key deletes only its own memories.',
      querystring: DeleteWhereQuery,
      body: DeleteWhereBody,
      response: { 204: Type.Null(), ...errorResponses() },
    },
  }, async (req, reply) => {
    const q = req.query as Static<typeof DeleteWhereQuery>;
    const body = (req.body ?? {}) as Static<typeof DeleteWhereBody>;
    await mem.removeWhere(req.caller, { ...q, ...body });
    return reply.code(204).send();
  });

  app.get('/api/v1/memories/stats', {
    schema: {
      tags, summary: 'Memory counts by type, agent and status',
      querystring: StatsQuery,
      response: { 200: StatsSchema, ...errorResponses() },
    },
  }, async (req) => mem.stats(req.caller, scopedQuery(req.caller, req.query as Static<typeof StatsQuery>)));

  app.get('/api/v1/memories/count', {
    schema: {
      tags, summary: 'Count of active, non-deleted memories',
      querystring: CountQuery,
      response: { 200: Type.Object({ count: Type.Integer() }), ...errorResponses() },
    },
  }, async (req) => ({ count: await mem.count(req.caller, req.query as Static<typeof CountQuery>) }));

  app.post('/api/v1/memories/bulk-delete', {
    schema: {
      tags, summary: 'Soft-delete memories by id',
      body: BulkDeleteBody,
      response: { 200: Type.Object({ deleted: Type.Integer() }), ...errorResponses() },
    },
  }, async (req) => ({ deleted: await mem.bulkDelete(req.caller, req.body as Static<typeof BulkDeleteBody>) }));

  app.get('/api/v1/memories/:memory_id', {
    schema: {
      tags, summary: 'Read one memory with its embedding and entity links',
      params: MemoryIdParams,
      querystring: ItemQuery,
      response: { 200: MemoryDetailSchema, ...errorResponses(404) },
    },
  }, async (req) => mem.get(req.caller, (req.params as Static<typeof MemoryIdParams>).memory_id, req.query as Static<typeof ItemQuery>));

  app.patch('/api/v1/memories/:memory_id', {
    schema: {
      tags, summary: 'Update a memory',
      description: 'Only the fields present change (each column last-write-wins). `metadata` merges at the top level unless ' +
        '`metadata_mode=replace` (body wins over query); `metadata_mode` without `metadata` is a 422. A content change re-embeds ' +
        'and re-extracts entities, and is refused with 409 when it duplicates another memory.',
      params: MemoryIdParams,
      querystring: UpdateQuery,
      body: UpdateMemoryBody,
      response: { 200: MemoryUpdatedSchema, ...errorResponses(404, 409, 503) },
    },
  }, async (req) => mem.update(
    req.caller, (req.params as Static<typeof MemoryIdParams>).memory_id,
    req.query as Static<typeof UpdateQuery>, req.body as UpdateMemoryBody,
  ));

  app.delete('/api/v1/memories/:memory_id', {
    schema: {
      tags, summary: 'Soft-delete a memory',
      params: MemoryIdParams,
      querystring: TenantAgentQuery,
      response: { 204: Type.Null(), ...errorResponses(404) },
    },
  }, async (req, reply) => {
    await mem.remove(req.caller, (req.params as Static<typeof MemoryIdParams>).memory_id, req.query as Static<typeof TenantAgentQuery>);
    return reply.code(204).send();
  });

  app.patch('/api/v1/memories/:memory_id/status', {
    schema: {
      tags, summary: 'Set the status of a memory',
      description: 'Any of active, pending, confirmed, cancelled, archived; outdated or conflicted to resolve a contradiction ' +
        'by hand; `deleted` soft-deletes the memory. The answer names the change twice: `{id, status, previous_status}` and ' +
        'Caura\'s `{memory_id, old_status, new_status}`.',
      params: MemoryIdParams,
      querystring: TenantAgentQuery,
      body: StatusBody,
      response: { 200: StatusResult, ...errorResponses(404) },
    },
  }, async (req) => mem.setStatus(
    req.caller, (req.params as Static<typeof MemoryIdParams>).memory_id,
    req.query as Static<typeof TenantAgentQuery>, (req.body as Static<typeof StatusBody>).status,
  ));

  app.get('/api/v1/tenants', {
    schema: {
      tags: ['tenants'], summary: 'Tenants that hold memories (admins: all; others: their own and readable ones)',
      response: { 200: TenantsSchema, ...errorResponses() },
    },
  }, async (req) => ({ tenants: await mem.tenants(req.caller) }));

  app.get('/api/v1/fleets', {
    schema: {
      tags: ['tenants'], summary: 'Fleets of a tenant with their memory counts',
      querystring: Type.Object({ tenant_id: Type.Optional(TenantAgentQuery.properties.tenant_id), agent_id: TenantAgentQuery.properties.agent_id }),
      response: { 200: FleetsSchema, ...errorResponses() },
    },
  }, async (req) => ({ fleets: await mem.fleets(req.caller, req.query as { tenant_id?: string; agent_id?: string }) }));
};
