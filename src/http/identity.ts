// Resolves the caller of every request: the API key (X-API-Key or Authorization: Bearer), then trusted gateway headers,
// then the standalone tenant, else anonymous. Keyed routes then demand authentication.
// Standalone mode bound to loopback (Caura's "no API key" quick start): a request without a key,
// or with Caura's placeholder key, acts as the fixed tenant at trust 1 — never admin. Bound to
// any other address, or with LOCI_KEYLESS_LOOPBACK=false, a key is required.
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

/** The key Caura's README sends in standalone mode; it stands for "no key". */
export const PLACEHOLDER_KEY = 'standalone';

/** Whether `address` (a host name or IP, IPv4-mapped included) is the loopback interface. */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.toLowerCase().replace(/^\[|\]$/g, '').replace(/^::ffff:/, '');
  return a === 'localhost' || a === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(a);
}

/** Whether a request may go without a key: standalone, bound to loopback, and reached over it. */
export function keylessAllowed(config: Config, peer: string | undefined): boolean {
  return config.mode === 'standalone' && config.keylessLoopback && isLoopback(config.host) && isLoopback(peer);
}

/** The standalone tenant's caller for a request without a key on loopback. */
export function standaloneCaller(config: Config): Caller {
  return { tenantId: config.standaloneTenant, agentId: null, trust: TRUST.standard, source: 'standalone', readableTenants: [], authenticated: true };
}

async function resolveCaller(req: FastifyRequest, config: Config, keys: KeyService): Promise<Caller> {
  const keyless = keylessAllowed(config, req.socket?.remoteAddress);
  const presented = presentedKey(req)?.trim();
  const raw = keyless && presented === PLACEHOLDER_KEY ? undefined : presented;
  if (raw) {
    const key = await keys.resolve(raw);
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
  if (keyless) return standaloneCaller(config);
  if (config.mode === 'standalone') {
    return { tenantId: config.standaloneTenant, agentId: null, trust: 0, source: 'standalone', readableTenants: [], authenticated: false };
  }
  return { tenantId: null, agentId: null, trust: 0, source: 'anonymous', readableTenants: [], authenticated: false };
}
