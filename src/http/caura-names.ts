// Caura's clients name some request fields differently (search `memory_type_filter`, list
// `written_by`, documents `where`). Each such name is an alias of ours: honoured, and when a
// request gives both names with different values, a 422 naming the alias — never one silently
// winning over the other.
import { ValidationError } from '../core/errors.js';
import type { Caller } from '../core/caller.js';
import { scopeFilter, type MemoryScope } from '../core/memories/scope.js';

type Part = 'body' | 'query';

/** Moves `alias` onto `canonical` in `obj` (a parsed body or query), in place. */
export function takeAlias(obj: Record<string, unknown>, part: Part, alias: string, canonical: string): void {
  if (!Object.prototype.hasOwnProperty.call(obj, alias)) return;
  const value = obj[alias];
  delete obj[alias];
  if (value === undefined) return;
  const own = obj[canonical];
  if (own !== undefined && JSON.stringify(own) !== JSON.stringify(value)) {
    throw new ValidationError([{
      loc: [part, alias], msg: `${alias} is another name for ${canonical}; give one of them, or the same value in both`,
      type: 'value_error', input: value, ctx: { other: canonical },
    }]);
  }
  obj[canonical] = value;
}

/** Search and recall: Caura's `memory_type_filter` and `status_filter`. */
export function searchAliases(body: Record<string, unknown>): void {
  takeAlias(body, 'body', 'memory_type_filter', 'memory_type');
  takeAlias(body, 'body', 'status_filter', 'status');
}

/**
 * List and stats: `written_by` is filter_agent_id; `scope` becomes the author and fleet filters
 * it stands for (agent: the acting agent — agent_id, else the key's).
 */
export function scopedQuery<Q extends { scope?: MemoryScope; written_by?: string; filter_agent_id?: string; fleet_id?: string; agent_id?: string }>(
  caller: Caller, q: Q,
): Omit<Q, 'scope' | 'written_by'> {
  const rest = { ...q } as Record<string, unknown>;
  takeAlias(rest, 'query', 'written_by', 'filter_agent_id');
  const scope = rest.scope as MemoryScope | undefined;
  delete rest.scope;
  if (!scope) return rest as Omit<Q, 'scope' | 'written_by'>;
  const agent = (rest.agent_id as string | undefined) ?? caller.agentId;
  const f = scopeFilter(scope, agent, { filter_agent_id: rest.filter_agent_id as string | undefined, fleet_id: rest.fleet_id as string | undefined },
    undefined, 'query');
  return { ...rest, ...f } as Omit<Q, 'scope' | 'written_by'>;
}
