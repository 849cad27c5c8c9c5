// Bulk write and redistribute (spec 4.2): schema + parse → MemoryService → response.
import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import type { Services } from '../services.js';
import { bulkHttpStatus, type BulkItemInput } from '../core/memories/bulk.js';
import type { RedistributeRequest } from '../core/memories/redistribute.js';
import { badRequest } from '../core/errors.js';
import { ajvToItem } from './errors.js';
import { errorResponses, Problem } from './schemas.js';
import { compileValidator, faultItems } from './validation.js';
import { faultyStrings } from '../core/input.js';
import {
  BulkBody, BulkEnvelope, BulkHeaders, BulkItemSchema, BulkResultSchema, RedistributeBody, RedistributeQuery,
  RedistributeResultSchema,
} from './bulk-schemas.js';

const checkItem = compileValidator(BulkItemSchema, 'body');

/** One item against the item schema; its problems are located inside the request body. */
export function parseBulkItem(raw: unknown, index: number): BulkItemInput {
  const faults = faultyStrings(raw);
  if (faults.length) return { invalid: faultItems(faults, ['body', 'items', index]) };
  if (checkItem(raw)) return { fields: raw as Extract<BulkItemInput, { fields: unknown }>['fields'] };
  return {
    invalid: (checkItem.errors ?? []).map((e) => {
      const item = ajvToItem(e, 'body');
      return { ...item, loc: ['body', 'items', index, ...item.loc.slice(1)] };
    }),
  };
}

export const bulkRoutes = (s: Services): FastifyPluginAsync => async (app) => {
  const tags = ['memories'];

  app.post('/api/v1/memories/bulk', {
    config: { idempotent: true, rate: 'bulk', perItem: 'items' },
    // The body schema documents typed items; validation takes the envelope here and each item on its
    // own in the handler, so one bad item is that item's error instead of a 422 for the batch.
    validatorCompiler: ({ schema, httpPart }) => compileValidator(httpPart === 'body' ? BulkEnvelope : (schema as object), httpPart),
    schema: {
      tags, summary: 'Write up to 100 memories',
      description: 'One transaction per batch. `X-Bulk-Attempt-Id` is required (400 without it): item i is stored with ' +
        'client_request_id "<attempt>:<i>", so a retry of the attempt answers `duplicate_attempt` for the rows already stored ' +
        'and creates the rest. 200 when no item failed or every item failed; 207 when some failed and some succeeded; ' +
        '504 (no per-item state) when the bulk budget ran out before the commit: retry with the same attempt id. A batch that ' +
        'would take the tenant past its quota is refused whole with 429. `Idempotency-Key` replays the final response.',
      headers: BulkHeaders,
      body: BulkBody,
      response: {
        200: BulkResultSchema,
        207: BulkResultSchema,
        504: Type.Ref((Problem as { $id?: string }).$id as string),
        ...errorResponses(400, 409, 503),
      },
    },
  }, async (req, reply) => {
    const raw = req.headers['x-bulk-attempt-id'];
    const attempt = Array.isArray(raw) ? raw[0] : raw;
    if (!attempt) {
      throw badRequest('The X-Bulk-Attempt-Id header is required: name the batch, and send the same value when retrying it');
    }
    const body = req.body as Static<typeof BulkEnvelope>;
    const result = await s.memories.bulkCreate(req.caller, attempt, {
      tenant_id: body.tenant_id, agent_id: body.agent_id, fleet_id: body.fleet_id,
      items: body.items.map(parseBulkItem),
    }, { budgetMs: s.config.bulkBudgetMs, enrichTimeoutMs: s.config.bulkEnrichTimeoutMs });
    return reply.code(bulkHttpStatus(result.results)).send(result);
  });

  app.post('/api/v1/memories/redistribute', {
    schema: {
      tags, summary: 'Move memories to another agent (trust 3)',
      description: 'Moves the selected memories of the tenant to `target_agent_id`, into `target_fleet_id` when given ' +
        '(crossing fleets), and promotes scope_agent rows to scope_team. Rows whose content the target fleet already holds ' +
        'are skipped. At most `limit` rows per call, oldest first; `has_more` tells to call again.',
      querystring: RedistributeQuery,
      body: RedistributeBody,
      response: { 200: RedistributeResultSchema, ...errorResponses(409) },
    },
  }, async (req) => s.memories.redistribute(
    req.caller, req.query as Static<typeof RedistributeQuery>, req.body as RedistributeRequest,
  ));
};
