// Admin reads of memories (spec 4.4): tenants, fleets, memories and stats across tenants. Trust 3.
import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import type { Services } from '../services.js';
import type { ListQuery } from '../core/memories/service.js';
import { errorResponses } from './schemas.js';
import { parseExcludeTypes } from './memories.js';
import { AdminFleetsSchema, AdminListQuerySchema, AdminStatsSchema, MemoryPageSchema, TenantsSchema } from './memory-schemas.js';

const AnyTenant = Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Omit for every tenant' }));

export const adminRoutes = (s: Services): FastifyPluginAsync => async (app) => {
  const tags = ['admin'];
  const mem = s.memories;

  app.get('/api/v1/admin/tenants', {
    schema: { tags, summary: 'Every tenant that holds memories', response: { 200: TenantsSchema, ...errorResponses() } },
  }, async (req) => ({ tenants: await mem.adminTenants(req.caller) }));

  app.get('/api/v1/admin/fleets', {
    schema: {
      tags, summary: 'Fleets with memory counts, per tenant',
      querystring: Type.Object({ tenant_id: AnyTenant }),
      response: { 200: AdminFleetsSchema, ...errorResponses() },
    },
  }, async (req) => ({ fleets: await mem.adminFleets(req.caller, req.query as { tenant_id?: string }) }));

  app.get('/api/v1/admin/memories', {
    schema: {
      tags, summary: 'List memories across tenants',
      description: 'Same parameters and bounds as GET /api/v1/memories; every visibility is listed and `agent_id` filters by author.',
      querystring: AdminListQuerySchema,
      response: { 200: MemoryPageSchema, ...errorResponses(400) },
    },
  }, async (req) => {
    const q = req.query as Static<typeof AdminListQuerySchema>;
    return mem.adminList(req.caller, { ...q, exclude_memory_types: parseExcludeTypes(q.exclude_memory_types) } as ListQuery);
  });

  app.get('/api/v1/admin/memories/stats', {
    schema: {
      tags, summary: 'Memory counts across tenants',
      querystring: Type.Object({
        tenant_id: AnyTenant,
        fleet_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
        include_deleted: Type.Boolean({ default: false }),
      }),
      response: { 200: AdminStatsSchema, ...errorResponses() },
    },
  }, async (req) => mem.adminStats(req.caller, req.query as { tenant_id?: string; fleet_id?: string; include_deleted?: boolean }));
};
