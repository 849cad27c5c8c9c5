// Knowledge graph (spec 4.5): GET /api/v1/entities and GET /api/v1/graph. Schema + parse → GraphService.
import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import type { Services } from '../services.js';
import {
  ENTITY_LIMIT, ENTITY_RELATIONS_SHOWN, ENTITY_TYPES, EVIDENCE_SHOWN, GRAPH_DEPTH, RELATIONS_PER_ENTITY, SEARCH_MAX, type EntityQuery, type GraphQuery,
} from '../core/graph/types.js';
import { invalid } from '../core/errors.js';
import { DateTime, OptTenantId, TenantId, Uuid, errorResponses } from './schemas.js';

const EntityTypeEnum = Type.Unsafe<(typeof ENTITY_TYPES)[number]>({ type: 'string', enum: [...ENTITY_TYPES] });

const EntitySchema = Type.Object({
  id: Uuid,
  tenant_id: Type.String(),
  name: Type.String({ description: 'First surface form seen' }),
  entity_type: EntityTypeEnum,
  aliases: Type.Array(Type.String(), { description: 'Other surface forms seen (the name excluded)' }),
  mention_count: Type.Integer({ description: 'Memories of the tenant that mention the entity (not deleted; every visibility and fleet)' }),
  first_seen_at: DateTime,
  last_seen_at: DateTime,
}, { $id: 'Entity' });

const RelationSchema = Type.Object({
  id: Uuid,
  subject_entity_id: Uuid,
  predicate: Type.String({ description: 'lower_snake verb phrase ("works_at"), `co_occurs`, or a predicate given on a write' }),
  object_entity_id: Type.Union([Uuid, Type.Null()]),
  object_value: Type.Union([Type.String({ description: 'The object when it is a value, not an entity' }), Type.Null()]),
  mention_count: Type.Integer({ description: 'Memories of the tenant that state the relation (not deleted; every visibility and fleet)' }),
  evidence_memory_ids: Type.Array(Uuid, { description: `Up to ${EVIDENCE_SHOWN} memories stating it that the caller can see, newest first` }),
  first_seen_at: DateTime,
  last_seen_at: DateTime,
}, { $id: 'Relation' });

const Common = {
  tenant_id: OptTenantId,
  fleet_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Only what memories of this fleet mention' })),
  agent_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Also count this agent\'s scope_agent memories (an agent-scoped key is its own agent)' })),
  limit: Type.Integer({ minimum: ENTITY_LIMIT.min, maximum: ENTITY_LIMIT.max, default: ENTITY_LIMIT.default }),
};

const EntitiesQuery = Type.Object({
  ...Common,
  entity_type: Type.Optional(EntityTypeEnum),
  search: Type.Optional(Type.String({
    minLength: 1, maxLength: SEARCH_MAX, pattern: '\\S', description: 'Case-insensitive substring of the name or an alias',
  })),
});

const GraphQuerySchema = Type.Object({
  ...Common,
  entity_id: Type.Optional(Type.String({ format: 'uuid', description: 'Return the neighbourhood of this entity' })),
  depth: Type.Optional(Type.Integer({ minimum: GRAPH_DEPTH.min, maximum: GRAPH_DEPTH.max, description: `Hops from entity_id (default ${GRAPH_DEPTH.default}); needs entity_id` })),
});

export const EntityIdParams = Type.Object({ entity_id: Uuid });
export const EntityDetailQuery = Type.Object({
  tenant_id: Type.Optional(TenantId),
  fleet_id: Common.fleet_id,
  agent_id: Common.agent_id,
});
const EntityDetailSchema = Type.Intersect([
  Type.Ref('Entity'),
  Type.Object({
    relations: Type.Array(Type.Ref('Relation'), { description: `Relations it takes part in (either side), strongest first, up to ${ENTITY_RELATIONS_SHOWN}` }),
    linked_memory_ids: Type.Array(Uuid, { description: `Up to ${EVIDENCE_SHOWN} memories mentioning it that the caller can see, newest first` }),
  }),
]);

const GraphSchema = Type.Object({
  tenant_id: Type.String(),
  entities: Type.Array(Type.Ref('Entity')),
  relations: Type.Array(Type.Ref('Relation')),
  truncated: Type.Boolean({ description: 'Entities or relations were left out to respect the limit' }),
});

export const graphRoutes = (s: Services): FastifyPluginAsync => async (app) => {
  app.addSchema(EntitySchema);
  app.addSchema(RelationSchema);
  const tags = ['knowledge graph'];

  app.get('/api/v1/entities', {
    schema: {
      tags, summary: 'Entities of a tenant',
      description: 'Entities (people, organisations, places, products, dates, other names) mentioned by memories the caller can see, ' +
        'most mentioned first; with `search`, best name matches first. A key granted another tenant\'s reads may name it; ' +
        'each such read is audited (`cross_tenant_read`).',
      querystring: EntitiesQuery,
      response: { 200: Type.Object({ entities: Type.Array(Type.Ref('Entity')) }), ...errorResponses() },
    },
  }, async (req) => s.graph.listEntities(req.caller, req.query as Static<typeof EntitiesQuery> as EntityQuery));

  app.get('/api/v1/entities/:entity_id', {
    schema: {
      tags, summary: 'One entity with its relations and the memories mentioning it',
      description: 'Only what memories the caller can see evidence: an entity no such memory mentions is a 404, like an unknown id. ' +
        'A key granted another tenant\'s reads may name it (audited as `cross_tenant_read`).',
      params: EntityIdParams,
      querystring: EntityDetailQuery,
      response: { 200: EntityDetailSchema, ...errorResponses(404) },
    },
  }, async (req) => s.graph.entity(
    req.caller, (req.params as Static<typeof EntityIdParams>).entity_id, req.query as Static<typeof EntityDetailQuery>,
  ));

  app.get('/api/v1/graph', {
    schema: {
      tags, summary: 'Entities and relations of a tenant',
      description: `The most mentioned entities (up to \`limit\`) and the relations among them (up to ${RELATIONS_PER_ENTITY} × limit), ` +
        'or with `entity_id` the entities within `depth` hops of it over relations in either direction. Only what memories the caller ' +
        'can see evidence is included. Unknown or invisible `entity_id`: 404.',
      querystring: GraphQuerySchema,
      response: { 200: GraphSchema, ...errorResponses(404) },
    },
  }, async (req) => {
    const q = req.query as Static<typeof GraphQuerySchema>;
    if (q.depth !== undefined && q.entity_id === undefined) {
      throw invalid(['query', 'depth'], 'depth needs entity_id: it counts hops from that entity', 'value_error', q.depth);
    }
    return s.graph.graph(req.caller, q as GraphQuery);
  });
};
