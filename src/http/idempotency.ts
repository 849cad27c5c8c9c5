// Applies Idempotency-Key to routes that opt in with `config.idempotent: true`.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../services.js';
import { fingerprint, Idempotency, IN_FLIGHT_TTL_MS, isFinal } from '../core/idempotency.js';
import { randomUUID } from 'node:crypto';
import { invalid, DomainError, unavailable } from '../core/errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    idempotent?: boolean;
  }
  interface FastifyRequest {
    idem?: { scope: string; key: string; fp: string };
  }
}

const MAX_KEY = 255;
const REPLAYED_HEADERS = ['content-type', 'location', 'retry-after'];
/** Headers that are part of what a request asks for: the same key with another value is another request. */
const FINGERPRINT_HEADERS = ['x-bulk-attempt-id'];

/** Runs fn every second until it succeeds or forMs passed (the claim would have expired by then). */
function untilDone(fn: () => Promise<void>, forMs: number) {
  const end = Date.now() + forMs;
  const tick = () => {
    fn().catch(() => {
      if (Date.now() < end) setTimeout(tick, 1_000).unref();
    });
  };
  setTimeout(tick, 1_000).unref();
}

export function registerIdempotency(app: FastifyInstance, s: Services) {
  const idem = new Idempotency(s.cache, Math.max(IN_FLIGHT_TTL_MS, s.config.bulkBudgetMs + 30_000));

  app.addHook('preHandler', async (req: FastifyRequest, reply: FastifyReply) => {
    if (!req.routeOptions.config?.idempotent) return;
    const raw = req.headers['idempotency-key'];
    const key = Array.isArray(raw) ? raw[0] : raw;
    if (key === undefined) return;
    if (key.length === 0 || key.length > MAX_KEY) {
      throw invalid(['header', 'idempotency-key'], `Idempotency-Key must be 1 to ${MAX_KEY} characters`, 'string_too_long', key, { max_length: MAX_KEY });
    }
    // Keys are per caller: two tenants using the same key never see each other's responses.
    const scope = `${req.caller.tenantId}:${req.caller.keyId ?? req.caller.agentId ?? ''}:${req.routeOptions.url}`;
    const fp = fingerprint([req.method, req.url, req.body ?? null, ...FINGERPRINT_HEADERS.map((h) => req.headers[h] ?? null)]);
    let claim;
    const token = randomUUID();
    try {
      claim = await idem.claim(scope, key, fp, token);
    } catch (err) {
      req.log.warn({ err }, 'idempotency store unavailable');
      // The claim may have landed before its answer was lost: drop it once the store is back, or
      // every retry would be told "still being processed" until it expires.
      untilDone(() => idem.abandon(scope, key, token), IN_FLIGHT_TTL_MS);
      throw unavailable('The idempotency store is unavailable; retry later');
    }
    if (claim.kind === 'mismatch') {
      throw invalid(['header', 'idempotency-key'], 'This Idempotency-Key was already used with a different request body', 'idempotency_key_reused', key);
    }
    // Retry-After tells a client that repeating the request is the way on (the first try's answer is replayed then).
    if (claim.kind === 'in_flight') {
      throw new DomainError(409, 'Conflict', 'A request with this Idempotency-Key is still being processed; retry later', {}, { 'retry-after': '1' });
    }
    if (claim.kind === 'replay') {
      const r = claim.response;
      for (const [h, v] of Object.entries(r.headers)) reply.header(h, v);
      reply.header('idempotent-replayed', 'true');
      return reply.code(r.status).send(r.body);
    }
    req.idem = { scope, key, fp };
  });

  app.addHook('onSend', async (req, reply, payload) => {
    if (!req.idem) return payload;
    const { scope, key, fp } = req.idem;
    req.idem = undefined;
    try {
      if (isFinal(reply.statusCode)) {
        const headers: Record<string, string> = {};
        for (const h of REPLAYED_HEADERS) {
          const v = reply.getHeader(h);
          if (v !== undefined) headers[h] = String(v);
        }
        const response = { status: reply.statusCode, headers, body: typeof payload === 'string' ? payload : String(payload ?? '') };
        // The request took effect: its answer must reach the store, or a retry after the claim
        // expires would run it again. Keep trying in the background while the store is away.
        await idem.complete(scope, key, fp, response).catch((err) => {
          req.log.warn({ err }, 'could not store idempotent response; retrying in the background');
          untilDone(() => idem.complete(scope, key, fp, response), IN_FLIGHT_TTL_MS);
        });
      } else {
        await idem.release(scope, key).catch(() => untilDone(() => idem.release(scope, key), IN_FLIGHT_TTL_MS));
      }
    } catch (err) {
      req.log.warn({ err }, 'could not store idempotent response');
    }
    return payload;
  });
}
