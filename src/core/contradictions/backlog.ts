// The detector's backlog: written memories whose contradiction detection has not finished yet.
// Detection runs after the write, so under a sustained write rate it can fall behind; this
// bounds how far. Writes wait for room (back-pressure) and are refused with 503 and Retry-After
// when none comes in time, so the queue never grows without limit. It also measures the lag
// (write committed → detection finished), reported in /status and by the bulk benchmark.
//
// Depth counts what this process published and has not yet handled, so it is only kept with
// the in-process bus; with NATS the stream is the durable queue (see tracksDepth).
import { DomainError } from '../errors.js';

export interface BacklogStats {
  /** Detections queued or running. */
  depth: number;
  /** Most queued or running before writes wait. */
  max_depth: number;
  /** The bound in force now: max_depth, or less when the recent detection rate would make the lag pass its target. */
  bound: number;
  /** Highest depth seen since start. */
  peak_depth: number;
  /** Writes currently waiting for room. */
  waiting_writes: number;
  /** Detections finished since start. */
  processed: number;
  /** Write → detection finished, over the last LAG_WINDOW detections (ms; null before the first). */
  lag_p50_ms: number | null;
  lag_p95_ms: number | null;
}

const LAG_WINDOW = 1_000;
/** The lag-based bound never falls below one full bulk batch. */
const MIN_ROOM = 100;

export class DetectionBacklog {
  private depth = 0;
  private peak = 0;
  private processed = 0;
  private lags: number[] = [];
  private lagAt = 0;
  private waiters: Array<{ n: number; wake: () => void }> = [];
  /** Finish times of recent detections: their rate says how soon there will be room. */
  private recent: number[] = [];
  /** Events whose first attempt failed (their retries are not in the depth). */
  private retrying = new Set<string>();

  /**
   * `tracksDepth` false: the bus is shared by replicas, depth is not known here (lag still is).
   * `targetLagMs`: the bound also shrinks to what the detector finishes in this long at its recent
   * rate (never below one bulk batch, MIN_ROOM), so the lag of a sustained write stays near it.
   */
  constructor(readonly maxDepth = 2_000, readonly tracksDepth = true, readonly targetLagMs = 0) {}

  /** The bound now: maxDepth, or less when the recent detection rate says the lag would pass its target. */
  bound(now = Date.now()): number {
    if (!this.targetLagMs) return this.maxDepth;
    const rate = this.rate(now);
    if (rate <= 0) return this.maxDepth;
    return Math.min(this.maxDepth, Math.max(MIN_ROOM, Math.floor((rate * this.targetLagMs) / 1000)));
  }

  /** Takes room for `n` detections now (depth counts them from here on). */
  private take(n: number): void {
    this.depth += n;
    if (this.depth > this.peak) this.peak = this.depth;
  }

  /** Counts `n` queued detections without waiting for room (rare writes: content updates). */
  added(n: number): void {
    if (this.tracksDepth && n > 0) this.take(n);
  }

  /** Gives back room taken by reserve() for writes that published no event (duplicates, failures). */
  release(n: number): void {
    if (!this.tracksDepth || n <= 0) return;
    this.depth = Math.max(0, this.depth - n);
    this.wake();
  }

  /**
   * Runs the detection of one event. Its first attempt leaves the depth whether it succeeds or
   * not (a failed one is retried by the bus, or dead-lettered, outside this count); the lag is
   * recorded when one succeeds.
   */
  async track(event: { id: string; occurred_at?: string }, detect: () => Promise<unknown>): Promise<void> {
    const first = !this.retrying.has(event.id);
    try {
      await detect();
      this.retrying.delete(event.id);
      this.finished(event.occurred_at, first);
    } catch (err) {
      if (first) {
        this.retrying.add(event.id);
        if (this.retrying.size > 1_000) this.retrying.delete(this.retrying.values().next().value!);
        this.leave();
      }
      throw err;
    }
  }

  private leave(): void {
    if (this.tracksDepth) this.depth = Math.max(0, this.depth - 1);
    this.wake();
  }

  /** One detection finished for a write at `occurredAt` (ISO). */
  finished(occurredAt: string | undefined, counted = true, now = Date.now()): void {
    if (counted && this.tracksDepth) this.depth = Math.max(0, this.depth - 1);
    this.processed++;
    const at = occurredAt ? Date.parse(occurredAt) : NaN;
    if (Number.isFinite(at)) {
      const lag = Math.max(0, now - at);
      if (this.lags.length < LAG_WINDOW) this.lags.push(lag);
      else this.lags[this.lagAt] = lag;
      this.lagAt = (this.lagAt + 1) % LAG_WINDOW;
    }
    this.recent.push(now);
    if (this.recent.length > 200) this.recent.shift();
    this.wake();
  }

  /**
   * Reserves room for the detections of `n` writes, waiting for it in order; 503 with Retry-After
   * if there is none by `until` (epoch ms). The writer gives back what it did not publish (release).
   */
  async reserve(n: number, until: number): Promise<void> {
    if (!this.tracksDepth || n <= 0) return;
    if (this.waiters.length === 0 && this.fits(n)) return this.take(n);
    const waiter = { n, wake: () => undefined as void };
    const ok = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter); // removed now: a later wake must not count it
        this.wake(); // the next in line may fit
        resolve(false);
      }, Math.max(0, until - Date.now()));
      timer.unref?.();
      waiter.wake = () => {
        clearTimeout(timer);
        resolve(true);
      };
      this.waiters.push(waiter);
    });
    if (!ok) throw this.full(n);
  }

  /** A write of `n` fits now (an oversize write is let through on an empty queue). */
  fits(n: number): boolean {
    return this.depth === 0 || this.depth + n <= this.bound();
  }

  /** Starts a new measuring window: lag samples and peak depth (benchmarks measure phases apart). */
  resetWindow(): void {
    this.lags = [];
    this.lagAt = 0;
    this.peak = this.depth;
  }

  stats(): BacklogStats {
    const sorted = [...this.lags].sort((a, b) => a - b);
    const at = (p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : null);
    return {
      depth: this.depth, max_depth: this.maxDepth, bound: this.bound(), peak_depth: this.peak, waiting_writes: this.waiters.length,
      processed: this.processed, lag_p50_ms: at(0.5), lag_p95_ms: at(0.95),
    };
  }

  /** Detections finished per second lately (0 if unknown). */
  rate(now = Date.now()): number {
    if (this.recent.length < 2) return 0;
    const span = now - this.recent[0];
    return span > 0 ? (this.recent.length / span) * 1000 : 0;
  }

  private full(n: number): DomainError {
    const rate = this.rate();
    const bound = this.bound();
    const seconds = Math.min(60, Math.max(1, Math.ceil(rate > 0 ? (this.depth + n - bound) / rate : 5)));
    return new DomainError(503, 'Service Unavailable',
      `Contradiction detection is ${this.depth} memories behind (at most ${bound} now); nothing was stored. Retry after ${seconds} s.`,
      {}, { 'retry-after': String(seconds) });
  }

  /** Wakes waiting writes in order, as long as each fits. */
  private wake(): void {
    while (this.waiters.length && this.fits(this.waiters[0].n)) {
      const w = this.waiters.shift()!;
      this.take(w.n); // counted now, so the next waiter sees the room this one takes
      w.wake();
    }
  }
}
