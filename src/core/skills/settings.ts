// Organisation settings (spec 2.6): the `skills_factory` object with its defaults, how a
// patch merges into it (deep), and which values a patch may carry.
import { DomainError, ValidationError, type ValidationItem } from '../errors.js';
import { isPlainObject } from '../documents/rules.js';

export interface SkillsFactorySettings {
  enabled: boolean;
  description_max_bytes: number;
  inbox_max_pending: number;
  rejection_cooloff_days: number;
  forge: {
    cron_interval_hours: number;
    min_cluster_size: number;
    min_distinct_agents: number;
    freshness_window_days: number;
  };
  sentinel: { auto_promote_clean: boolean };
}

export const DEFAULT_SKILLS_FACTORY: SkillsFactorySettings = Object.freeze({
  enabled: false,
  description_max_bytes: 160,
  inbox_max_pending: 50,
  rejection_cooloff_days: 30,
  forge: Object.freeze({ cron_interval_hours: 6, min_cluster_size: 3, min_distinct_agents: 3, freshness_window_days: 14 }),
  sentinel: Object.freeze({ auto_promote_clean: false }),
}) as SkillsFactorySettings;

type Leaf = { kind: 'bool' } | { kind: 'int'; min: number; max: number };

/** Every key a patch may set, with its type and bounds. */
const SCHEMA: Record<string, Leaf | Record<string, Leaf>> = {
  enabled: { kind: 'bool' },
  description_max_bytes: { kind: 'int', min: 16, max: 1024 },
  inbox_max_pending: { kind: 'int', min: 1, max: 1000 },
  rejection_cooloff_days: { kind: 'int', min: 1, max: 365 },
  forge: {
    cron_interval_hours: { kind: 'int', min: 1, max: 24 * 30 },
    min_cluster_size: { kind: 'int', min: 1, max: 1000 },
    min_distinct_agents: { kind: 'int', min: 1, max: 1000 },
    freshness_window_days: { kind: 'int', min: 1, max: 365 },
  },
  sentinel: { auto_promote_clean: { kind: 'bool' } },
};

const isLeaf = (s: unknown): s is Leaf => isPlainObject(s) && typeof s.kind === 'string';

/**
 * Checks a patch of `skills_factory` against the schema: unknown keys, wrong types and values
 * out of bounds are all reported (422), so a misspelt key is never silently dropped.
 */
export function checkSkillsFactoryPatch(patch: unknown, loc: (string | number)[] = ['body', 'skills_factory']): void {
  const items: ValidationItem[] = [];
  const walk = (value: unknown, schema: Record<string, Leaf | Record<string, Leaf>>, at: (string | number)[]) => {
    if (!isPlainObject(value)) {
      items.push({ loc: at, msg: 'Input should be a valid object', type: 'dict_type', input: value ?? null, ctx: {} });
      return;
    }
    for (const [k, v] of Object.entries(value)) {
      const spec = Object.hasOwn(schema, k) ? schema[k] : undefined;
      const here = [...at, k];
      if (!spec) {
        items.push({ loc: here, msg: 'Extra inputs are not permitted', type: 'extra_forbidden', input: v ?? null, ctx: {} });
      } else if (isLeaf(spec)) {
        if (spec.kind === 'bool' && typeof v !== 'boolean') {
          items.push({ loc: here, msg: 'Input should be a valid boolean', type: 'bool_type', input: v ?? null, ctx: {} });
        } else if (spec.kind === 'int') {
          if (typeof v !== 'number' || !Number.isInteger(v)) {
            items.push({ loc: here, msg: 'Input should be a valid integer', type: 'int_type', input: v ?? null, ctx: {} });
          } else if (v < spec.min) {
            items.push({ loc: here, msg: `Input should be greater than or equal to ${spec.min}`, type: 'greater_than_equal', input: v, ctx: { ge: spec.min } });
          } else if (v > spec.max) {
            items.push({ loc: here, msg: `Input should be less than or equal to ${spec.max}`, type: 'less_than_equal', input: v, ctx: { le: spec.max } });
          }
        }
      } else {
        walk(v, spec, here);
      }
    }
  };
  walk(patch, SCHEMA, loc);
  if (items.length) throw new ValidationError(items);
}

/** `base` with `patch` laid over it, nested objects merged key by key (neither is changed). */
export function deepMerge(base: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null);
  for (const [k, v] of Object.entries(base)) out[k] = v;
  for (const [k, v] of Object.entries(patch)) {
    const prev = out[k];
    out[k] = isPlainObject(prev) && isPlainObject(v) ? deepMerge(prev, v) : v;
  }
  return { ...out };
}

/** The effective settings: the stored overrides over the defaults. */
export function effectiveSkillsFactory(stored: unknown): SkillsFactorySettings {
  const overrides = isPlainObject(stored) ? stored : {};
  return deepMerge(DEFAULT_SKILLS_FACTORY as unknown as Record<string, unknown>, overrides) as unknown as SkillsFactorySettings;
}

export const SKILLS_FACTORY_DISABLED = 'SKILLS_FACTORY_DISABLED';

/** 403 for a tenant that has not opted in to the skills workflow. */
export function factoryDisabled(tenant: string): DomainError {
  return new DomainError(403, 'Forbidden',
    `The skills factory is not enabled for tenant "${tenant}"; enable it with PATCH /api/v1/org/settings {"skills_factory": {"enabled": true}}`,
    { code: SKILLS_FACTORY_DISABLED });
}
