// API key administration (trust 3): mint, list, revoke. The secret appears only in the create response.
import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import type { Services } from '../services.js';
import { Ident, TenantId, Uuid, errorResponses } from './schemas.js';

const KeyRecord = Type.Object({
  id: Uuid,
  tenant_id: Type.String(),
  agent_id: Type.Union([Type.String(), Type.Null()]),
  fleet_id: Type.Union([Type.String(), Type.Null()], { description: 'The fleet the key is bound to: trust 1 stays in it, trust 2 crosses fleets' }),
  trust_level: Type.Integer(),
  name: Type.Union([Type.String(), Type.Null()]),
  readable_tenants: Type.Array(Type.String()),
  prefix: Type.String({ description: 'First characters of the key, to recognise it' }),
  created_at: Type.String({ format: 'date-time' }),
  revoked_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  last_used_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
}, { $id: 'ApiKey' });

const CreateKeyBody = Type.Object({
  tenant_id: TenantId,
  agent_id: Type.Optional(Ident),
  fleet_id: Type.Optional(Type.String({
    minLength: 1, maxLength: 200,
    description: 'Bind the key to a fleet: with trust 0 or 1 it reads and writes only that fleet (plus reads of rows of no fleet and scope_org); with trust 2 it writes there by default and may cross fleets',
  })),
  trust_level: Type.Integer({ minimum: 0, maximum: 3, default: 1 }),
  name: Type.Optional(Type.String({ maxLength: 200 })),
  readable_tenants: Type.Optional(Type.Array(TenantId, { maxItems: 100 })),
}, { additionalProperties: false });

export const keyRoutes = (s: Services): FastifyPluginAsync => async (app) => {
  app.addSchema(KeyRecord);
  const tags = ['admin'];

  app.post('/api/v1/admin/keys', {
    schema: {
      tags, summary: 'Mint an API key (shown once)', body: CreateKeyBody,
      response: { 201: Type.Intersect([Type.Ref('ApiKey'), Type.Object({ key: Type.String() })]), ...errorResponses() },
    },
  }, async (req, reply) => reply.code(201).send(await s.keys.create(req.caller, req.body as Static<typeof CreateKeyBody>)));

  app.get('/api/v1/admin/keys', {
    schema: {
      tags, summary: 'List API keys (no secrets)',
      querystring: Type.Object({ tenant_id: Type.Optional(TenantId) }),
      response: { 200: Type.Object({ items: Type.Array(Type.Ref('ApiKey')) }), ...errorResponses() },
    },
  }, async (req) => ({ items: await s.keys.list(req.caller, (req.query as { tenant_id?: string }).tenant_id) }));

  app.delete('/api/v1/admin/keys/:id', {
    schema: {
      tags, summary: 'Revoke an API key',
      params: Type.Object({ id: Uuid }),
      response: { 204: Type.Null(), ...errorResponses(404) },
    },
  }, async (req, reply) => {
    await s.keys.revoke(req.caller, (req.params as { id: string }).id);
    return reply.code(204).send();
  });
};
