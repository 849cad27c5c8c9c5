// Foreground first: work that no request waits for (contradiction detection, skills Forge) runs
// "in the background", and a shared resource with a queue (the embedded database's one session)
// serves waiting foreground work before it. Between the two, a bulk write's storage ("batch"):
// a request waits for it, but its transactions come one after another, and a search that arrives
// meanwhile goes between them instead of after all of them. Marked through async context, so the
// code in between (stores, queries) needs no extra parameter.
import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';

export type Priority = 'foreground' | 'batch' | 'background';

/** Lanes in the order they are served. */
const LANES: readonly Priority[] = ['foreground', 'batch', 'background'];

const context = new AsyncLocalStorage<Priority>();

/** Runs fn, and everything it awaits, at the given priority. */
export function withPriority<T>(priority: Priority, fn: () => Promise<T>): Promise<T> {
  return context.run(priority, fn);
}

/** Runs fn, and everything it awaits, as background work. */
export function inBackground<T>(fn: () => Promise<T>): Promise<T> {
  return withPriority('background', fn);
}

/** The priority of the work running now (foreground unless marked). */
export const currentPriority = (): Priority => context.getStore() ?? 'foreground';

/**
 * A mutex with FIFO lanes: when it is released, the oldest waiter of the first non-empty lane
 * (foreground, batch, background) goes next. Lower lanes can wait under sustained load above
 * them; callers bound how much of it piles up (the detector's backlog, the bulk gate).
 */
export class PriorityLock {
  private busy = false;
  private lanes = new Map<Priority, Array<() => void>>(LANES.map((p) => [p, []]));

  run<T>(fn: () => Promise<T>, priority: Priority = currentPriority()): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      // Bound to the caller's async context: fn runs at its caller's priority, not at that of the
      // holder whose release starts it.
      const start = AsyncResource.bind(() => {
        Promise.resolve().then(fn).then(resolve, reject).finally(() => this.next());
      });
      if (!this.busy) {
        this.busy = true;
        start();
      } else {
        this.lanes.get(priority)!.push(start);
      }
    });
  }

  /** Waiters per lane (for tests and diagnostics). */
  waiting(): Record<Priority, number> {
    return Object.fromEntries(LANES.map((p) => [p, this.lanes.get(p)!.length])) as Record<Priority, number>;
  }

  private next() {
    const go = this.lanes.get('foreground')!.shift();
    if (go) return go();
    // A lower lane waits one turn of the event loop: a request whose statement just finished sends
    // its next one from the code awaiting the first, and should find the session free, not a bulk
    // transaction or a detector statement begun in between. (The lock stays taken meanwhile.)
    if (LANES.some((p) => this.lanes.get(p)!.length)) setImmediate(() => this.nextAnyLane());
    else this.busy = false;
  }

  private nextAnyLane() {
    for (const p of LANES) {
      const go = this.lanes.get(p)!.shift();
      if (go) return go();
    }
    this.busy = false;
  }
}
