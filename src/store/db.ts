// The small storage interface every core service talks to. Two implementations:
// PGlite in a worker thread (embedded default) and node-postgres (DATABASE_URL).

export type Row = Record<string, any>;

export interface QueryResult<T = Row> {
  rows: T[];
  rowCount: number;
}

export interface Queryable {
  query<T = Row>(sql: string, params?: unknown[]): Promise<QueryResult<T>>;
}

export interface TxOptions {
  /** Per-statement time limit inside this transaction; 0 lifts it (migrations). Default: the database's. */
  statementTimeoutMs?: number;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'pg';
  /**
   * Every statement shares one session (the embedded database): a long transaction or statement
   * keeps every request waiting, so bulk work is cut into short ones.
   */
  readonly singleSession: boolean;
  /** Runs fn inside one transaction; commits when it resolves, rolls back when it throws. */
  tx<T>(fn: (q: Queryable) => Promise<T>, opts?: TxOptions): Promise<T>;
  /**
   * One statement under its own settings, e.g. the HNSW scan parameters, which must be in force
   * before the statement starts: transaction-local (set_config(name, value, true)); embedded, the
   * whole transaction is one message to the database thread instead of four, and the HNSW ones
   * are kept on the one session instead (see PgliteDb), so an HNSW scan must run through here.
   */
  queryWithSettings<T = Row>(settings: Record<string, string>, sql: string, params?: unknown[]): Promise<QueryResult<T>>;
  /** Cheap liveness probe used by /health. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/** Postgres error with its SQLSTATE code, whichever driver raised it. */
export function pgCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : undefined;
}

export const UNIQUE_VIOLATION = '23505';
/** SQLSTATE of a statement cancelled for running past its time limit. */
export const QUERY_CANCELED = '57014';

/** No single statement may hold the database longer than this unless its caller says so. */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 30_000;

/** A statement stopped for running past its time limit (either driver); the request fails, not the service. */
export const isStatementTimeout = (err: unknown) => pgCode(err) === QUERY_CANCELED;

// Socket errors of a connection that cannot be made or was lost.
const CONNECTION_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
// SQLSTATEs of a server that is going away, starting up or full: class 08 (connection exception),
// admin/crash shutdown, cannot connect now, too many connections.
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
// node-postgres reports a lost or unobtainable connection by message only.
const CONNECTION_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|not queryable|Connection closed|Client was closed/i;

/** The database cannot be reached (down, restarting, link lost): the request fails as 503, never a 500. */
export function isDatabaseUnavailable(err: unknown): boolean {
  const code = pgCode(err);
  if (code && (CONNECTION_ERRNOS.has(code) || UNAVAILABLE_SQLSTATES.has(code) || code.startsWith('08'))) return true;
  const cause = typeof err === 'object' && err !== null ? (err as { cause?: unknown }).cause : undefined;
  if (cause && cause !== err && isDatabaseUnavailable(cause)) return true;
  return err instanceof Error && !code && CONNECTION_MESSAGES.test(err.message);
}

/** The statement that applies settings, transaction-local unless `local` is false, with its parameters. */
export function setConfigStatement(settings: Record<string, string>, local = true): { sql: string; params: string[] } {
  const names = Object.keys(settings);
  return {
    sql: `SELECT ${names.map((_, i) => `set_config($${2 * i + 1}, $${2 * i + 2}, ${local})`).join(', ')}`,
    params: names.flatMap((n) => [n, settings[n]]),
  };
}

/** pgvector text literal for a vector parameter (`$n::vector`). */
export function vectorLiteral(v: ArrayLike<number>): string {
  let s = '[';
  for (let i = 0; i < v.length; i++) s += (i ? ',' : '') + (Math.round(v[i] * 1e7) / 1e7);
  return s + ']';
}

/**
 * pgvector's binary form of a vector parameter (`$n::vector`): int16 dimension, int16 unused,
 * then big-endian float4s. Both drivers send it as a binary parameter, which spares the server
 * parsing ~5 KB of text per 512-d vector (≈1 ms each in embedded PGlite).
 */
export function vectorParam(v: ArrayLike<number>): Buffer {
  const b = Buffer.allocUnsafe(4 + 4 * v.length);
  b.writeInt16BE(v.length, 0);
  b.writeInt16BE(0, 2);
  for (let i = 0; i < v.length; i++) b.writeFloatBE(v[i], 4 + 4 * i);
  return b;
}

export function parseVector(v: unknown): number[] | null {
  if (v == null) return null;
  if (Array.isArray(v)) return v as number[];
  const s = String(v);
  return s.length <= 2 ? [] : s.slice(1, -1).split(',').map(Number);
}
