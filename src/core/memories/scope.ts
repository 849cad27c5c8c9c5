// Caura's `scope` of a list or a count: whose memories to take. agent: those the acting agent
// wrote; fleet: those of one fleet; all: the whole tenant. Visibility rules apply in every scope.
import { invalid } from '../errors.js';

export const MEMORY_SCOPES = ['agent', 'fleet', 'all'] as const;
export type MemoryScope = (typeof MEMORY_SCOPES)[number];

export interface ScopedFilter {
  /** Author filter to apply. */
  filter_agent_id?: string;
  fleet_id?: string;
}

/**
 * The author and fleet filters a scope stands for. `agent` is the acting agent; an author filter
 * naming someone else contradicts scope=agent, and scope=fleet needs the fleet.
 */
export function scopeFilter(
  scope: MemoryScope, agent: string | null, given: { filter_agent_id?: string; fleet_id?: string },
  names = { author: 'filter_agent_id', fleet: 'fleet_id' }, part: 'body' | 'query' = 'body',
): ScopedFilter {
  if (scope === 'agent') {
    if (!agent) throw invalid([part, 'agent_id'], 'scope=agent needs the acting agent: give agent_id or use an agent-bound key', 'missing');
    if (given.filter_agent_id !== undefined && given.filter_agent_id !== agent) {
      throw invalid([part, names.author], `With scope=agent, ${names.author} must be omitted or be your own agent ("${agent}")`,
        'value_error', given.filter_agent_id);
    }
    return { filter_agent_id: agent, fleet_id: given.fleet_id };
  }
  if (scope === 'fleet' && given.fleet_id === undefined) {
    throw invalid([part, names.fleet], 'scope=fleet needs fleet_id', 'missing');
  }
  return { ...given };
}
