// Recent request latencies per tenant, kept in this process only: the dashboard's search-latency
// figures. A fixed ring per tenant bounds memory; tenants are Map keys, never object keys.

export interface LatencySummary {
  count: number;
  p50_ms: number | null;
  p95_ms: number | null;
  p99_ms: number | null;
  /** The most recent samples, oldest first: [epoch ms, duration ms]. */
  recent: [number, number][];
}

const RING = 500;
const MAX_TENANTS = 10_000;

/** The q-quantile (0..1) of sorted values by nearest rank; null for none. */
export function quantile(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i];
}

export class LatencyRecorder {
  private readonly rings = new Map<string, { at: number[]; ms: number[]; next: number }>();

  record(tenant: string, ms: number, at = Date.now()): void {
    let r = this.rings.get(tenant);
    if (!r) {
      // Past the cap the oldest tenant is forgotten: figures are a convenience, not an account.
      if (this.rings.size >= MAX_TENANTS) this.rings.delete(this.rings.keys().next().value as string);
      r = { at: [], ms: [], next: 0 };
      this.rings.set(tenant, r);
    }
    if (r.ms.length < RING) {
      r.at.push(at);
      r.ms.push(ms);
    } else {
      r.at[r.next] = at;
      r.ms[r.next] = ms;
      r.next = (r.next + 1) % RING;
    }
  }

  summary(tenant: string, recent = 100): LatencySummary {
    const r = this.rings.get(tenant);
    if (!r) return { count: 0, p50_ms: null, p95_ms: null, p99_ms: null, recent: [] };
    const order = r.ms.length < RING ? [...r.ms.keys()] : [...r.ms.keys()].map((i) => (i + r.next) % RING);
    const sorted = [...r.ms].sort((a, b) => a - b);
    const round = (v: number | null) => (v === null ? null : Math.round(v * 10) / 10);
    return {
      count: r.ms.length,
      p50_ms: round(quantile(sorted, 0.5)),
      p95_ms: round(quantile(sorted, 0.95)),
      p99_ms: round(quantile(sorted, 0.99)),
      recent: order.slice(-recent).map((i) => [r.at[i], Math.round(r.ms[i] * 10) / 10] as [number, number]),
    };
  }
}
