// Keystones (spec 4.6; DEFAULTS "Keystones"; docs/keystones.md): schema + parse → KeystoneService.
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import type { Services } from '../services.js';
import type { KeystoneInput } from '../core/keystones.js';
import { errorResponses } from './schemas.js';
import {
  KEYSTONE_LIST_DOC, KeystoneAgentHeader, KeystoneBody, KeystoneDeleteQuery, KeystoneDeleted, KeystoneDocParams,
  KeystoneListQuery, KeystoneSchema,
} from './keystone-schemas.js';

const agentHeader = (req: FastifyRequest) => (req.headers as Static<typeof KeystoneAgentHeader>)['x-agent-id'];

export const keystoneRoutes = (s: Services): FastifyPluginAsync => async (app) => {
  app.addSchema(KeystoneSchema);
  const tags = ['keystones'];
  const ref = Type.Ref('Keystone');
  // Caura's plugin reads and writes the same rules under its own name (/api/v1/memclaw/keystones);
  // that path serves the same routes, left out of the API document.
  for (const base of ['/api/v1/loci/keystones', '/api/v1/memclaw/keystones']) {
    const hide = base !== '/api/v1/loci/keystones';
    routes(base, hide);
  }

  function routes(base: string, hide: boolean) {
    app.get(base, {
      config: { auth: 'open' },
      schema: {
        hide, tags, summary: 'The keystones (mandatory rules) that apply', security: [],
        description: `${KEYSTONE_LIST_DOC} Open: no key or trust level is needed, but only a tenant the caller may read is ` +
          'listed (a key\'s own or granted tenants; without a key, the standalone tenant).',
        querystring: KeystoneListQuery,
        response: { 200: Type.Array(ref), ...errorResponses() },
      },
    }, async (req, reply) => {
      const list = await s.keystones.list(req.caller, req.query as Static<typeof KeystoneListQuery>);
      if (list.truncated) reply.header('x-truncated', 'true');
      return list.rules;
    });

    app.post(base, {
      schema: {
        hide,
        tags, summary: 'Create or replace a keystone',
        description: 'Trust 1 for a scope=agent rule binding the caller\'s own agent (an agent-bound key), trust 2 for anything ' +
          'else; replacing a stored rule also needs the trust its stored scope needs.',
        headers: KeystoneAgentHeader,
        body: KeystoneBody,
        response: { 200: Type.Intersect([ref, Type.Object({ created: Type.Boolean() })]), ...errorResponses() },
      },
    }, async (req) => s.keystones.upsert(req.caller, req.body as KeystoneInput, { agentHeader: agentHeader(req) }));

    app.delete(`${base}/:doc_id`, {
      schema: {
        hide,
        tags, summary: 'Delete a keystone',
        description: 'Gated by the rule as stored: trust 1 for the caller\'s own agent-scope rule, trust 2 otherwise.',
        headers: KeystoneAgentHeader,
        params: KeystoneDocParams,
        querystring: KeystoneDeleteQuery,
        response: { 200: KeystoneDeleted, ...errorResponses(404) },
      },
    }, async (req) => s.keystones.delete(
      req.caller, (req.params as Static<typeof KeystoneDocParams>).doc_id, req.query as Static<typeof KeystoneDeleteQuery>,
      { agentHeader: agentHeader(req) },
    ));
  }
};
