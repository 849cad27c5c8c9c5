// Checks and helpers shared by both buses.
import type { BusEvent } from './types.js';

// Types become NATS subject tokens: dot-separated words, no wildcards or spaces.
const TYPE_RE = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;

export function checkType(type: string): void {
  if (typeof type !== 'string' || !TYPE_RE.test(type) || type.length > 200) {
    throw new Error(`invalid event type: ${JSON.stringify(type)}`);
  }
}

export function checkEvent(event: BusEvent): void {
  if (!event || typeof event !== 'object') throw new Error('event must be an object');
  if (typeof event.id !== 'string' || event.id.length === 0) throw new Error('event.id is required');
  checkType(event.type);
  if (!Number.isInteger(event.version) || event.version < 1) throw new Error('event.version must be a positive integer');
  if (typeof event.tenant_id !== 'string') throw new Error('event.tenant_id is required');
  if (typeof event.occurred_at !== 'string') throw new Error('event.occurred_at is required');
}

/** Delay before retry number `attempt` (1-based): doubles each time, capped at 64× the base. */
export function retryDelay(baseMs: number, attempt: number): number {
  return Math.round(baseMs * 2 ** Math.min(Math.max(attempt - 1, 0), 6));
}
