// Embedded Postgres: PGlite in a worker thread. PGlite has one session, so a
// transaction must own it: a FIFO lock keeps other queries out until it ends.
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../infra/worker.js';
import { setConfigStatement, type Db, type Queryable, type QueryResult, type Row } from './db.js';

class Lock {
  private tail: Promise<void> = Promise.resolve();
  run<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.tail.then(fn);
    this.tail = result.then(() => undefined, () => undefined);
    return result;
  }
}

export class PgliteError extends Error {
  constructor(message: string, readonly code?: string, readonly detail?: string, readonly constraint?: string) {
    super(message);
  }
}

export class PgliteDb implements Db {
  readonly kind = 'pglite' as const;
  private worker: Worker;
  private nextId = 1;
  private pending = new Map<number, { resolve: (v: any) => void; reject: (e: any) => void }>();
  private lock = new Lock();
  private dead: Error | null = null;

  /** dataDir undefined = in memory. loadFrom: a dumped data dir (tar) to start from. */
  constructor(dataDir?: string, loadFrom?: Uint8Array) {
    const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
    this.worker = startWorker(new URL(`./pglite-worker${ext}`, import.meta.url), { workerData: { dataDir, loadFrom } });
    this.worker.on('message', (m: { id: number; ok: boolean; result?: any; error?: any }) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.ok) p.resolve(m.result);
      else p.reject(new PgliteError(m.error.message, m.error.code, m.error.detail, m.error.constraint));
    });
    this.worker.on('error', (err) => this.fail(err));
    this.worker.on('exit', (code) => this.fail(new Error(`PGlite worker exited with code ${code}`)));
  }

  private fail(err: Error) {
    this.dead = err;
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }

  private send(op: 'query' | 'exec' | 'close' | 'dump' | 'local', sql?: string, params?: unknown[], set?: { sql: string; params: string[] }): Promise<any> {
    if (this.dead) return Promise.reject(this.dead);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, op, sql, params: params?.map((v) => (v === undefined ? null : v)), set });
    });
  }

  query<T = Row>(sql: string, params?: unknown[]): Promise<QueryResult<T>> {
    return this.lock.run(() => this.send('query', sql, params));
  }

  queryWithSettings<T = Row>(settings: Record<string, string>, sql: string, params?: unknown[]): Promise<QueryResult<T>> {
    return this.lock.run(() => this.send('local', sql, params, setConfigStatement(settings)));
  }

  /** Runs a multi-statement script (migrations). */
  exec(sql: string): Promise<void> {
    return this.lock.run(() => this.send('exec', sql));
  }

  /** The data dir as a tarball (PGlite loadDataDir format). */
  dump(): Promise<Uint8Array> {
    return this.lock.run(() => this.send('dump'));
  }

  tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T> {
    return this.lock.run(async () => {
      const q: Queryable = { query: (sql, params) => this.send('query', sql, params) };
      await this.send('query', 'BEGIN');
      try {
        const out = await fn(q);
        await this.send('query', 'COMMIT');
        return out;
      } catch (err) {
        if (!this.dead) await this.send('query', 'ROLLBACK').catch(() => undefined);
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

