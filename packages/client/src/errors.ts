// Typed errors. Every failed answer becomes a LociError carrying the parsed body: a problem
// document (RFC 9457) or, for 422, the list of validation items. The message is always text.

export interface ValidationItem {
  loc: (string | number)[];
  msg: string;
  type: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

export interface ProblemBody {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  [key: string]: unknown;
}

/** A non-2xx answer. */
export class LociError extends Error {
  override name = 'LociError';
  /** The problem document, when the body was one. */
  readonly problem: ProblemBody | null;

  constructor(
    readonly status: number,
    /** The parsed JSON body, else the raw text (null when empty). */
    readonly body: unknown,
    readonly method: string,
    readonly path: string,
    /** Seconds from Retry-After, when the server sent it. */
    readonly retryAfter: number | null = null,
  ) {
    super(`${method.toUpperCase()} ${path}: ${status} ${describeBody(status, body)}`);
    this.problem = isProblem(body) ? body : null;
  }

  /** The problem's detail, or the joined validation messages. */
  get detail(): string {
    return describeBody(this.status, this.body);
  }
}

/** A 422: the request was refused field by field. */
export class LociValidationError extends LociError {
  override name = 'LociValidationError';
  readonly items: ValidationItem[];

  constructor(body: unknown, method: string, path: string) {
    super(422, body, method, path);
    this.items = validationItems(body);
  }
}

/** The server could not be reached or the connection broke before an answer. */
export class LociConnectionError extends Error {
  override name = 'LociConnectionError';
  constructor(readonly method: string, readonly path: string, override readonly cause: unknown) {
    super(`${method.toUpperCase()} ${path}: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

export function isProblem(body: unknown): body is ProblemBody {
  return typeof body === 'object' && body !== null && !Array.isArray(body) && ('title' in body || 'detail' in body) &&
    typeof (body as ProblemBody).detail !== 'object';
}

export function validationItems(body: unknown): ValidationItem[] {
  const detail = (body as { detail?: unknown } | null)?.detail;
  if (!Array.isArray(detail)) return [];
  return detail.filter((d): d is ValidationItem => typeof d === 'object' && d !== null && Array.isArray((d as ValidationItem).loc));
}

/** One line of text for any error body: never "[object Object]". */
export function describeBody(status: number, body: unknown): string {
  if (body === null || body === undefined || body === '') return statusText(status);
  if (typeof body === 'string') return body.slice(0, 500);
  const items = validationItems(body);
  if (items.length) return items.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; ');
  if (isProblem(body)) {
    const title = typeof body.title === 'string' ? body.title : statusText(status);
    return typeof body.detail === 'string' && body.detail ? `${title}: ${body.detail}` : title;
  }
  return JSON.stringify(body).slice(0, 500);
}

function statusText(status: number): string {
  return ({ 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 409: 'Conflict', 413: 'Content Too Large',
    415: 'Unsupported Media Type', 422: 'Unprocessable Content', 429: 'Too Many Requests', 500: 'Internal Server Error',
    502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout' } as Record<number, string>)[status] ?? `HTTP ${status}`;
}
