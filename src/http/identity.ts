// Resolves the caller of every request: the API key (X-API-Key or Authorization: Bearer), then trusted gateway headers,
// then the standalone tenant, else anonymous. Keyed routes then demand authentication.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { type Caller, TRUST } from '../core/caller.js';
import { keyCaller, type KeyService } from '../core/keys.js';
import { unauthorized } from '../core/errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller;
  }
  interface FastifyContextConfig {
    /** 'open' routes need no key; every other route does. */
    auth?: 'open' | 'key';
  }
}

const KEYED = /^\/(api\/v1|admin|mcp)(\/|$)/;

const header = (req: FastifyRequest, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v || undefined;
};

export function registerIdentity(app: FastifyInstance, config: Config, keys: KeyService) {
  app.decorateRequest('caller', null as unknown as Caller);
  app.addHook('onRequest', async (req) => {
    req.caller = await resolveCaller(req, config, keys);
    const url = req.routeOptions.url;
    // Unknown routes fall through to the 404 handler; pages outside the API (docs) are open.
    const auth = req.routeOptions.config?.auth ?? (url && KEYED.test(url) ? 'key' : 'open');
    if (auth === 'key' && !req.caller.authenticated) throw unauthorized();
  });
}

/** The API key a request presents: X-API-Key, else `Authorization: Bearer <key>` (Caura's clients send either). */
function presentedKey(req: FastifyRequest): string | undefined {
  const key = header(req, 'x-api-key');
  if (key) return key;
  const auth = header(req, 'authorization');
  const m = auth ? /^Bearer[ \t]+(\S+)\s*$/i.exec(auth) : null;
  return m ? m[1] : undefined;
}

async function resolveCaller(req: FastifyRequest, config: Config, keys: KeyService): Promise<Caller> {
  const raw = presentedKey(req);
  if (raw) {
    const key = await keys.resolve(raw.trim());
    // A key that is wrong is an error even on open routes: the caller meant to authenticate.
    if (!key) throw unauthorized();
    keys.touch(key.id);
    return keyCaller(key);
  }
  const gwTenant = header(req, 'x-tenant-id');
  if (config.trustGateway && gwTenant) {
    return {
      tenantId: gwTenant,
      agentId: header(req, 'x-agent-id') ?? null,
      trust: TRUST.standard,
      source: 'gateway',
      readableTenants: [],
      authenticated: true,
    };
  }
  if (config.mode === 'standalone') {
    return { tenantId: config.standaloneTenant, agentId: null, trust: 0, source: 'standalone', readableTenants: [], authenticated: false };
  }
  return { tenantId: null, agentId: null, trust: 0, source: 'anonymous', readableTenants: [], authenticated: false };
}
