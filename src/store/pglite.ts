// Embedded Postgres: PGlite in a worker thread. PGlite has one session, so a
// transaction must own it: a lock keeps other queries out until it ends. Its waiters are served
// foreground first (infra/priority.ts): a search never queues behind the detector's backlog.
//
// PGlite ignores statement_timeout (it has no timers inside WebAssembly), so a watchdog
// enforces it: a statement past its limit fails with SQLSTATE 57014, and the worker is
// replaced by a fresh one on the same data dir, so one runaway statement fails its request
// and never wedges the service.
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../infra/worker.js';
import { PriorityLock } from '../infra/priority.js';
import {
  DEFAULT_STATEMENT_TIMEOUT_MS, QUERY_CANCELED, setConfigStatement, type Db, type Queryable, type QueryResult, type Row, type TxOptions,
} from './db.js';

/** Settings queryWithSettings keeps on the session, with the defaults of pgvector 0.8. */
const SESSION_SETTINGS = new Map([['hnsw.ef_search', '40'], ['hnsw.iterative_scan', 'off']]);

export class PgliteError extends Error {
  constructor(message: string, readonly code?: string, readonly detail?: string, readonly constraint?: string) {
    super(message);
  }
}

export interface PgliteOptions {
  /** Longest a statement may run before the watchdog fails it and restarts the database (0: never). */
  statementTimeoutMs?: number;
  /** Told when the watchdog restarted the database. */
  onRestart?: (reason: string) => void;
}

type Op = 'query' | 'exec' | 'close' | 'dump' | 'local';

interface Pending {
  resolve: (v: any) => void;
  reject: (e: any) => void;
  timer?: NodeJS.Timeout;
}

export class PgliteDb implements Db {
  readonly kind = 'pglite' as const;
  readonly singleSession = true;
  private worker!: Worker;
  /** Resolves when the current worker's database is open: opening (initdb, recovery) is not a statement. */
  private ready!: Promise<void>;
  /** Counts worker restarts: a transaction begun on an earlier worker may not continue on a later one. */
  private generation = 0;
  private nextId = 1;
  private pending = new Map<number, Pending>();
  private lock = new PriorityLock();
  private dead: Error | null = null;
  private readonly timeoutMs: number;
  /** Values of SESSION_SETTINGS set on the current worker's session, and that worker's generation. */
  private session = new Map<string, string>();
  private sessionGeneration = 0;

  /** dataDir undefined = in memory. loadFrom: a dumped data dir (tar) to start from. */
  constructor(private dataDir?: string, private loadFrom?: Uint8Array, private opts: PgliteOptions = {}) {
    this.timeoutMs = opts.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
    this.start();
  }

  private start() {
    const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
    const worker = startWorker(new URL(`./pglite-worker${ext}`, import.meta.url), {
      workerData: { dataDir: this.dataDir, loadFrom: this.loadFrom },
    });
    this.worker = worker;
    let opened!: () => void;
    this.ready = new Promise((r) => { opened = r; });
    worker.on('message', (m: { id: number; ok: boolean; result?: any; error?: any; ready?: true }) => {
      if (m.ready) return opened();
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      clearTimeout(p.timer);
      if (m.ok) p.resolve(m.result);
      else p.reject(new PgliteError(m.error.message, m.error.code, m.error.detail, m.error.constraint));
    });
    // A replaced worker's exit is expected; only the current one's death is fatal.
    worker.on('error', (err) => worker === this.worker && this.fail(err));
    worker.on('exit', (code) => worker === this.worker && this.fail(new Error(`PGlite worker exited with code ${code}`)));
  }

  private fail(err: Error) {
    this.dead = err;
    this.rejectAll(err);
  }

  private rejectAll(err: Error) {
    for (const p of this.pending.values()) {
      clearTimeout(p.timer);
      p.reject(err);
    }
    this.pending.clear();
  }

  /** The watchdog fired: fail everything in flight, drop the stuck worker and start a fresh one. */
  private restart(sql: string | undefined) {
    const old = this.worker;
    this.generation++;
    this.rejectAll(new PgliteError(`statement exceeded its time limit of ${this.timeoutMs} ms`, QUERY_CANCELED));
    this.start();
    void old.terminate();
    this.opts.onRestart?.(`statement timeout: ${(sql ?? '').slice(0, 80)}`);
  }

  private send(op: Op, sql?: string, params?: unknown[], set?: { sql: string; params: string[] }, timeoutMs = 0): Promise<any> {
    if (this.dead) return Promise.reject(this.dead);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const entry: Pending = { resolve, reject };
      this.pending.set(id, entry);
      // Statements run one at a time in order, so a statement's clock starts once the database is open.
      if (timeoutMs > 0) {
        const gen = this.generation;
        void this.ready.then(() => {
          if (this.pending.has(id) && gen === this.generation) {
            entry.timer = setTimeout(() => this.pending.has(id) && this.restart(sql), timeoutMs);
          }
        });
      }
      this.worker.postMessage({ id, op, sql, params: params?.map((v) => (v === undefined ? null : v)), set });
    });
  }

  query<T = Row>(sql: string, params?: unknown[]): Promise<QueryResult<T>> {
    return this.lock.run(() => this.send('query', sql, params, undefined, this.timeoutMs));
  }

  /**
   * The HNSW settings are set on the session, and only when they change: a search's vector leg
   * then runs as a plain statement instead of a transaction (1.3–1.5 ms less at 100k memories).
   * Every call sets each of them (to its default when not named), so what one statement set
   * never holds for the next; the others stay transaction-local.
   */
  queryWithSettings<T = Row>(settings: Record<string, string>, sql: string, params?: unknown[]): Promise<QueryResult<T>> {
    return this.lock.run(async () => {
      if (this.sessionGeneration !== this.generation) {
        this.session.clear(); // a restarted worker has a fresh session
        this.sessionGeneration = this.generation;
      }
      const local: Record<string, string> = {};
      for (const [name, value] of Object.entries(settings)) if (!SESSION_SETTINGS.has(name)) local[name] = value;
      const changed: Record<string, string> = {};
      for (const [name, fallback] of SESSION_SETTINGS) {
        const value = settings[name] ?? fallback;
        if (this.session.get(name) !== value) changed[name] = value;
      }
      if (Object.keys(changed).length) {
        const set = setConfigStatement(changed, false);
        await this.send('query', set.sql, set.params, undefined, this.timeoutMs);
        for (const [name, value] of Object.entries(changed)) this.session.set(name, value);
      }
      return Object.keys(local).length
        ? this.send('local', sql, params, setConfigStatement(local), this.timeoutMs)
        : this.send('query', sql, params, undefined, this.timeoutMs);
    });
  }

  /** Runs a multi-statement script (migrations). No time limit. */
  exec(sql: string): Promise<void> {
    return this.lock.run(() => this.send('exec', sql));
  }

  /** Maintenance (VACUUM) that may legitimately run long: no time limit. */
  maintenance(sql: string): Promise<void> {
    return this.lock.run(() => this.send('query', sql));
  }

  /** The data dir as a tarball (PGlite loadDataDir format). */
  dump(): Promise<Uint8Array> {
    return this.lock.run(() => this.send('dump'));
  }

  tx<T>(fn: (q: Queryable) => Promise<T>, opts: TxOptions = {}): Promise<T> {
    const timeoutMs = opts.statementTimeoutMs ?? this.timeoutMs;
    return this.lock.run(async () => {
      const gen = this.generation;
      // After a restart the transaction is gone with the old worker: its remaining statements must fail.
      const send = (sql: string, params?: unknown[]) => gen === this.generation
        ? this.send('query', sql, params, undefined, timeoutMs)
        : Promise.reject(new PgliteError('transaction aborted by a database restart', QUERY_CANCELED));
      await send('BEGIN');
      try {
        const out = await fn({ query: send });
        await send('COMMIT');
        return out;
      } catch (err) {
        if (!this.dead && gen === this.generation) await send('ROLLBACK').catch(() => undefined);
        throw err;
      }
    });
  }

  async ping(): Promise<boolean> {
    try {
      await this.query('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    if (this.dead) return;
    await this.lock.run(() => this.send('close')).catch(() => undefined);
    this.dead = new Error('database closed');
    await this.worker.terminate();
  }
}
