// Builds the Fastify app from a Services object: no globals, so tests build as many as they like.
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import type { Services } from './services.js';
import { registerErrorHandling, sendProblem } from './http/errors.js';
import { registerIdentity } from './http/identity.js';
import { registerValidation } from './http/validation.js';
import { sharedSchemas } from './http/schemas.js';
import { API_VERSION } from './version.js';
import { systemRoutes } from './http/system.js';
import { keyRoutes } from './http/keys.js';
import { memoryRoutes } from './http/memories.js';
import { adminRoutes } from './http/admin.js';
import { MemorySchema } from './http/memory-schemas.js';
import { documentRoutes } from './http/documents.js';
import { contradictionRoutes } from './http/contradictions.js';
import { registerRateLimit } from './http/rate-limit.js';
import { registerIdempotency } from './http/idempotency.js';
import { graphRoutes } from './http/graph.js';
import { auditRoutes } from './http/audit.js';
import { ingestRoutes } from './http/ingest.js';
import { searchRoutes } from './http/search.js';
import { bulkRoutes } from './http/memories-bulk.js';
import { skillRoutes } from './http/skills.js';
import { keystoneRoutes } from './http/keystones.js';
import { mcpRoutes } from './mcp/http.js';
import { clientErrorHandler } from './http/client-errors.js';
import { authVerifyRoutes } from './http/auth-verify.js';
import { dashboardRoutes } from './http/dashboard.js';
import { activityRoutes, registerSearchLatency } from './http/activity.js';
import { LatencyRecorder } from './core/latency.js';

export async function buildApp(services: Services): Promise<FastifyInstance> {
  const app: FastifyInstance = Fastify({
    loggerInstance: services.log.child({ component: 'http' }) as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: services.config.logLevel !== 'debug' }),
    bodyLimit: services.config.ingestMaxBytes + 64 * 1024,
    ajv: { customOptions: { strict: false } },
    // Path parameters up to 256 characters reach their schema (run ids may have 200); longer ones,
    // and malformed percent-encoding, are answered before routing, as problem+json like every error.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 256 },
    frameworkErrors: (err, _req, reply) => {
      const tooLong = err.code === 'FST_ERR_MAX_PARAM_LENGTH';
      void sendProblem(reply, tooLong ? 414 : 400, tooLong ? 'URI Too Long' : 'Bad Request',
        tooLong ? 'A path segment is longer than 256 characters' : 'The URL is not validly percent-encoded');
    },
    clientErrorHandler,
  });
  registerValidation(app);
  registerErrorHandling(app);
  for (const s of sharedSchemas) app.addSchema(s);
  app.addSchema(MemorySchema);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Loci API',
        version: API_VERSION,
        description: 'Memory service for AI agents: memories, hybrid recall, documents, keystones, ingest, knowledge graph and skills.',
      },
      components: {
        securitySchemes: {
          ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
          Bearer: { type: 'http', scheme: 'bearer', description: 'The same API key as Authorization: Bearer <key>' },
        },
      },
      security: [{ ApiKey: [] }, { Bearer: [] }],
    },
    refResolver: { buildLocalReference: (json, _base, _frag, i) => (json.$id as string) ?? `def-${i}` },
  });

  registerRateLimit(app, services);
  registerIdentity(app, services.config, services.keys);
  registerIdempotency(app, services);
  const searchLatency = new LatencyRecorder();
  registerSearchLatency(app, searchLatency);

  await app.register(systemRoutes(services));
  await app.register(keyRoutes(services));
  await app.register(authVerifyRoutes(services));
  await app.register(memoryRoutes(services));
  await app.register(bulkRoutes(services));
  await app.register(adminRoutes(services));
  await app.register(documentRoutes(services));
  await app.register(contradictionRoutes(services));
  await app.register(graphRoutes(services));
  await app.register(auditRoutes(services));
  await app.register(ingestRoutes(services));
  await app.register(searchRoutes(services));
  await app.register(skillRoutes(services));
  await app.register(keystoneRoutes(services));
  await app.register(mcpRoutes(services));
  await app.register(activityRoutes(services, searchLatency));
  await app.register(dashboardRoutes(services));

  app.get('/api/openapi.json', { config: { auth: 'open' }, schema: { hide: true } }, async () => app.swagger());
  const { default: scalar } = await import('@scalar/fastify-api-reference');
  await app.register(scalar as any, {
    routePrefix: '/docs/api-reference',
    configuration: { url: '/api/openapi.json', title: 'Loci API reference' },
  });
  // The reference page's own routes are open.
  return app;
}
