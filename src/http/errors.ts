// Maps core's domain errors to the API's error shapes: pydantic-style 422 `{detail: [...]}` for
// validation, application/problem+json for every other 4xx/5xx. Nothing internal leaks out.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { asDomainError, DomainError, ValidationError, type ValidationItem } from '../core/errors.js';

export const problemBody = (status: number, title: string, detail: string, extra: Record<string, unknown> = {}) =>
  ({ type: 'about:blank', title, status, detail, ...extra });

export function sendProblem(reply: FastifyReply, status: number, title: string, detail: string, extra: Record<string, unknown> = {}) {
  return reply
    .code(status)
    .header('content-type', 'application/problem+json; charset=utf-8')
    .send(problemBody(status, title, detail, extra));
}

/**
 * The status and body a domain failure answers with on every surface: a 422 `{detail}` for
 * validation, a problem document otherwise; null for an unexpected error (a 500 the log explains).
 */
export function domainErrorBody(raw: unknown): { status: number; body: Record<string, unknown>; headers: Record<string, string> } | null {
  const err = asDomainError(raw);
  if (err instanceof DomainError) return { status: err.status, body: problemBody(err.status, err.title, err.message, err.extra), headers: err.headers };
  if (err instanceof ValidationError) return { status: 422, body: { detail: err.items }, headers: {} };
  return null;
}

/** The body of a 500: no message, stack or internal name. */
export const INTERNAL_ERROR_BODY = problemBody(500, 'Internal Server Error', 'The server could not complete the request');

const PART_LOC: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

/** Maps one AJV error (with `verbose: true`) to a pydantic-style item. */
export function ajvToItem(err: any, part: string): ValidationItem {
  const loc: (string | number)[] = [PART_LOC[part] ?? part];
  for (const seg of String(err.instancePath ?? '').split('/').slice(1)) {
    const s = seg.replace(/~1/g, '/').replace(/~0/g, '~');
    loc.push(/^\d+$/.test(s) ? Number(s) : s);
  }
  const p = err.params ?? {};
  let input: unknown = err.data;
  let type: string;
  let msg: string = err.message ?? 'Invalid value';
  const ctx: Record<string, unknown> = {};
  switch (err.keyword) {
    case 'required':
      loc.push(p.missingProperty);
      type = 'missing';
      msg = 'Field required';
      break;
    case 'type':
      type = `${p.type}_type`;
      msg = `Input should be a valid ${p.type}`;
      break;
    case 'enum':
      type = 'enum';
      ctx.expected = p.allowedValues;
      msg = `Input should be one of: ${(p.allowedValues ?? []).join(', ')}`;
      break;
    case 'const':
      type = 'literal_error';
      ctx.expected = p.allowedValue;
      msg = `Input should be ${JSON.stringify(p.allowedValue)}`;
      break;
    case 'maxLength':
      type = 'string_too_long';
      ctx.max_length = p.limit;
      msg = `String should have at most ${p.limit} characters`;
      break;
    case 'minLength':
      type = 'string_too_short';
      ctx.min_length = p.limit;
      msg = `String should have at least ${p.limit} character${p.limit === 1 ? '' : 's'}`;
      break;
    case 'maximum':
      type = 'less_than_equal';
      ctx.le = p.limit;
      msg = `Input should be less than or equal to ${p.limit}`;
      break;
    case 'minimum':
      type = 'greater_than_equal';
      ctx.ge = p.limit;
      msg = `Input should be greater than or equal to ${p.limit}`;
      break;
    case 'maxItems':
      type = 'too_long';
      ctx.max_length = p.limit;
      msg = `List should have at most ${p.limit} items`;
      break;
    case 'minItems':
      type = 'too_short';
      ctx.min_length = p.limit;
      msg = `List should have at least ${p.limit} item${p.limit === 1 ? '' : 's'}`;
      break;
    case 'format':
      type = p.format === 'uuid' ? 'uuid_parsing' : p.format === 'date-time' ? 'datetime_parsing' : 'format_error';
      ctx.format = p.format;
      msg = `Input should be a valid ${p.format}`;
      break;
    case 'pattern':
      type = 'string_pattern_mismatch';
      ctx.pattern = p.pattern;
      msg = `String should match pattern '${p.pattern}'`;
      break;
    case 'additionalProperties':
      loc.push(p.additionalProperty);
      type = 'extra_forbidden';
      msg = 'Extra inputs are not permitted';
      input = (err.data ?? {})[p.additionalProperty];
      break;
    default:
      type = err.keyword ?? 'value_error';
  }
  if (input === undefined) input = null;
  return { loc, msg, type, input, ctx };
}

export function sendValidation(reply: FastifyReply, items: ValidationItem[]) {
  return reply.code(422).header('content-type', 'application/json; charset=utf-8').send({ detail: items });
}

const FASTIFY_STATUS: Record<string, [number, string]> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'Unsupported Media Type'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'Payload Too Large'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'Bad Request'],
  FST_ERR_NOT_FOUND: [404, 'Not Found'],
};

export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((raw: FastifyError & Record<string, any>, req: FastifyRequest, reply: FastifyReply) => {
    const known = domainErrorBody(raw);
    if (known) {
      for (const [k, v] of Object.entries(known.headers)) reply.header(k, v);
      const type = known.status === 422 ? 'application/json' : 'application/problem+json';
      return reply.code(known.status).header('content-type', `${type}; charset=utf-8`).send(known.body);
    }
    const err = raw;
    if (err.validation) {
      return sendValidation(reply, err.validation.map((e: any) => ajvToItem(e, err.validationContext ?? 'body')));
    }
    if (err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || err instanceof SyntaxError) {
      const empty = err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY';
      return sendValidation(reply, [{
        loc: ['body'],
        msg: empty ? 'A JSON body is required' : 'JSON decode error: the body is not valid JSON',
        type: empty ? 'missing' : 'json_invalid',
        input: null,
        ctx: {},
      }]);
    }
    const mapped = err.code ? FASTIFY_STATUS[err.code] : undefined;
    if (mapped) return sendProblem(reply, mapped[0], mapped[1], err.message);
    const status = typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status === 500) {
      req.log.error({ err }, 'unhandled error');
      return reply.code(500).header('content-type', 'application/problem+json; charset=utf-8').send(INTERNAL_ERROR_BODY);
    }
    return sendProblem(reply, status, 'Bad Request', err.message);
  });
  app.setNotFoundHandler((req, reply) => sendProblem(reply, 404, 'Not Found', `No route for ${req.method} ${req.url.split('?')[0]}`));
}
