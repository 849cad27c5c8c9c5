// Rate limits. Per key (DEFAULTS: writes 10/s, bulk 2/s, search and recall 30/s, the rest 60/s):
// routes pick their class with `config.rate`; by default reads are "other" and changes "write".
// Per client address for everything without a valid key (LOCI_RATE_UNAUTHENTICATED): open
// endpoints, anonymous callers and failed authentications (401s), so keys cannot be guessed at
// speed. Counted in the cache, so replicas sharing Redis share one budget.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../services.js';
import { takeToken, type RateClass, type RateDecision } from '../infra/rate-limit.js';
import type { Caller } from '../core/caller.js';
import { DomainError } from '../core/errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** 'per-call': the route meters each call it carries itself. */
    rate?: RateClass | 'per-call';
  }
}

const tooMany = (d: RateDecision, cls: string) =>
  new DomainError(429, 'Too Many Requests', `Rate limit of ${d.limit} ${cls} requests per second exceeded; retry after ${d.retryAfterS} s`,
    { limit: d.limit, class: cls },
    { 'retry-after': String(d.retryAfterS), 'x-ratelimit-limit': String(d.limit), 'x-ratelimit-remaining': '0' });

/** Registers the limits. Call before the identity hook: an address over its budget is refused before its key is looked up. */
export function registerRateLimit(app: FastifyInstance, s: Services) {
  // Addresses whose budget ran out, until their window ends (this process): refused without a lookup.
  const blocked = new Map<string, number>();

  const meterAddress = async (req: FastifyRequest): Promise<RateDecision | null> => {
    let d: RateDecision;
    try {
      d = await takeToken(s.cache, `addr:${req.ip}`, 'unauthenticated', s.config.rateUnauthenticated);
    } catch (err) {
      req.log.warn({ err }, 'rate limit check failed');
      return null;
    }
    if (!d.allowed) {
      if (blocked.size > 10_000) blocked.clear();
      blocked.set(req.ip, Date.now() + d.retryAfterS * 1000);
    }
    return d;
  };

  app.addHook('onRequest', async (req, reply) => {
    const until = blocked.get(req.ip);
    if (until === undefined) return;
    if (until <= Date.now()) {
      blocked.delete(req.ip);
      return;
    }
    const retryAfterS = Math.max(1, Math.ceil((until - Date.now()) / 1000));
    throw tooMany({ allowed: false, limit: s.config.rateUnauthenticated, remaining: 0, retryAfterS }, 'unauthenticated');
  });

  // After identity, before the body is parsed or validated: malformed floods are metered too.
  app.addHook('preParsing', async (req, reply: FastifyReply, payload) => {
    const c = req.caller;
    if (!c?.authenticated) {
      const d = await meterAddress(req);
      if (d && !d.allowed) throw tooMany(d, 'unauthenticated');
      return payload;
    }
    const rate = req.routeOptions.config?.rate;
    if (rate === 'per-call') return payload; // the route meters each call it carries (MCP)
    const cls: RateClass = rate ?? (req.method === 'GET' || req.method === 'HEAD' ? 'other' : 'write');
    const d = await chargeRate(s, c, cls, (err) => req.log.warn({ err }, 'rate limit check failed'));
    if (d) reply.header('x-ratelimit-limit', d.limit).header('x-ratelimit-remaining', d.remaining);
    return payload;
  });

  // A failed authentication never reached the meter above: it counts against its address here,
  // before the answer leaves (the next guess already finds the count).
  app.addHook('onSend', async (req, reply, payload) => {
    if (reply.statusCode === 401) await meterAddress(req);
    return payload;
  });
}

/**
 * Counts one call of an authenticated caller in its class; over the limit, a 429 with Retry-After.
 * Open endpoints and unauthenticated callers are not metered per key. The cache being down shows
 * in /health; calls are not refused for it (null).
 */
export async function chargeRate(s: Services, c: Caller, cls: RateClass, onError?: (err: unknown) => void): Promise<RateDecision | null> {
  if (!c?.authenticated) return null;
  const who = c.keyId ?? `gw:${c.tenantId}:${c.agentId ?? ''}`;
  let d: RateDecision;
  try {
    d = await takeToken(s.cache, who, cls, s.config.rateLimits[cls]);
  } catch (err) {
    onError?.(err);
    return null;
  }
  if (!d.allowed) throw tooMany(d, cls);
  return d;
}
