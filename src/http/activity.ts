// GET /api/v1/activity: writes per day and this process's recent search and recall latency of a
// tenant, for the dashboard's Stats page. Latency is recorded by an app-wide response hook.
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import type { Services } from '../services.js';
import { LatencyRecorder } from '../core/latency.js';
import { resolveTenant } from '../core/caller.js';
import { Ident, TenantId, errorResponses } from './schemas.js';

const SEARCH_ROUTES = new Set(['/api/v1/search', '/api/v1/recall']);

/** Records the duration of every successful search and recall under the tenant it searched. */
export function registerSearchLatency(app: FastifyInstance, recorder: LatencyRecorder) {
  app.addHook('onResponse', async (req, reply) => {
    if (reply.statusCode !== 200 || !SEARCH_ROUTES.has(req.routeOptions.url ?? '')) return;
    // A search that names no tenant searched the caller's own.
    const tenant = (req.body as { tenant_id?: unknown } | undefined)?.tenant_id ?? req.caller?.tenantId;
    if (typeof tenant === 'string') recorder.record(tenant, reply.elapsedTime);
  });
}

const ActivityQuery = Type.Object({
  tenant_id: Type.Optional(TenantId),
  fleet_id: Type.Optional(Ident),
  agent_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'The viewing agent: its scope_agent memories count too' })),
  days: Type.Integer({ minimum: 1, maximum: 366, default: 30 }),
});

const Latency = Type.Object({
  count: Type.Integer({ description: 'Samples held (the most recent 500 at most)' }),
  p50_ms: Type.Union([Type.Number(), Type.Null()]),
  p95_ms: Type.Union([Type.Number(), Type.Null()]),
  p99_ms: Type.Union([Type.Number(), Type.Null()]),
  recent: Type.Array(Type.Tuple([Type.Number(), Type.Number()]), { description: 'Up to 100 latest [epoch ms, duration ms], oldest first' }),
});

const Activity = Type.Object({
  tenant_id: Type.String(),
  days: Type.Integer(),
  writes: Type.Array(Type.Object({ day: Type.String({ description: 'YYYY-MM-DD (UTC)' }), writes: Type.Integer() }),
    { description: 'Memories written per day the caller can see, deleted ones included; days without writes are absent' }),
  search_latency: Latency,
});

export const activityRoutes = (s: Services, recorder: LatencyRecorder): FastifyPluginAsync => async (app) => {
  app.get('/api/v1/activity', {
    schema: {
      tags: ['memories'], summary: 'Writes per day and recent search latency of a tenant',
      description: 'Search latency covers successful searches and recalls of the tenant handled by this server process ' +
        'since it started (server time, milliseconds); it is not shared between replicas.',
      querystring: ActivityQuery,
      response: { 200: Activity, ...errorResponses() },
    },
  }, async (req) => {
    const q = req.query as Static<typeof ActivityQuery>;
    const writes = await s.memories.writesPerDay(req.caller, q);
    const tenant = resolveTenant(req.caller, q.tenant_id, 'read');
    return { tenant_id: tenant, days: q.days, writes, search_latency: recorder.summary(tenant) };
  });
};
