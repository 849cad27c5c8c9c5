// Publishing that rides out a short bus outage. The event keeps its id on every attempt, so the
// distributed bus drops a copy that did reach the server before an attempt timed out.
import type { BusEvent, EventBus } from './types.js';

export interface RetryOptions {
  /** Give up after this long (ms). */
  maxMs?: number;
  /** First pause between attempts (ms); doubles up to 5 s. */
  baseMs?: number;
}

const CLOSED = 'bus is closed';

/** Publishes, retrying failures with a backoff; rejects with the last error when time runs out or the bus is closed. */
export async function publishWithRetry(bus: EventBus, event: BusEvent, opts: RetryOptions = {}): Promise<void> {
  const deadline = Date.now() + (opts.maxMs ?? 60_000);
  let pause = opts.baseMs ?? 250;
  for (;;) {
    try {
      await bus.publish(event);
      return;
    } catch (err) {
      if ((err as Error)?.message === CLOSED || Date.now() + pause > deadline) throw err;
      await new Promise((r) => setTimeout(r, pause).unref());
      pause = Math.min(pause * 2, 5_000);
    }
  }
}
