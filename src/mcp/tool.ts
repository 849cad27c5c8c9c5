// What a tool of the tool-call surface is: one record per tool, in its own module under tools/.
// The MCP server (HTTP and stdio) and GET /api/v1/tool-descriptions are generated from these.
import { Type, type TObject, type TSchema } from 'typebox';
import type { Caller } from '../core/caller.js';
import type { RateClass } from '../infra/rate-limit.js';
import type { Services } from '../services.js';

/** The REST route doing what a tool (or one op of it) does, as `METHOD /path` with Fastify's `:param`s. */
export type RestTwin = `${'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE'} /${string}`;

export interface ToolContext {
  services: Services;
  caller: Caller;
}

export interface ToolSpec<A = any> {
  /** `loci_…`: Caura's tool name with our prefix. */
  name: string;
  /** What an agent reads in tools/list: short, it is paid for in every session. */
  description: string;
  /** Arguments: built from the property schemas of the REST twin's request. */
  input: TObject;
  /** Least trust any call needs; the core service checks the rest (per op, per row). */
  trust: number;
  /** Whether the tool touches only a session's short-term memory (none of ours do). */
  stm_only: boolean;
  /** The rate-limit class the REST twin of this call is metered in. */
  rate: RateClass | ((args: A) => RateClass);
  /** The REST twin: one route, or one per `op`. A check fails a tool whose twin is not a route of the app. */
  rest: RestTwin | Record<string, RestTwin>;
  /** Calls the same core service method as the REST twin and returns the REST answer's body. */
  handler(ctx: ToolContext, args: A): Promise<unknown>;
  /** An argument listing items the handler checks one by one (a batch): their faulty strings are their own errors. */
  perItem?: string;
  /** Place in tools/list (lower first; default 100). */
  order?: number;
}

/** Defines a tool (identity function for type checking). A module under tools/ exports `tool` or `tools`. */
export const defineTool = <A>(spec: ToolSpec<A>): ToolSpec<A> => spec;

/**
 * An optional argument from a REST property schema, with a shorter description for tool listings
 * (or none); the REST schema stays as it is.
 */
export function arg(schema: TSchema, description?: string): TSchema {
  return Type.Optional(described(schema, description));
}

/** A required argument from a REST property schema (see `arg`). */
export const requiredArg = (schema: TSchema, description?: string): TSchema => described(schema, description);

function described(schema: TSchema, description?: string): TSchema {
  const { description: _drop, ...rest } = schema as unknown as Record<string, unknown>;
  return Type.Unsafe({ ...rest, ...(description ? { description } : {}) });
}

/** The named properties of a REST schema as optional arguments, descriptions dropped. */
export function pick<K extends string>(schema: TObject, keys: readonly K[]): Record<K, TSchema> {
  const props = schema.properties as Record<string, TSchema>;
  const out = {} as Record<K, TSchema>;
  for (const k of keys) {
    if (!props[k]) throw new Error(`schema has no property "${k}"`);
    out[k] = arg(props[k]);
  }
  return out;
}

/** Arguments every tool takes besides its own: the identity the key already carries. */
export const identityArgs = {
  tenant_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
};

/** Caura's default agent of a call when the key is bound to none and the arguments name none. */
export const DEFAULT_MCP_AGENT = 'mcp-agent';

/** The agent a call acts as: the named one, else the key's, else Caura's default. */
export const actingAgent = (ctx: ToolContext, named: string | undefined): string => named ?? ctx.caller.agentId ?? DEFAULT_MCP_AGENT;
