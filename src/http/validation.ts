// Request validation: bodies are NOT type-coerced ("5" is not 5), query/path/header
// strings are; every error is reported (allErrors) with the offending input (verbose).
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import type { FastifyRequest } from 'fastify';
import { invalid, ValidationError, type ValidationItem } from '../core/errors.js';
import { MAX_JSON_DEPTH, jsonTextDepth } from '../core/json-limits.js';
import { faultyStrings, isStorableInstant, mayHoldFaultyStrings, STRING_FAULT_MESSAGE, UUID_PATTERN, type FaultyString } from '../core/input.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A top-level array of the JSON body whose items the handler checks one by one (bulk write):
     * a faulty string inside an item is that item's error, not a 422 for the request.
     */
    perItem?: string;
  }
}

const addFormats = ((addFormatsModule as any).default ?? addFormatsModule) as (a: Ajv) => Ajv;
const dateTimeShape = (fullFormats['date-time'] as { validate: (s: string) => boolean }).validate;

// Nothing is removed: a field a schema does not take (additionalProperties: false) is a 422 naming
// it (extra_forbidden), never dropped — a client learns its filter or field did not apply.
function makeAjv(coerceTypes: boolean | 'array') {
  const ajv = new Ajv({ allErrors: true, verbose: true, useDefaults: true, removeAdditional: false, strict: false, coerceTypes });
  addFormats(ajv);
  // Formats narrowed to what Postgres stores: ajv's uuid also takes `urn:uuid:…`, and its
  // date-time takes year 0000 and offsets up to ±23:59, which the database refuses.
  ajv.addFormat('uuid', UUID_PATTERN);
  ajv.addFormat('date-time', { type: 'string', validate: (s: string) => dateTimeShape(s) && isStorableInstant(s) });
  return ajv;
}

/** 422 items for strings that cannot be stored, located under `part` (body, query, path). */
export function faultItems(faults: FaultyString[], at: (string | number)[]): ValidationItem[] {
  return faults.map((f) => ({
    loc: [...at, ...f.path], msg: STRING_FAULT_MESSAGE[f.fault], type: 'string_unstorable', input: f.input, ctx: { fault: f.fault },
  }));
}

let stepAjv: { body: Ajv; other: Ajv } | undefined;
let argumentsAjv: Ajv | undefined;

/**
 * Compiles the schema of a tool's arguments: nothing coerced, and an argument the tool does not
 * take is an error (extra_forbidden), not dropped — an agent learns its mistake instead of
 * believing a filter applied.
 */
export function compileArgumentsValidator(schema: object) {
  argumentsAjv ??= makeAjv(false);
  return argumentsAjv.compile(schema);
}

/**
 * Compiles a schema outside the app's compilers, with the same settings per request part: for
 * routes that validate in steps (bulk write checks each item on its own). Schemas without $id only.
 */
export function compileValidator(schema: object, httpPart?: string) {
  stepAjv ??= { body: makeAjv(false), other: makeAjv('array') };
  return (httpPart === 'body' ? stepAjv.body : stepAjv.other).compile(schema);
}

/**
 * JSON bodies: nesting is bounded before anything parses or walks them, and keys that reach
 * Object.prototype (`__proto__`, `constructor.prototype`) are refused outright. Strings that
 * cannot be stored are refused too, unless `storableStrings` is false: a protocol whose handler
 * refuses them itself (MCP answers them as a tool error of the call that carries them).
 */
export function registerJsonParser(app: FastifyInstance, maxDepth = MAX_JSON_DEPTH, storableStrings = true) {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = body as string;
    const depth = jsonTextDepth(text, maxDepth);
    if (depth > maxDepth) {
      done(invalid(['body'], `JSON may nest at most ${maxDepth} levels deep`, 'json_too_deep', null, { max_depth: maxDepth }), undefined);
      return;
    }
    parse(req, text, (err: Error | null, value?: unknown) => {
      if (err || !storableStrings || !mayHoldFaultyStrings(text)) return done(err, value);
      const perItem = req.routeOptions.config?.perItem;
      const faults = faultyStrings(value).filter((f) => !(perItem && f.path[0] === perItem && typeof f.path[1] === 'number'));
      if (faults.length) return done(new ValidationError(faultItems(faults, ['body'])), undefined);
      done(null, value);
    });
  });
}

/** Query and path values are strings from the URL: NUL (%00) and the like are refused before validation. */
function registerUrlStringCheck(app: FastifyInstance) {
  app.addHook('preValidation', async (req: FastifyRequest) => {
    const items = [
      ...faultItems(faultyStrings(req.query), ['query']),
      ...faultItems(faultyStrings(req.params), ['path']),
    ];
    if (items.length) throw new ValidationError(items);
  });
}

export function registerValidation(app: FastifyInstance) {
  registerJsonParser(app);
  registerUrlStringCheck(app);
  const body = makeAjv(false);
  const other = makeAjv('array');
  const validator = ({ schema, httpPart }: { schema: unknown; httpPart?: string }) =>
    (httpPart === 'body' ? body : other).compile(schema as object);
  // Response schemas document the API; serialising with plain JSON keeps free-form fields intact.
  const serializer = () => (data: unknown) => JSON.stringify(data);
  app.setValidatorCompiler(validator);
  app.setSerializerCompiler(serializer);
  // A plugin that calls addSchema gets its compilers rebuilt from Fastify's defaults (coercing
  // bodies, trimming responses) unless the plugin's own context has them set: set them on every one.
  app.addHook('onRegister', (instance) => {
    instance.setValidatorCompiler(validator);
    instance.setSerializerCompiler(serializer);
  });
}
