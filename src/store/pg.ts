// Postgres server through node-postgres (DATABASE_URL). Needs the vector extension.
import pg from 'pg';
import { DEFAULT_STATEMENT_TIMEOUT_MS, setConfigStatement, type Db, type Queryable, type QueryResult, type Row, type TxOptions } from './db.js';

// Return timestamps as Date, bigint counts as numbers (counts here stay far below 2^53).
pg.types.setTypeParser(20, (v) => Number(v));

/** Longest delay a timer takes (about 24.8 days): "no limit" for the driver's query timeout, where 0 means "the default". */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class PgDb implements Db {
  readonly kind = 'pg' as const;
  readonly singleSession = false;
  private pool: pg.Pool;

  /** statementTimeoutMs: the server cancels any statement running longer (SQLSTATE 57014). */
  constructor(url: string, max = 10, statementTimeoutMs = DEFAULT_STATEMENT_TIMEOUT_MS) {
    this.pool = new pg.Pool({
      connectionString: url, max, connectionTimeoutMillis: 5_000,
      // The server stops a long statement; the client gives up too if the answer never comes
      // (a link that died silently), so no request waits on the database forever.
      ...(statementTimeoutMs > 0 ? { statement_timeout: statementTimeoutMs, query_timeout: statementTimeoutMs + 5_000 } : {}),
    });
    // An idle client losing its connection must not crash the process; /health reports it.
    this.pool.on('error', () => undefined);
  }

  async query<T = Row>(sql: string, params?: unknown[]): Promise<QueryResult<T>> {
    const res = await this.pool.query(sql, params as any[]);
    return { rows: res.rows as T[], rowCount: res.rowCount ?? res.rows.length };
  }

  async tx<T>(fn: (q: Queryable) => Promise<T>, opts: TxOptions = {}): Promise<T> {
    const client = await this.pool.connect();
    // A connection lost while checked out is reported as an 'error' event on the client, which
    // would end the process unheard; the next statement fails instead, and the client is discarded.
    let lost: Error | undefined;
    const onLost = (err: Error) => {
      lost = err;
    };
    client.on('error', onLost);
    // The client-side limit follows a transaction's own: lifted (0) for migrations, so a long
    // index build is not abandoned by the driver while the server still works on it.
    const clientTimeout = opts.statementTimeoutMs === undefined ? undefined
      : opts.statementTimeoutMs === 0 ? MAX_TIMER_MS : opts.statementTimeoutMs + 5_000;
    const q: Queryable = {
      query: async (sql, params) => {
        const res = clientTimeout === undefined
          ? await client.query(sql, params as any[])
          : await client.query({ text: sql, values: params as any[], query_timeout: clientTimeout } as any);
        return { rows: res.rows, rowCount: res.rowCount ?? res.rows.length };
      },
    };
    try {
      await client.query('BEGIN');
      if (opts.statementTimeoutMs !== undefined) {
        await client.query(`SELECT set_config('statement_timeout', $1, true)`, [String(opts.statementTimeoutMs)]);
      }
      const out = await fn(q);
      await client.query('COMMIT');
      client.off('error', onLost);
      client.release(lost);
      return out;
    } catch (err) {
      const rolledBack = lost ? false : await client.query('ROLLBACK').then(() => true, () => false);
      client.off('error', onLost);
      // A client that could not roll back is not returned to the pool.
      client.release(lost ?? (rolledBack ? undefined : (err as Error)));
      throw err;
    }
  }

  queryWithSettings<T = Row>(settings: Record<string, string>, sql: string, params?: unknown[]): Promise<QueryResult<T>> {
    const set = setConfigStatement(settings);
    return this.tx(async (q) => {
      await q.query(set.sql, set.params);
      return q.query<T>(sql, params);
    });
  }

  async ping(): Promise<boolean> {
    try {
      await this.pool.query('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }

  private closed = false;

  /** Idempotent, like PgliteDb.close: owners and the services both close on shutdown. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Ending waits for checked-out clients; a client stuck on a dead link must not hold shutdown.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.pool.end(), new Promise((r) => (timer = setTimeout(r, 5_000)))]);
    clearTimeout(timer);
  }
}
