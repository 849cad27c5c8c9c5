// MCP over Streamable HTTP at /mcp, on the API's own server: the request is authenticated like any
// keyed route (X-API-Key or Authorization: Bearer), then answered by a server made for this caller
// (stateless, JSON responses). Each tool call is metered in its REST twin's class.
import type { FastifyPluginAsync } from 'fastify';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { Type, type Static } from 'typebox';
import type { Services } from '../services.js';
import { MAX_JSON_DEPTH } from '../core/json-limits.js';
import { chargeRate } from '../http/rate-limit.js';
import { sendProblem } from '../http/errors.js';
import { registerJsonParser } from '../http/validation.js';
import { loadRegistry } from './registry.js';
import { createMcpServer, sessionInstructions } from './server.js';

/**
 * Nesting a /mcp body may have. Twice what arguments may: arguments deeper than MAX_JSON_DEPTH reach
 * the tool and are refused there as a tool error (as over stdio); bodies past this are refused
 * before parsing, as a REST body past MAX_JSON_DEPTH is.
 */
const BODY_MAX_DEPTH = 2 * MAX_JSON_DEPTH + 2;

const McpQuery = Type.Object({
  fleet_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Fleet whose keystones the instructions carry' })),
});

const messages = (body: unknown): { method?: unknown }[] =>
  (Array.isArray(body) ? body : [body]).filter((m): m is { method?: unknown } => typeof m === 'object' && m !== null);

export const mcpRoutes = (s: Services): FastifyPluginAsync => async (app) => {
  const registry = await loadRegistry();
  // Unstorable strings reach the tool, which refuses them as its error (as over stdio).
  registerJsonParser(app, BODY_MAX_DEPTH, false);

  app.post('/mcp', {
    config: { rate: 'per-call' },
    schema: {
      tags: ['mcp'], summary: 'MCP (Streamable HTTP, stateless, JSON responses)',
      description: 'The tool-call surface: initialize, tools/list, tools/call. Authenticated like every keyed route. ' +
        'The initialize result\'s instructions carry the caller\'s keystones (with `fleet_id`, the fleet\'s too). See docs/mcp.md.',
      querystring: McpQuery,
    },
  }, async (req, reply) => {
    const log = (err: unknown) => req.log.warn({ err }, 'mcp');
    const msgs = messages(req.body);
    // Calls are metered per tool; the rest of the protocol (initialize, tools/list, ping) as `other`.
    if (!msgs.some((m) => m.method === 'tools/call')) await chargeRate(s, req.caller, 'other', log);
    const fleetId = (req.query as Static<typeof McpQuery>).fleet_id;
    const instructions = msgs.some((m) => m.method === 'initialize') ? await sessionInstructions(s, req.caller, fleetId, log) : undefined;
    const server = createMcpServer(registry, { services: s, caller: req.caller }, { instructions, log });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.hijack();
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req.raw, reply.raw, req.body);
  });

  // Stateless: no server-initiated stream to open and no session to end.
  for (const method of ['GET', 'DELETE'] as const) {
    app.route({
      method, url: '/mcp', schema: { hide: true },
      handler: async (_req, reply) => sendProblem(reply.header('allow', 'POST'), 405, 'Method Not Allowed', 'This MCP endpoint is stateless: POST JSON-RPC requests to it'),
    });
  }
};
