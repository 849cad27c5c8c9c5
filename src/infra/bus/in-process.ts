// In-process bus: events are queued and handled on later turns of the event loop, so a
// publisher never runs a handler inside its own await chain. A handler that throws is retried
// with a backoff; after maxDeliver attempts the event is kept in a bounded dead-letter list.
// Not durable: events still queued when the process exits are lost.
import type { BusEvent, BusHandler, BusHealth, EventBus } from './types.js';
import { checkEvent, checkType, retryDelay } from './common.js';

export interface DeadLetter {
  event: BusEvent;
  attempts: number;
  /** Message of the last error (internal; not for client responses). */
  error: string;
  failed_at: string;
}

export interface InProcessBusOptions {
  /** Attempts per event, the first one included. */
  maxDeliver?: number;
  /** First retry delay (ms); doubles per attempt, capped. */
  retryBaseMs?: number;
  /** Handlers running at once. */
  concurrency?: number;
  /** Dead letters kept (oldest dropped first). */
  maxDeadLetters?: number;
}

interface Job {
  event: BusEvent;
  attempts: number;
}

export class InProcessBus implements EventBus {
  readonly kind = 'in-process' as const;
  private handlers = new Map<string, BusHandler>();
  private queue: Job[] = [];
  private running = 0;
  /** Queued, running or waiting for a retry. */
  private outstanding = 0;
  private retryTimers = new Set<NodeJS.Timeout>();
  private dead: DeadLetter[] = [];
  private idleWaiters: Array<() => void> = [];
  private scheduled = false;
  private closed = false;
  private readonly maxDeliver: number;
  private readonly retryBaseMs: number;
  private readonly concurrency: number;
  private readonly maxDeadLetters: number;

  constructor(opts: InProcessBusOptions = {}) {
    this.maxDeliver = Math.max(1, opts.maxDeliver ?? 5);
    this.retryBaseMs = opts.retryBaseMs ?? 100;
    this.concurrency = Math.max(1, opts.concurrency ?? 4);
    this.maxDeadLetters = opts.maxDeadLetters ?? 1_000;
  }

  async start(): Promise<void> {}

  async publish(event: BusEvent): Promise<void> {
    if (this.closed) throw new Error('bus is closed');
    checkEvent(event);
    // Handlers get a copy: a publisher mutating its object later must not change the event.
    const copy = JSON.parse(JSON.stringify(event)) as BusEvent;
    if (!this.handlers.has(copy.type)) return; // nobody listens: nothing to deliver
    this.outstanding++;
    this.queue.push({ event: copy, attempts: 0 });
    this.schedule();
  }

  subscribe(type: string, handler: BusHandler): void {
    checkType(type);
    if (this.handlers.has(type)) throw new Error(`a handler for ${type} is already subscribed`);
    this.handlers.set(type, handler);
  }

  health(): BusHealth {
    return { status: 'ok' };
  }

  /** Events that failed every attempt, oldest first. */
  deadLetters(): DeadLetter[] {
    return this.dead.slice();
  }

  drain(timeoutMs = 30_000): Promise<void> {
    if (this.outstanding === 0) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.idleWaiters = this.idleWaiters.filter((w) => w !== done);
        reject(new Error('bus drain timed out'));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      this.idleWaiters.push(done);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.retryTimers) clearTimeout(t);
    this.retryTimers.clear();
    // Queued and waiting events are dropped; only handlers already running still count.
    this.queue = [];
    this.outstanding = this.running;
    if (this.outstanding === 0) this.notifyIdle();
  }

  private schedule() {
    if (this.scheduled || this.closed) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.pump();
    });
  }

  private pump() {
    while (!this.closed && this.running < this.concurrency && this.queue.length > 0) {
      const job = this.queue.shift()!;
      this.running++;
      void this.run(job);
    }
  }

  private async run(job: Job) {
    job.attempts++;
    const handler = this.handlers.get(job.event.type);
    let failure: unknown = null;
    try {
      if (handler) await handler(job.event);
    } catch (err) {
      failure = err ?? new Error('handler failed');
    }
    this.running--;
    if (failure !== null && !this.closed) {
      if (job.attempts < this.maxDeliver) {
        const t = setTimeout(() => {
          this.retryTimers.delete(t);
          if (this.closed) return;
          this.queue.push(job);
          this.schedule();
        }, retryDelay(this.retryBaseMs, job.attempts));
        this.retryTimers.add(t);
        this.pump();
        return;
      }
      this.dead.push({
        event: job.event,
        attempts: job.attempts,
        error: failure instanceof Error ? failure.message : String(failure),
        failed_at: new Date().toISOString(),
      });
      if (this.dead.length > this.maxDeadLetters) this.dead.shift();
    }
    this.outstanding--;
    if (this.outstanding === 0) this.notifyIdle();
    this.pump();
  }

  private notifyIdle() {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }
}
