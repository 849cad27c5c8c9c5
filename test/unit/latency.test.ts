import { describe, expect, it } from 'vitest';
import { LatencyRecorder, quantile } from '../../src/core/latency.js';

describe('latency recorder', () => {
  it('takes quantiles by nearest rank', () => {
    const v = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(quantile(v, 0.5)).toBe(50);
    expect(quantile(v, 0.95)).toBe(95);
    expect(quantile(v, 0.99)).toBe(99);
    expect(quantile([7], 0.99)).toBe(7);
    expect(quantile([], 0.5)).toBeNull();
  });

  it('keeps the last 500 samples per tenant, oldest first, tenants apart', () => {
    const r = new LatencyRecorder();
    for (let i = 0; i < 600; i++) r.record('a', i, 1000 + i);
    r.record('__proto__', 5, 1);
    const a = r.summary('a', 3);
    expect(a.count).toBe(500);
    expect(a.recent).toEqual([[1597, 597], [1598, 598], [1599, 599]]);
    expect(a.p50_ms).toBe(349);
    expect(r.summary('__proto__')).toMatchObject({ count: 1, p50_ms: 5 });
    expect(r.summary('nobody')).toEqual({ count: 0, p50_ms: null, p95_ms: null, p99_ms: null, recent: [] });
  });
});
