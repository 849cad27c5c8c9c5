// Request validation: bodies are NOT type-coerced ("5" is not 5), query/path/header
// strings are; every error is reported (allErrors) with the offending input (verbose).
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance } from 'fastify';

const addFormats = ((addFormatsModule as any).default ?? addFormatsModule) as (a: Ajv) => Ajv;

function makeAjv(coerceTypes: boolean | 'array') {
  const ajv = new Ajv({ allErrors: true, verbose: true, useDefaults: true, removeAdditional: true, strict: false, coerceTypes });
  addFormats(ajv);
  return ajv;
}

let stepAjv: { body: Ajv; other: Ajv } | undefined;

/**
 * Compiles a schema outside the app's compilers, with the same settings per request part: for
 * routes that validate in steps (bulk write checks each item on its own). Schemas without $id only.
 */
export function compileValidator(schema: object, httpPart?: string) {
  stepAjv ??= { body: makeAjv(false), other: makeAjv('array') };
  return (httpPart === 'body' ? stepAjv.body : stepAjv.other).compile(schema);
}

export function registerValidation(app: FastifyInstance) {
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
