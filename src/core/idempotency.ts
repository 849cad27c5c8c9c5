// Idempotency-Key: the final response of a request is kept for 24 h and replayed for a
// retry with the same key and body. Same key with another body → 422; while the first is
// still running → 409. Records live in the cache (Redis when configured: replicas agree).
import { createHash } from 'node:crypto';
import type { Cache } from '../infra/cache/types.js';

export const REPLAY_TTL_MS = 24 * 60 * 60_000;
/** How long an in-flight claim survives a crashed handler before a retry may run again. */
export const IN_FLIGHT_TTL_MS = 120_000;

export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** token: the claiming request's own, so only it may abandon the claim. */
type Entry = { state: 'in_flight'; fingerprint: string; token?: string } | { state: 'done'; fingerprint: string; response: StoredResponse };

export type Claim =
  | { kind: 'claimed' }
  | { kind: 'replay'; response: StoredResponse }
  | { kind: 'in_flight' }
  | { kind: 'mismatch' };

/** Objects with their keys sorted, at every depth: key order does not make two bodies differ. */
function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v !== null && typeof v === 'object') {
    return Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical((v as Record<string, unknown>)[k])]));
  }
  return v;
}

export function fingerprint(parts: unknown[]): string {
  return createHash('sha256').update(JSON.stringify(canonical(parts))).digest('hex');
}

export class Idempotency {
  /** inFlightTtlMs: must outlast the slowest request (the bulk budget), or a duplicate could run meanwhile. */
  constructor(private cache: Cache, private inFlightTtlMs = IN_FLIGHT_TTL_MS) {}

  private key(scope: string, idemKey: string) {
    return `idem:${scope}:${createHash('sha256').update(idemKey).digest('hex').slice(0, 32)}`;
  }

  /** Claims the key for this request or tells what to answer instead. */
  async claim(scope: string, idemKey: string, fp: string, token?: string): Promise<Claim> {
    const k = this.key(scope, idemKey);
    for (let attempt = 0; attempt < 2; attempt++) {
      if (await this.cache.setIfAbsent(k, JSON.stringify({ state: 'in_flight', fingerprint: fp, token } satisfies Entry), this.inFlightTtlMs)) {
        return { kind: 'claimed' };
      }
      const raw = await this.cache.get(k);
      if (raw === null) continue; // expired between the two calls: try to claim again
      const entry = JSON.parse(raw) as Entry;
      if (entry.fingerprint !== fp) return { kind: 'mismatch' };
      return entry.state === 'done' ? { kind: 'replay', response: entry.response } : { kind: 'in_flight' };
    }
    return { kind: 'in_flight' };
  }

  async complete(scope: string, idemKey: string, fp: string, response: StoredResponse): Promise<void> {
    const entry: Entry = { state: 'done', fingerprint: fp, response };
    await this.cache.set(this.key(scope, idemKey), JSON.stringify(entry), REPLAY_TTL_MS);
  }

  /**
   * Drops the in-flight claim made with this token, if it is still there: for a claim whose answer
   * was lost (the cache went away mid-call), so it may or may not have landed. Get then delete:
   * another claim can only take its place once this one expired, which is far from here.
   */
  async abandon(scope: string, idemKey: string, token: string): Promise<void> {
    const k = this.key(scope, idemKey);
    const raw = await this.cache.get(k);
    if (raw === null) return;
    const entry = JSON.parse(raw) as Entry;
    if (entry.state === 'in_flight' && entry.token === token) await this.cache.del(k);
  }

  /** Drops an in-flight claim whose request did not reach a final answer, so a retry runs. */
  async release(scope: string, idemKey: string): Promise<void> {
    await this.cache.del(this.key(scope, idemKey));
  }
}

/** A response is final (worth replaying) unless it asks the client to retry. */
export const isFinal = (status: number) => status < 500 && status !== 429 && status !== 409;
