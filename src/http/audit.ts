// Audit events (admin, trust 3): GET /api/v1/admin/audit-events, newest first, cursor-paged.
import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import type { Services } from '../services.js';
import { AUDIT_LIST_LIMIT } from '../core/audit.js';
import { DateTime, TenantId, Uuid, errorResponses } from './schemas.js';

const Nullable = (s: ReturnType<typeof Type.String>) => Type.Union([s, Type.Null()]);

const AuditEventSchema = Type.Object({
  id: Uuid,
  tenant_id: Type.String({ description: 'The tenant the event is about (for cross_tenant_read: the tenant that was read)' }),
  type: Type.String({ description: 'cross_tenant_read, keystone.set or keystone.delete' }),
  actor_tenant_id: Nullable(Type.String()),
  actor_agent_id: Nullable(Type.String()),
  actor_key_id: Nullable(Type.String({ format: 'uuid' })),
  detail: Type.Object({}, { additionalProperties: true, description: 'cross_tenant_read: {resource, query}; keystone.*: the rule\'s doc_id, scope, fleet_id, agent_id' }),
  created_at: DateTime,
}, { $id: 'AuditEvent' });

const ListQuery = Type.Object({
  tenant_id: Type.Optional(TenantId),
  type: Type.Optional(Type.String({ pattern: '^[a-z][a-z0-9_.]{0,63}$' })),
  limit: Type.Integer({ minimum: AUDIT_LIST_LIMIT.min, maximum: AUDIT_LIST_LIMIT.max, default: AUDIT_LIST_LIMIT.default }),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'next_cursor of the previous page' })),
});

export const auditRoutes = (s: Services): FastifyPluginAsync => async (app) => {
  app.addSchema(AuditEventSchema);

  app.get('/api/v1/admin/audit-events', {
    schema: {
      tags: ['admin'], summary: 'Audit events, newest first',
      description: 'Every tenant unless `tenant_id` names one. Events: `cross_tenant_read` (a key read this tenant\'s entities or graph ' +
        'through its readable tenants), `keystone.set` and `keystone.delete` (a keystone changed). Needs trust 3.',
      querystring: ListQuery,
      response: {
        200: Type.Object({ items: Type.Array(Type.Ref('AuditEvent')), next_cursor: Type.Union([Type.String(), Type.Null()]) }),
        ...errorResponses(),
      },
    },
  }, async (req) => s.audit.list(req.caller, req.query as Static<typeof ListQuery>));
};
