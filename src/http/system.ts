// System endpoints (spec 4.1): version, whoami, tool descriptions, health, status, public stats.
import type { FastifyPluginAsync } from 'fastify';
import { Type } from 'typebox';
import type { Services } from '../services.js';
import { API_VERSION, PACKAGE_VERSION } from '../version.js';
import { toolDescriptions } from '../mcp/descriptions.js';
import { loadRegistry } from '../mcp/registry.js';
import { checkHealth } from '../core/health.js';
import { publicStats } from '../core/public-stats.js';
import { AnyObject } from './schemas.js';

const open = { auth: 'open' as const };

export const systemRoutes = (s: Services): FastifyPluginAsync => async (app) => {
  app.get('/api/v1/version', {
    config: open,
    schema: {
      tags: ['system'], summary: 'Deployed version', security: [],
      response: { 200: Type.Object({ version: Type.String(), api_version: Type.String(), name: Type.String() }) },
    },
  }, async () => ({ name: 'loci', version: PACKAGE_VERSION, api_version: API_VERSION }));

  app.get('/api/v1/whoami', {
    config: open,
    schema: {
      tags: ['system'], summary: 'Resolved identity of the caller', security: [],
      response: {
        200: Type.Object({
          tenant_id: Type.Union([Type.String(), Type.Null()]),
          agent_id: Type.Union([Type.String(), Type.Null()]),
          source: Type.String({ description: 'api_key, gateway, standalone or anonymous' }),
          trust_level: Type.Integer(),
          authenticated: Type.Boolean(),
          mode: Type.String(),
        }, { additionalProperties: true }),
      },
    },
  }, async (req) => ({
    tenant_id: req.caller.tenantId,
    agent_id: req.caller.agentId,
    source: req.caller.source,
    trust_level: req.caller.trust,
    authenticated: req.caller.authenticated,
    mode: s.config.mode,
    ...(req.caller.keyId ? { key_id: req.caller.keyId } : {}),
  }));

  const registry = await loadRegistry();
  app.get('/api/v1/tool-descriptions', {
    config: open,
    schema: {
      tags: ['system'], summary: 'Descriptions of the MCP tools', security: [],
      description: 'The tools of the MCP server (`/mcp`, `loci mcp`). With enriched=true each tool also has `stm_only`, ' +
        '`input_schema` (the JSON Schema of its arguments) and `trust_level` (the least trust any call needs).',
      querystring: Type.Object({ enriched: Type.Boolean({ default: false }) }),
      response: { 200: AnyObject },
    },
  }, async (req) => toolDescriptions(registry, (req.query as { enriched: boolean }).enriched));

  app.get('/api/v1/health', {
    config: open,
    schema: {
      tags: ['system'], summary: 'Health of the service and its required dependencies', security: [],
      response: { 200: AnyObject, 503: AnyObject },
    },
  }, async (_req, reply) => {
    const h = await checkHealth(s);
    // A required dependency is down: tell load balancers and clients when to look again.
    if (h.httpStatus === 503) reply.header('retry-after', '2');
    return reply.code(h.httpStatus).send(h.body);
  });

  app.get('/api/v1/status', {
    config: open,
    schema: { tags: ['system'], summary: 'Version, mode, providers and dependencies', security: [], response: { 200: AnyObject } },
  }, async () => {
    const h = await checkHealth(s);
    return {
      name: 'loci',
      version: PACKAGE_VERSION,
      api_version: API_VERSION,
      mode: s.config.mode,
      uptime_s: Math.round((Date.now() - s.startedAt.getTime()) / 1000),
      storage: { driver: s.db.kind },
      providers: {
        embedder: { name: s.config.embedder, model: s.embedder.modelId, dim: s.embedder.dim },
        entities: { name: 'compromise+wink-nlp' },
        llm: s.config.llm.url ? { name: 'openai-compatible', model: s.config.llm.model ?? null } : null,
        summary: s.config.llm.url ? 'llm' : 'extractive',
      },
      cache: { kind: s.cache.kind },
      event_bus: { kind: s.bus.kind },
      // Contradiction detection runs after writes: how far behind it is (depth: this process's queue).
      contradiction_detection: s.backlog.stats(),
      dependencies: h.body.dependencies,
      platform_init_errors: [...s.initErrors],
    };
  });

  app.get('/api/v1/stats', {
    config: open,
    schema: {
      tags: ['system'], summary: 'Public counters', security: [],
      response: { 200: Type.Record(Type.String(), Type.Integer()) },
    },
  }, async () => publicStats(s));
};
