// A fixed pool of worker threads for CPU-bound model work (embedding, NLP), so the
// event loop never runs a model. Each worker loads its model once, then serves one
// batch at a time. Jobs are arrays of items; jobs waiting in the FIFO queue are merged
// into one batch of up to maxBatch items, so many concurrent one-text calls cost what one
// batched call does. A worker that dies rejects its jobs and is replaced. Idle workers
// are unref'd so a forgotten close() cannot keep a CLI alive, while a busy one stays
// ref'd so a pending job cannot be dropped by process exit.
import { parentPort, type Transferable, type Worker } from 'node:worker_threads';
import { niceThisThread, startWorker } from '../../infra/worker.js';
import { currentPriority } from '../../infra/priority.js';

type FromWorker =
  | { type: 'ready' }
  | { type: 'init-error'; message: string }
  | { type: 'result'; id: number; ok: true; result: unknown[] }
  | { type: 'result'; id: number; ok: false; message: string };

type ToWorker = { type: 'job'; id: number; items: unknown[] } | { type: 'nice'; nice: number };

export interface WorkerPoolOptions<In = unknown> {
  /** Used in error messages, e.g. "use-lite embedder". */
  name: string;
  /** Worker module (use workerUrl() to pick .ts or .js). */
  url: URL;
  size: number;
  /**
   * Extra workers that take urgent jobs only (a search's query): an urgent job then never waits for
   * a running batch of writes. Default 0.
   */
  reserved?: number;
  /**
   * Nice value of the workers that take ordinary jobs (default 0): above 0, the threads serving
   * requests (the event loop, the database, reserved workers) get the cores first under load.
   */
  nice?: number;
  workerData?: unknown;
  /** Most items sent to a worker at once when merging queued jobs (a larger job goes alone). */
  maxBatch?: number;
  /**
   * Background jobs (default: as ordinary ones) are merged up to this cost, summed over their
   * items with backgroundCost (default 1 an item): small, so an urgent job waits little for a
   * running one. A job costing more goes alone.
   */
  maxBackgroundBatch?: number;
  backgroundCost?: (item: In) => number;
  /** How long a worker may take to load its model. */
  readyTimeoutMs?: number;
}

export interface WorkerPoolStats {
  size: number;
  ready: number;
  busy: number;
  queued: number;
  /** Workers replaced after a crash or recycle since start. */
  restarts: number;
}

/** Raised for jobs lost because their worker died. */
export class WorkerCrashError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkerCrashError';
  }
}

interface Job {
  items: unknown[];
  resolve: (v: any[]) => void;
  reject: (e: Error) => void;
}

interface Batch {
  id: number;
  jobs: Job[];
}

interface Slot {
  index: number;
  worker: Worker;
  ready: boolean;
  job: Batch | null;
}

/** The worker module next to `base` (an import.meta.url): .ts under tsx/vitest, .js when built. */
export function workerUrl(name: string, base: string): URL {
  const ext = base.endsWith('.ts') ? '.ts' : '.js';
  return new URL(`./${name}${ext}`, base);
}

export class WorkerPool<In, Out> {
  private slots: (Slot | null)[] = [];
  private queue: Job[] = [];
  /** Jobs served before every job in `queue`. */
  private urgent: Job[] = [];
  /** Jobs of background work (a long memory's passages): served only when no other job waits. */
  private background: Job[] = [];
  private nextId = 1;
  private started: Promise<void> | null = null;
  /** Set once start() has resolved, so run() can queue synchronously (keeps call order obvious). */
  private running = false;
  private closed = false;
  private failed: Error | null = null;
  private restarts = 0;

  constructor(private readonly opts: WorkerPoolOptions<In>) {
    if (!Number.isInteger(opts.size) || opts.size < 1) throw new Error(`${opts.name}: pool size must be an integer >= 1`);
  }

  /** Starts every worker and waits until all have loaded their model (idempotent). */
  start(): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`${this.opts.name} is closed`));
    this.started ??= (async () => {
      const boots: Promise<void>[] = [];
      for (let i = 0; i < this.opts.size + (this.opts.reserved ?? 0); i++) boots.push(this.spawn(i));
      const results = await Promise.allSettled(boots);
      const bad = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (bad) {
        await this.close();
        throw bad.reason;
      }
      this.running = true;
    })();
    return this.started;
  }

  /**
   * Processes items on the next free worker; the output matches the input order. An urgent job (a
   * search's query) goes ahead of every queued ordinary one (a bulk batch), so a reader never waits
   * behind a backlog of writes; it still waits for the batches already running. A job of
   * background work (inBackground: the passages of stored memories) waits for every other job, so a
   * long memory's passages never hold up the next write's own embedding. Reserved workers take
   * urgent jobs only, and are tried first for them.
   */
  async run(items: In[], urgent = false): Promise<Out[]> {
    if (items.length === 0) return [];
    if (!this.running) await this.start();
    if (this.closed) throw new Error(`${this.opts.name} is closed`);
    if (this.failed) throw this.failed;
    return new Promise<Out[]>((resolve, reject) => {
      (urgent ? this.urgent : currentPriority() === 'background' ? this.background : this.queue).push({ items, resolve, reject });
      this.pump();
    });
  }

  /** Terminates worker `index` and starts a fresh one; its in-flight job is rejected like a crash. */
  recycle(index: number): void {
    const slot = this.slots[index];
    if (!slot || !slot.ready) throw new Error(`${this.opts.name}: no running worker ${index}`);
    void slot.worker.terminate();
  }

  stats(): WorkerPoolStats {
    const live = this.slots.filter((s): s is Slot => s !== null);
    return {
      size: this.opts.size + (this.opts.reserved ?? 0),
      ready: live.filter((s) => s.ready).length,
      busy: live.filter((s) => s.job).length,
      queued: this.urgent.length + this.queue.length + this.background.length,
      restarts: this.restarts,
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    const err = new Error(`${this.opts.name} was closed`);
    for (const job of [...this.urgent.splice(0), ...this.queue.splice(0), ...this.background.splice(0)]) job.reject(err);
    const slots = this.slots.filter((s): s is Slot => s !== null);
    this.slots = [];
    for (const s of slots) {
      for (const job of s.job?.jobs ?? []) job.reject(err);
      s.job = null;
    }
    await Promise.all(slots.map((s) => s.worker.terminate().catch(() => undefined)));
  }

  private spawn(index: number): Promise<void> {
    const { name, url, workerData, readyTimeoutMs = 120_000 } = this.opts;
    const worker = startWorker(url, { workerData });
    const nice = index < this.opts.size ? this.opts.nice ?? 0 : 0;
    if (nice) worker.postMessage({ type: 'nice', nice } satisfies ToWorker);
    const slot: Slot = { index, worker, ready: false, job: null };
    this.slots[index] = slot;
    const current = () => this.slots[index] === slot;

    return new Promise<void>((resolve, reject) => {
      let booting = true;
      const bootFailed = (message: string) => {
        booting = false;
        clearTimeout(timer);
        if (current()) this.slots[index] = null;
        void worker.terminate();
        const err = new Error(`${name} worker failed to start: ${message}`);
        this.onSlotLost(err);
        reject(err);
      };
      const timer = setTimeout(() => bootFailed(`model not loaded after ${readyTimeoutMs} ms`), readyTimeoutMs);
      timer.unref();

      worker.on('message', (m: FromWorker) => {
        if (!current()) return;
        if (m.type === 'ready') {
          booting = false;
          clearTimeout(timer);
          slot.ready = true;
          worker.unref();
          resolve();
          this.pump();
        } else if (m.type === 'init-error') {
          if (booting) bootFailed(m.message);
        } else if (m.type === 'result') {
          const batch = slot.job;
          if (!batch || batch.id !== m.id) return;
          slot.job = null;
          worker.unref();
          this.settle(batch, m);
          this.pump();
        }
      });
      // 'error' (an uncaught exception in the worker) is followed by 'exit'; either one ends the slot.
      let lastError: Error | null = null;
      worker.on('error', (err) => {
        lastError = err;
      });
      worker.on('exit', (code) => {
        if (!current()) return;
        const reason = lastError ? lastError.message : `exit code ${code}`;
        if (booting) return bootFailed(reason);
        this.slots[index] = null;
        const batch = slot.job;
        slot.job = null;
        const err = new WorkerCrashError(`${name} worker crashed (${reason}); the job was lost, retry it`);
        for (const job of batch?.jobs ?? []) job.reject(err);
        if (this.closed) return;
        this.restarts++;
        // A replacement that cannot load its model fails the pool via onSlotLost.
        this.spawn(index).catch(() => undefined);
      });
    });
  }

  /** After a worker could not start: if none is left, nothing queued can ever run. */
  private onSlotLost(err: Error) {
    if (this.closed) return;
    const alive = this.slots.some((s) => s !== null && s.index < this.opts.size); // reserved workers take no ordinary job
    if (alive) return;
    this.failed = err;
    for (const job of [...this.urgent.splice(0), ...this.queue.splice(0), ...this.background.splice(0)]) job.reject(err);
  }

  private settle(batch: Batch, m: Extract<FromWorker, { type: 'result' }>) {
    const total = batch.jobs.reduce((n, j) => n + j.items.length, 0);
    if (!m.ok || m.result.length !== total) {
      const msg = m.ok ? `worker returned ${m.result.length} results for ${total} items` : m.message;
      for (const job of batch.jobs) job.reject(new Error(`${this.opts.name}: ${msg}`));
      return;
    }
    let at = 0;
    for (const job of batch.jobs) {
      job.resolve(m.result.slice(at, at + job.items.length));
      at += job.items.length;
    }
  }

  private pump() {
    // Reserved workers first, for urgent jobs only; then the others, for every lane.
    const reservedFrom = this.opts.size;
    for (const slot of this.slots) {
      if (this.urgent.length === 0) break;
      if (slot && slot.index >= reservedFrom) this.assign(slot, this.urgent);
    }
    for (const slot of this.slots) {
      if (this.urgent.length === 0 && this.queue.length === 0 && this.background.length === 0) return;
      if (!slot || slot.index >= reservedFrom) continue;
      this.assign(slot, this.urgent.length ? this.urgent : this.queue.length ? this.queue : this.background);
    }
  }

  /** Gives a free, ready worker the next job of `lane`, merged with the jobs queued after it up to the batch cap. */
  private assign(slot: Slot, lane: Job[]) {
    if (!slot.ready || slot.job || lane.length === 0) return;
    const max = this.opts.maxBatch ?? Infinity;
    const background = lane === this.background;
    const cap = background ? (this.opts.maxBackgroundBatch ?? max) : max;
    const itemCost = background ? this.opts.backgroundCost : undefined;
    const cost = (job: Job) => (itemCost ? job.items.reduce((n: number, item) => n + itemCost(item as In), 0) : job.items.length);
    const jobs = [lane.shift()!];
    let total = cost(jobs[0]);
    while (lane.length > 0 && total + cost(lane[0]) <= cap) {
      const next = lane.shift()!;
      total += cost(next);
      jobs.push(next);
    }
    const batch: Batch = { id: this.nextId++, jobs };
    slot.job = batch;
    slot.worker.ref();
    const items = jobs.length === 1 ? jobs[0].items : jobs.flatMap((j) => j.items);
    slot.worker.postMessage({ type: 'job', id: batch.id, items } satisfies ToWorker);
  }
}

/** Worker-side reply of a handler: one output per input item, and buffers to move instead of copy. */
export interface WorkerReply<Out> {
  result: Out[];
  transfer?: Transferable[];
}

/**
 * Runs inside a worker: loads the model via `init`, then answers batches with the handler it returns.
 * Errors from one batch are sent back, not thrown, so a bad input does not cost the loaded model.
 */
export function servePool<In, Out>(init: () => Promise<(items: In[]) => Promise<WorkerReply<Out>> | WorkerReply<Out>>): void {
  const port = parentPort;
  if (!port) throw new Error('servePool() must run in a worker thread');
  init().then(
    (handle) => {
      port.on('message', async (m: ToWorker) => {
        if (m.type === 'nice') niceThisThread(m.nice);
        if (m.type !== 'job') return;
        try {
          const { result, transfer } = await handle(m.items as In[]);
          port.postMessage({ type: 'result', id: m.id, ok: true, result } satisfies FromWorker, transfer ?? []);
        } catch (e) {
          port.postMessage({ type: 'result', id: m.id, ok: false, message: (e as Error)?.message ?? String(e) } satisfies FromWorker);
        }
      });
      port.postMessage({ type: 'ready' } satisfies FromWorker);
    },
    (e) => {
      port.postMessage({ type: 'init-error', message: (e as Error)?.message ?? String(e) } satisfies FromWorker);
    },
  );
}
