// loci_doc (Caura's caura_doc): JSON documents in named collections, by op.
import { Type } from 'typebox';
import { resolveAgent } from '../../core/caller.js';
import { invalid } from '../../core/errors.js';
import { CollectionName, KeyParams, QueryBody, SearchBody, WriteBody } from '../../http/documents.js';
import { StrEnum } from '../../http/memory-schemas.js';
import { arg, defineTool, identityArgs, type ToolContext } from '../tool.js';

const OPS = ['write', 'read', 'query', 'search', 'delete', 'list_collections'] as const;
type Op = (typeof OPS)[number];

const input = Type.Object({
  op: StrEnum(OPS),
  collection: arg(CollectionName, 'Every op but list_collections; optional for search'),
  doc_id: arg(KeyParams.properties.doc_id, 'write, read, delete'),
  data: arg(WriteBody.properties.data, 'op=write: the whole document (replaces any stored one)'),
  text_fields: arg(WriteBody.properties.text_fields, 'op=write: fields whose text is indexed (default all strings)'),
  where: arg(QueryBody.properties.filter, 'op=query: field equality, all must hold ("a.b" for nested)'),
  order_by: arg(QueryBody.properties.order_by, 'op=query: a field to sort by'),
  order: arg(QueryBody.properties.order),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 20 })),
  offset: arg(QueryBody.properties.offset),
  query: arg(SearchBody.properties.query, 'op=search: natural-language query'),
  top_k: arg(SearchBody.properties.top_k, 'op=search'),
  fleet_id: arg(WriteBody.properties.fleet_id),
  agent_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Yours (documents have no author)' })),
  ...identityArgs,
}, { additionalProperties: false });

interface Args {
  op: Op; collection?: string; doc_id?: string; data?: Record<string, unknown>; text_fields?: string[];
  where?: Record<string, unknown>; order_by?: string; order?: 'asc' | 'desc'; limit?: number; offset?: number;
  query?: string; top_k?: number; fleet_id?: string; agent_id?: string; tenant_id?: string;
}

/** The arguments an op cannot do without (the REST twin's required fields). */
function need<K extends keyof Args>(a: Args, ...fields: K[]): Required<Pick<Args, K>> {
  const out = {} as Required<Pick<Args, K>>;
  for (const f of fields) {
    if (a[f] === undefined) throw invalid(['body', f], `op=${a.op} needs ${f}`, 'missing');
    out[f] = a[f] as Required<Args>[K];
  }
  return out;
}

type OpHandler = (ctx: ToolContext, a: Args) => Promise<unknown>;
const ops = new Map<string, OpHandler>(Object.entries({
  write: (ctx, a) => ctx.services.documents.write(ctx.caller, { ...need(a, 'collection', 'doc_id', 'data'), tenant_id: a.tenant_id, fleet_id: a.fleet_id, text_fields: a.text_fields }),
  read: (ctx, a) => ctx.services.documents.read(ctx.caller, { ...need(a, 'collection', 'doc_id'), tenant_id: a.tenant_id, fleet_id: a.fleet_id }),
  query: (ctx, a) => ctx.services.documents.query(ctx.caller, {
    ...need(a, 'collection'), tenant_id: a.tenant_id, fleet_id: a.fleet_id, filter: a.where, order_by: a.order_by, order: a.order, limit: a.limit, offset: a.offset,
  }),
  search: async (ctx, a) => ({
    items: await ctx.services.documents.search(ctx.caller, { ...need(a, 'query'), tenant_id: a.tenant_id, fleet_id: a.fleet_id, collection: a.collection, top_k: a.top_k }),
  }),
  delete: async (ctx, a) => {
    const key = need(a, 'collection', 'doc_id');
    await ctx.services.documents.delete(ctx.caller, { ...key, tenant_id: a.tenant_id, fleet_id: a.fleet_id });
    return { deleted: true, collection: key.collection, doc_id: key.doc_id };
  },
  list_collections: async (ctx, a) => ({ collections: await ctx.services.documents.listCollections(ctx.caller, { tenant_id: a.tenant_id, fleet_id: a.fleet_id }) }),
} satisfies Record<Op, OpHandler>));

export const tool = defineTool<Args>({
  name: 'loci_doc',
  order: 50,
  description: 'Structured JSON documents in named collections (records, config; for knowledge use loci_write). op: write ' +
    '(upsert collection+doc_id), read, query (where: field equality), search (by meaning and words; without collection, all), ' +
    'delete, list_collections.',
  input,
  trust: 0,
  stm_only: false,
  rate: (a) => (a.op === 'search' ? 'search' : a.op === 'write' || a.op === 'delete' ? 'write' : 'other'),
  rest: {
    write: 'POST /api/v1/documents',
    read: 'GET /api/v1/documents/:collection/:doc_id',
    query: 'POST /api/v1/documents/query',
    search: 'POST /api/v1/documents/search',
    delete: 'DELETE /api/v1/documents/:collection/:doc_id',
    list_collections: 'GET /api/v1/documents/collections',
  },
  handler(ctx, a) {
    resolveAgent(ctx.caller, a.agent_id); // documents have no author, but a foreign agent is still refused
    return ops.get(a.op)!(ctx, a);
  },
});
