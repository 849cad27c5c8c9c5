// Foreground first: work that no request waits for (contradiction detection, skills Forge) runs
// "in the background", and a shared resource with a queue (the embedded database's one session)
// serves waiting foreground work before it. Marked through async context, so the code in between
// (stores, queries) needs no extra parameter.
import { AsyncLocalStorage } from 'node:async_hooks';

export type Priority = 'foreground' | 'background';

const context = new AsyncLocalStorage<Priority>();

/** Runs fn, and everything it awaits, as background work. */
export function inBackground<T>(fn: () => Promise<T>): Promise<T> {
  return context.run('background', fn);
}

/** The priority of the work running now (foreground unless inside inBackground). */
export const currentPriority = (): Priority => context.getStore() ?? 'foreground';

/**
 * A mutex with two FIFO lanes: when it is released, the oldest foreground waiter goes next, and a
 * background waiter only when no foreground one waits. Background work can wait under sustained
 * foreground load; callers bound how much of it piles up (the detector's backlog).
 */
export class PriorityLock {
  private busy = false;
  private lanes: Record<Priority, Array<() => void>> = { foreground: [], background: [] };

  run<T>(fn: () => Promise<T>, priority: Priority = currentPriority()): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        Promise.resolve().then(fn).then(resolve, reject).finally(() => this.next());
      };
      if (!this.busy) {
        this.busy = true;
        start();
      } else {
        this.lanes[priority].push(start);
      }
    });
  }

  /** Waiters per lane (for tests and diagnostics). */
  waiting(): Record<Priority, number> {
    return { foreground: this.lanes.foreground.length, background: this.lanes.background.length };
  }

  private next() {
    const go = this.lanes.foreground.shift() ?? this.lanes.background.shift();
    if (go) go();
    else this.busy = false;
  }
}
