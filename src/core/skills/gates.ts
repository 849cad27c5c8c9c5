// The six auto-gates a Forge candidate must pass to leave `candidate` (spec 3.2). Fail-closed:
// a gate whose input is missing, malformed or could not be looked up fails.
import { isClean } from './scan.js';

export const GATE_NAMES = ['volume', 'diversity', 'freshness', 'poison', 'scan', 'hash_binding'] as const;
export type GateName = (typeof GATE_NAMES)[number];

export interface GateResult {
  gate: GateName;
  passed: boolean;
  detail: string;
}

export interface GateThresholds {
  min_cluster_size: number;
  min_distinct_agents: number;
  freshness_window_days: number;
}

export interface GateInputs {
  kind: unknown;
  origin: unknown;
  scan: unknown;
  /** Whether the fingerprint is in the poison table now; undefined when the lookup failed. */
  poisoned: boolean | undefined;
  /** For kind update: the target's current content hash (null when the target is gone); undefined when not looked up. */
  targetContentHash: string | null | undefined;
  target: unknown;
}

/** Clock skew tolerated on a cluster's newest time before it counts as "in the future". */
const SKEW_MS = 5 * 60_000;

const int = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) ? v : null);
const time = (v: unknown): number | null => {
  if (typeof v !== 'string') return null;
  const t = Date.parse(v);
  return Number.isFinite(t) ? t : null;
};

function gate(name: GateName, check: () => [boolean, string]): GateResult {
  try {
    const [passed, detail] = check();
    return { gate: name, passed, detail };
  } catch (err) {
    return { gate: name, passed: false, detail: `could not be evaluated (${err instanceof Error ? err.message : String(err)})` };
  }
}

export function runGates(input: GateInputs, t: GateThresholds, now: Date): { passed: boolean; gates: GateResult[] } {
  const origin = (typeof input.origin === 'object' && input.origin !== null ? input.origin : {}) as Record<string, unknown>;
  const gates: GateResult[] = [
    gate('volume', () => {
      const n = int(origin.cluster_size);
      if (n === null) return [false, 'origin.cluster_size is missing'];
      return [n >= t.min_cluster_size, `cluster_size ${n} (needs ${t.min_cluster_size})`];
    }),
    gate('diversity', () => {
      const n = int(origin.distinct_agents);
      if (n === null) return [false, 'origin.distinct_agents is missing'];
      return [n >= t.min_distinct_agents, `distinct_agents ${n} (needs ${t.min_distinct_agents})`];
    }),
    gate('freshness', () => {
      const start = time(origin.window_start);
      const end = time(origin.window_end);
      if (start === null || end === null || end < start) return [false, 'origin.window_start/window_end are missing or invalid'];
      const oldest = now.getTime() - t.freshness_window_days * 86_400_000;
      if (end > now.getTime() + SKEW_MS) return [false, 'the cluster window ends in the future'];
      return [start >= oldest, `window ${new Date(start).toISOString()} – ${new Date(end).toISOString()} (must lie within the last ${t.freshness_window_days} days)`];
    }),
    gate('poison', () => {
      if (input.poisoned === undefined) return [false, 'the poison table could not be checked'];
      return input.poisoned ? [false, 'the fingerprint was rejected and is still cooling off'] : [true, 'fingerprint not rejected'];
    }),
    gate('scan', () => (isClean(input.scan) ? [true, 'scan clean'] : [false, 'scan is not clean'])),
    gate('hash_binding', () => {
      if (input.kind === 'create') return [true, 'kind create: nothing to bind'];
      if (input.kind !== 'update') return [false, 'kind is neither create nor update'];
      const want = (input.target as { target_content_hash?: unknown } | null)?.target_content_hash;
      if (typeof want !== 'string' || !want) return [false, 'target.target_content_hash is missing'];
      if (input.targetContentHash === undefined) return [false, 'the target could not be checked'];
      if (input.targetContentHash === null) return [false, 'the target skill no longer exists'];
      return input.targetContentHash === want ? [true, 'target unchanged'] : [false, 'the target skill changed since this update was drafted'];
    }),
  ];
  return { passed: gates.every((g) => g.passed), gates };
}
