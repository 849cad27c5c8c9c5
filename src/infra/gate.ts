// A FIFO semaphore: at most `size` holders at once, the rest wait in order. With `maxWaiting`,
// an arrival that would make the queue longer is refused at once (GateFull) instead of waiting.

export class GateFull extends Error {
  constructor() {
    super('every place is taken and the queue is full');
  }
}

export class Gate {
  private active = 0;
  private waiting: (() => void)[] = [];

  constructor(readonly size: number, readonly maxWaiting = Infinity) {}

  /** Resolves with the function that leaves the gate (call it exactly once); GateFull when the queue is full. */
  async enter(): Promise<() => void> {
    if (this.active < this.size) this.active++;
    else if (this.waiting.length >= this.maxWaiting) throw new GateFull();
    else await new Promise<void>((resolve) => this.waiting.push(resolve)); // the leaver hands its place over
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    };
  }
}
