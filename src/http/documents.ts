// Documents (spec 4.3): JSON documents in collections, equality queries and hybrid search.
import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import type { Services } from '../services.js';
import { DOC_MAX_BYTES, QUERY_LIMIT, QUERY_MAX_CHARS, TOP_K } from '../core/documents/index.js';
import { AnyObject, DateTime, Ident, OptTenantId, Slug, errorResponses } from './schemas.js';
import { StrEnum } from './memory-schemas.js';
import { takeAlias } from './caura-names.js';

export const CollectionName = Type.String({
  pattern: '^_?[a-z0-9][a-z0-9._-]{0,99}$',
  description: 'Collection name; names starting with "_" are system collections',
});
const FleetId = Type.Optional(Ident);

const DocumentRecord = Type.Object({
  tenant_id: Type.String(),
  fleet_id: Type.Union([Type.String(), Type.Null()]),
  collection: Type.String(),
  doc_id: Type.String(),
  data: AnyObject,
  created_at: DateTime,
  updated_at: DateTime,
}, { $id: 'Document' });

export const WriteBody = Type.Object({
  tenant_id: OptTenantId,
  fleet_id: FleetId,
  collection: CollectionName,
  doc_id: Slug,
  data: Type.Object({}, { additionalProperties: true, description: 'The document; replaces any stored one whole' }),
  text_fields: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
    minItems: 1, maxItems: 50,
    description: 'Fields (dotted paths allowed) whose strings are embedded and keyword-indexed; default: every string value',
  })),
  agent_id: Type.Optional(Type.String({
    minLength: 1, maxLength: 200, description: 'Accepted from Caura clients and not stored, as Caura does: a document belongs to its tenant and fleet',
  })),
}, { additionalProperties: false });

export const KeyParams = Type.Object({ collection: CollectionName, doc_id: Slug });
const KeyQuery = Type.Object({ tenant_id: OptTenantId, fleet_id: FleetId });
const DocIdParams = Type.Object({ doc_id: Slug });
const CollectionKeyQuery = Type.Object({ ...KeyQuery.properties, collection: CollectionName });

export const QueryBody = Type.Object({
  tenant_id: OptTenantId,
  fleet_id: Type.Optional(Ident),
  collection: CollectionName,
  filter: Type.Optional(Type.Object({}, {
    additionalProperties: true,
    description: 'Field equality, all must hold. Nested fields by dotted key ("a.b") or nested object; arrays match by containment',
  })),
  where: Type.Optional(Type.Object({}, { additionalProperties: true, description: "Caura's name for filter" })),
  order_by: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'A field of data to sort by (dotted for nested fields); missing values last' })),
  order: Type.Optional(StrEnum(['asc', 'desc'] as const, { default: 'asc' })),
  limit: Type.Optional(Type.Integer({ minimum: QUERY_LIMIT.min, maximum: QUERY_LIMIT.max, default: QUERY_LIMIT.default })),
  offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
}, { additionalProperties: false });

export const SearchBody = Type.Object({
  tenant_id: OptTenantId,
  query: Type.String({ minLength: 1, maxLength: QUERY_MAX_CHARS }),
  collection: Type.Optional(CollectionName),
  fleet_id: Type.Optional(Ident),
  top_k: Type.Optional(Type.Integer({ minimum: TOP_K.min, maximum: TOP_K.max, default: TOP_K.default })),
}, { additionalProperties: false });

const SearchHit = Type.Object({
  collection: Type.String(),
  doc_id: Type.String(),
  fleet_id: Type.Union([Type.String(), Type.Null()]),
  data: AnyObject,
  score: Type.Number({ description: 'Reciprocal-rank-fusion score of the semantic and keyword legs' }),
  similarity: Type.Number({ description: 'Cosine similarity of the document to the query' }),
});

const CollectionsQuery = Type.Object({ tenant_id: OptTenantId, fleet_id: FleetId });

// Envelope fields around `data` need little room beyond the document cap.
const WRITE_BODY_LIMIT = DOC_MAX_BYTES + 64 * 1024;
const READ_BODY_LIMIT = 256 * 1024;

export const documentRoutes = (s: Services): FastifyPluginAsync => async (app) => {
  app.addSchema(DocumentRecord);
  const tags = ['documents'];
  const docRef = Type.Ref('Document');

  app.post('/api/v1/documents', {
    bodyLimit: WRITE_BODY_LIMIT,
    schema: {
      tags, summary: 'Write (create or replace) a document',
      description:
        'Upserts the document (tenant, fleet, collection, doc_id). Answers 201 when it was created and 200 when an ' +
        'existing one was replaced. `data` is stored whole (no merge) and may be up to 1 MiB as JSON (413 beyond). ' +
        'Collections starting with "_" and the collections "skills" and "ingest-sources" are written only by their ' +
        'own features (403).',
      body: WriteBody,
      response: {
        200: Type.Intersect([docRef, Type.Object({ created: Type.Boolean() })]),
        201: Type.Intersect([docRef, Type.Object({ created: Type.Boolean() })]),
        ...errorResponses(413),
      },
    },
  }, async (req, reply) => {
    const { agent_id: _agent, ...body } = req.body as Static<typeof WriteBody>;
    const doc = await s.documents.write(req.caller, { ...body, data: body.data as Record<string, unknown> });
    return reply.code(doc.created ? 201 : 200).send(doc);
  });

  app.post('/api/v1/documents/query', {
    bodyLimit: READ_BODY_LIMIT,
    config: { rate: 'other' },
    schema: {
      tags, summary: 'Query a collection by field equality',
      description:
        'Documents of one collection whose fields equal all of `filter` (dotted keys or nested objects reach nested ' +
        'fields; an array field matches when it contains the given items). Without fleet_id, documents of every ' +
        'fleet are included. Ordered by `order_by` (a field of data) when given, then doc_id; `count` is the total ' +
        'number of matches, not the page size.',
      body: QueryBody,
      response: { 200: Type.Object({ items: Type.Array(docRef), count: Type.Integer() }), ...errorResponses() },
    },
  }, async (req) => {
    const body = req.body as Static<typeof QueryBody>;
    takeAlias(body as Record<string, unknown>, 'body', 'where', 'filter');
    return s.documents.query(req.caller, { ...body, filter: body.filter as Record<string, unknown> | undefined });
  });

  app.post('/api/v1/documents/search', {
    bodyLimit: READ_BODY_LIMIT,
    config: { rate: 'search' },
    schema: {
      tags, summary: 'Semantic plus keyword search over documents',
      description:
        'Ranks documents by reciprocal-rank fusion of a semantic leg (embedding similarity) and a keyword leg ' +
        '(full text; documents holding every term first, then those holding any). Without `collection`, searches ' +
        'every collection except system ones (starting with "_"); without fleet_id, every fleet.',
      body: SearchBody,
      response: { 200: Type.Object({ items: Type.Array(SearchHit) }), ...errorResponses() },
    },
  }, async (req) => ({ items: await s.documents.search(req.caller, req.body as Static<typeof SearchBody>) }));

  app.get('/api/v1/documents/collections', {
    schema: {
      tags, summary: 'Collections of a tenant with document counts',
      description: 'With fleet_id, only documents of that fleet are counted.',
      querystring: CollectionsQuery,
      response: {
        200: Type.Object({
          collections: Type.Array(Type.Object({ collection: Type.String(), count: Type.Integer(), updated_at: DateTime })),
        }),
        ...errorResponses(),
      },
    },
  }, async (req) => ({ collections: await s.documents.listCollections(req.caller, req.query as Static<typeof CollectionsQuery>) }));

  app.get('/api/v1/documents/:collection/:doc_id', {
    schema: {
      tags, summary: 'Read a document',
      description: 'Without fleet_id, reads the tenant-wide document (the one written without a fleet).',
      params: KeyParams,
      querystring: KeyQuery,
      response: { 200: docRef, ...errorResponses(404) },
    },
  }, async (req) => s.documents.read(req.caller, { ...(req.query as Static<typeof KeyQuery>), ...(req.params as Static<typeof KeyParams>) }));

  // Caura's clients name the collection in the query: GET/DELETE /documents/{doc_id}?collection=.
  // The same operations as the collection-in-path routes, so left out of the API document.
  app.get('/api/v1/documents/:doc_id', {
    schema: {
      hide: true, tags, summary: 'Read a document (collection in the query)',
      description: 'The same as GET /api/v1/documents/{collection}/{doc_id}, with the collection as a query parameter.',
      params: DocIdParams,
      querystring: CollectionKeyQuery,
      response: { 200: docRef, ...errorResponses(404) },
    },
  }, async (req) => s.documents.read(req.caller, { ...(req.query as Static<typeof CollectionKeyQuery>), ...(req.params as Static<typeof DocIdParams>) }));

  app.delete('/api/v1/documents/:doc_id', {
    schema: {
      hide: true, tags, summary: 'Delete a document (collection in the query)',
      description: 'The same as DELETE /api/v1/documents/{collection}/{doc_id}, with the collection as a query parameter.',
      params: DocIdParams,
      querystring: CollectionKeyQuery,
      response: { 204: Type.Null(), ...errorResponses(404) },
    },
  }, async (req, reply) => {
    await s.documents.delete(req.caller, { ...(req.query as Static<typeof CollectionKeyQuery>), ...(req.params as Static<typeof DocIdParams>) });
    return reply.code(204).send();
  });

  app.delete('/api/v1/documents/:collection/:doc_id', {
    schema: {
      tags, summary: 'Delete a document',
      description: 'Deletes the document for good. Without fleet_id, deletes the tenant-wide document.',
      params: KeyParams,
      querystring: KeyQuery,
      response: { 204: Type.Null(), ...errorResponses(404) },
    },
  }, async (req, reply) => {
    await s.documents.delete(req.caller, { ...(req.query as Static<typeof KeyQuery>), ...(req.params as Static<typeof KeyParams>) });
    return reply.code(204).send();
  });
};
