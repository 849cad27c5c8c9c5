// Per-key rate limits (DEFAULTS: writes 10/s, bulk 2/s, search and recall 30/s, the rest 60/s).
// Routes pick their class with `config.rate`; by default reads are "other" and changes "write".
import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.js';
import { takeToken, type RateClass } from '../infra/rate-limit.js';
import { ApiError } from './errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    rate?: RateClass;
  }
}

export function registerRateLimit(app: FastifyInstance, s: Services) {
  // onRequest, right after identity: a request is counted before its body is parsed or validated,
  // so malformed floods are metered too.
  app.addHook('onRequest', async (req, reply) => {
    const c = req.caller;
    if (!c?.authenticated) return; // open endpoints and 401s are not metered per key
    const cls: RateClass = req.routeOptions.config?.rate ?? (req.method === 'GET' || req.method === 'HEAD' ? 'other' : 'write');
    const who = c.keyId ?? `gw:${c.tenantId}:${c.agentId ?? ''}`;
    let d;
    try {
      d = await takeToken(s.cache, who, cls, s.config.rateLimits[cls]);
    } catch (err) {
      // The cache being down shows in /health; requests are not refused for it.
      req.log.warn({ err }, 'rate limit check failed');
      return;
    }
    reply.header('x-ratelimit-limit', d.limit).header('x-ratelimit-remaining', d.remaining);
    if (!d.allowed) {
      throw new ApiError(429, 'Too Many Requests', `Rate limit of ${d.limit} ${cls} requests per second exceeded; retry after ${d.retryAfterS} s`,
        { limit: d.limit, class: cls }, { 'retry-after': String(d.retryAfterS) });
    }
  });
}
