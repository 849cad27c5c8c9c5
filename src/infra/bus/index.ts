// Picks the bus: NATS JetStream when a URL is configured, otherwise in-process.
import type { EventBus } from './types.js';
import { InProcessBus } from './in-process.js';
import { NatsBus } from './nats.js';

export type { BusEvent, BusHandler, BusHealth, EventBus } from './types.js';
export { InProcessBus, type DeadLetter } from './in-process.js';
export { NatsBus } from './nats.js';
export { publishWithRetry } from './retry.js';

export interface CreateBusOptions {
  natsUrl?: string;
  stream?: string;
  /** Handler attempts per event before it is dead-lettered. */
  maxDeliver?: number;
  /** NATS: redelivery timeout for an unacknowledged event (ms). */
  ackWaitMs?: number;
  /** First retry delay after a failed attempt (ms); doubles per attempt. */
  retryBaseMs?: number;
  /** In-process: handlers running at once. */
  concurrency?: number;
  /** Failures worth logging (symbolic tag plus the error). */
  onError?: (tag: string, err: unknown) => void;
}

export function createBus(opts: CreateBusOptions = {}): EventBus {
  if (opts.natsUrl) {
    return new NatsBus({
      url: opts.natsUrl,
      stream: opts.stream,
      maxDeliver: opts.maxDeliver,
      ackWaitMs: opts.ackWaitMs,
      retryBaseMs: opts.retryBaseMs,
      onError: opts.onError,
    });
  }
  return new InProcessBus({ maxDeliver: opts.maxDeliver, retryBaseMs: opts.retryBaseMs, concurrency: opts.concurrency });
}
