// One tool call, the same way on every transport: the caller is metered like the REST twin,
// arguments are bounded and checked against the tool's schema, then the tool's handler calls
// the core. Results and errors carry the REST bodies, as compact JSON text.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { requireAuth, requireTrust } from '../core/caller.js';
import { invalid, ValidationError } from '../core/errors.js';
import { isPrototypeKey, jsonDepth, MAX_JSON_DEPTH } from '../core/json-limits.js';
import { ajvToItem, domainErrorBody, INTERNAL_ERROR_BODY, problemBody } from '../http/errors.js';
import { chargeRate } from '../http/rate-limit.js';
import { compileArgumentsValidator, faultItems } from '../http/validation.js';
import { faultyStrings } from '../core/input.js';
import type { Registry } from './registry.js';
import type { ToolContext, ToolSpec } from './tool.js';

const validators = new WeakMap<ToolSpec, ReturnType<typeof compileArgumentsValidator>>();

function validatorOf(spec: ToolSpec) {
  let v = validators.get(spec);
  if (!v) validators.set(spec, (v = compileArgumentsValidator(spec.input)));
  return v;
}

/**
 * Arguments as they arrive: an object, nested at most MAX_JSON_DEPTH deep, with no key that reaches
 * Object.prototype and no string that cannot be stored (NUL, a lone surrogate) — except inside the
 * items of the tool's `perItem` list, which the tool refuses item by item.
 */
function checkShape(args: unknown, perItem?: string): Record<string, unknown> {
  if (args === undefined || args === null) return {};
  if (typeof args !== 'object' || Array.isArray(args)) throw invalid(['body'], 'Arguments should be an object', 'dict_type', null);
  if (jsonDepth(args) > MAX_JSON_DEPTH) {
    throw invalid(['body'], `JSON may nest at most ${MAX_JSON_DEPTH} levels deep`, 'json_too_deep', null, { max_depth: MAX_JSON_DEPTH });
  }
  const bad = prototypeKey(args);
  if (bad !== null) throw invalid(['body', ...bad], 'Keys __proto__, constructor and prototype are not accepted', 'value_error', null);
  const faults = faultyStrings(args).filter((f) => !(perItem && f.path[0] === perItem && typeof f.path[1] === 'number'));
  if (faults.length) throw new ValidationError(faultItems(faults, ['body']));
  return { ...(args as Record<string, unknown>) };
}

/** Path to the first key that would reach Object.prototype, or null. The depth is already bounded. */
function prototypeKey(v: unknown, path: (string | number)[] = []): (string | number)[] | null {
  if (typeof v !== 'object' || v === null) return null;
  for (const [k, child] of Object.entries(v)) {
    if (!Array.isArray(v) && isPrototypeKey(k)) return [...path, k];
    const found = prototypeKey(child, [...path, Array.isArray(v) ? Number(k) : k]);
    if (found) return found;
  }
  return null;
}

const text = (value: unknown, isError = false): CallToolResult =>
  ({ content: [{ type: 'text', text: JSON.stringify(value) ?? 'null' }], ...(isError ? { isError: true } : {}) });

export async function callTool(
  registry: Registry, ctx: ToolContext, name: string, rawArgs: unknown, log?: (err: unknown) => void,
): Promise<CallToolResult> {
  const spec = registry.get(name);
  if (!spec) return text(problemBody(404, 'Not Found', `No tool named "${name}"`), true);
  try {
    requireAuth(ctx.caller);
    const args = checkShape(rawArgs, spec.perItem);
    // Metered before validation, as REST requests are: malformed floods count too.
    await chargeRate(ctx.services, ctx.caller, typeof spec.rate === 'function' ? spec.rate(args) : spec.rate, log);
    const validate = validatorOf(spec);
    if (!validate(args)) throw new ValidationError((validate.errors ?? []).map((e) => ajvToItem(e, 'body')));
    if (spec.trust > 0) requireTrust(ctx.caller, spec.trust, name);
    return text(await spec.handler(ctx, args));
  } catch (err) {
    const known = domainErrorBody(err);
    if (known) return text(known.body, true);
    log?.(err);
    return text(INTERNAL_ERROR_BODY, true);
  }
}

