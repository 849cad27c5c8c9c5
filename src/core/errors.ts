// Domain errors every core service raises. They know nothing of any surface: HTTP maps them
// to problem+json and 422 bodies (http/errors.ts), MCP to isError tool results.
import { isDatabaseUnavailable, isStatementTimeout } from '../store/db.js';

/** One validation finding, in the pydantic shape the API answers 422 with. */
export interface ValidationItem {
  loc: (string | number)[];
  msg: string;
  type: string;
  input: unknown;
  ctx: Record<string, unknown>;
}

/** An error raised on purpose, with the status and title of its problem body. */
export class DomainError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** A validation failure raised outside the schema layer (cross-field rules). */
export class ValidationError extends Error {
  constructor(readonly items: ValidationItem[]) {
    super(items.map((i) => i.msg).join('; '));
  }
}

export const notFound = (what: string) => new DomainError(404, 'Not Found', `${what} not found`);
export const forbidden = (msg: string, extra: Record<string, unknown> = {}) => new DomainError(403, 'Forbidden', msg, extra);
export const unauthorized = () =>
  new DomainError(401, 'Unauthorized', 'A valid API key is required: send it in the X-API-Key header or as Authorization: Bearer <key>');
export const conflict = (msg: string, extra: Record<string, unknown> = {}) => new DomainError(409, 'Conflict', msg, extra);
export const badRequest = (msg: string, extra: Record<string, unknown> = {}) => new DomainError(400, 'Bad Request', msg, extra);
export const unavailable = (msg: string, retryAfterSeconds = 1) =>
  new DomainError(503, 'Service Unavailable', msg, {}, { 'retry-after': String(retryAfterSeconds) });
/** The embedder failed a call: every path that embeds (writes, searches, documents) answers this. */
export const embedderUnavailable = () => unavailable('The embedder is unavailable; retry later');

export function invalid(loc: (string | number)[], msg: string, type = 'value_error', input: unknown = null, ctx: Record<string, unknown> = {}) {
  return new ValidationError([{ loc, msg, type, input, ctx }]);
}

/**
 * The domain error a failure stands for, or null for an unexpected one (a 500 on every surface).
 * A statement stopped by the database's time limit, or a database that cannot be reached, fails
 * its request as 503 with Retry-After, never the service.
 */
export function asDomainError(err: unknown): DomainError | ValidationError | null {
  if (err instanceof DomainError || err instanceof ValidationError) return err;
  if (isStatementTimeout(err)) return unavailable('The database did not finish this request in time; retry later');
  if (isDatabaseUnavailable(err)) return unavailable('The database is unavailable; retry later', 2);
  return null;
}
