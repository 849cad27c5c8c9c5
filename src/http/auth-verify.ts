// POST /api/v1/auth/verify: Caura's plugin learns its tenant by sending its key in the body.
// Open (the key is in the body, not a header); a wrong key is a 401 counted against the address
// like any failed authentication, so keys cannot be guessed here faster than elsewhere.
import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import type { Services } from '../services.js';
import { keyCaller } from '../core/keys.js';
import { unauthorized } from '../core/errors.js';
import type { Caller } from '../core/caller.js';
import { keylessAllowed, PLACEHOLDER_KEY, standaloneCaller } from './identity.js';
import { errorResponses } from './schemas.js';

const VerifyBody = Type.Object({
  key: Type.String({ minLength: 1, maxLength: 512, description: 'The API key to check' }),
}, { additionalProperties: false });

const Nullable = (s: ReturnType<typeof Type.String>) => Type.Union([s, Type.Null()]);

const VerifyResult = Type.Object({
  valid: Type.Boolean({ description: 'Always true: a key that is not valid answers 401' }),
  tenant_id: Type.String(),
  agent_id: Nullable(Type.String()),
  fleet_id: Nullable(Type.String()),
  trust_level: Type.Integer(),
  source: Type.String({ description: 'api_key, or standalone for the placeholder key on loopback' }),
  key_id: Type.Optional(Type.String()),
});

const verified = (c: Caller) => ({
  valid: true, tenant_id: c.tenantId as string, agent_id: c.agentId, fleet_id: c.fleetId ?? null, trust_level: c.trust, source: c.source,
  ...(c.keyId ? { key_id: c.keyId } : {}),
});

export const authVerifyRoutes = (s: Services): FastifyPluginAsync => async (app) => {
  app.post('/api/v1/auth/verify', {
    config: { auth: 'open' },
    schema: {
      tags: ['system'], summary: 'Check an API key and name its tenant', security: [],
      description: 'The identity a key resolves to (the key is in the body). A key that does not resolve answers 401. ' +
        'In standalone mode on loopback, Caura\'s placeholder key "standalone" resolves to the fixed tenant at trust 1.',
      body: VerifyBody,
      response: { 200: VerifyResult, ...errorResponses() },
    },
  }, async (req) => {
    const raw = (req.body as Static<typeof VerifyBody>).key.trim();
    if (raw === PLACEHOLDER_KEY && keylessAllowed(s.config, req.socket?.remoteAddress)) return verified(standaloneCaller(s.config));
    const key = await s.keys.resolve(raw);
    if (!key) throw unauthorized();
    return verified(keyCaller(key));
  });
};
