// Pure parts of @loci/client: retry decisions and delays, error messages, chunking and attempt ids.
import { describe, expect, it } from 'vitest';
import {
  attemptId, chunk, DEFAULT_RETRY, describeBody, LociError, parseRetryAfter, retryableItem, retryableStatus, retryDelayMs,
} from '../../packages/client/src/index.js';

describe('retry policy', () => {
  it('retries 429 and 503 always, 502/504 and Retry-After answers only when repeating is safe', () => {
    expect(retryableStatus(429, false, false)).toBe(true);
    expect(retryableStatus(503, false, false)).toBe(true);
    expect(retryableStatus(504, false, false)).toBe(false);
    expect(retryableStatus(504, false, true)).toBe(true);
    expect(retryableStatus(409, true, true)).toBe(true);
    expect(retryableStatus(409, false, true)).toBe(false);
    expect(retryableStatus(422, false, true)).toBe(false);
  });

  it('reads Retry-After as seconds or as a date', () => {
    expect(parseRetryAfter('3')).toBe(3);
    expect(parseRetryAfter(null)).toBeNull();
    expect(parseRetryAfter('soon')).toBeNull();
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5);
  });

  it('backs off exponentially with jitter, and waits at least Retry-After', () => {
    const p = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 1000 };
    expect(retryDelayMs(0, null, p, () => 0)).toBe(50);
    expect(retryDelayMs(0, null, p, () => 1)).toBe(100);
    expect(retryDelayMs(3, null, p, () => 1)).toBe(800);
    expect(retryDelayMs(9, null, p, () => 1)).toBe(1000);
    expect(retryDelayMs(0, 2, { ...p, maxDelayMs: 10_000 }, () => 0.5)).toBe(2050);
    const spread = new Set(Array.from({ length: 20 }, () => retryDelayMs(2, null, p)));
    expect(spread.size).toBeGreaterThan(1);
  });
});

describe('error messages', () => {
  it('are text for problems, validation lists and unknown bodies', () => {
    expect(describeBody(404, { type: 'about:blank', title: 'Not Found', status: 404, detail: 'memory not found' })).toBe('Not Found: memory not found');
    expect(describeBody(422, { detail: [{ loc: ['body', 'content'], msg: 'Field required', type: 'missing' }] })).toBe('body.content: Field required');
    expect(describeBody(400, { error: { nested: true } })).toBe('{"error":{"nested":true}}');
    expect(describeBody(502, null)).toBe('Bad Gateway');
    const e = new LociError(409, { title: 'Conflict', detail: { odd: 1 } }, 'post', '/x');
    expect(e.message).not.toContain('[object Object]');
  });
});

describe('bulk chunks', () => {
  it('chunks to at most 100 and names each chunk stably', () => {
    expect(chunk(Array.from({ length: 250 }, (_, i) => i)).map((c) => c.length)).toEqual([100, 100, 50]);
    expect(() => chunk([1], 101)).toThrow(RangeError);
    expect(attemptId('import-abc', 2)).toBe('import-abc-2');
    expect(() => attemptId('bad prefix', 0)).toThrow(RangeError);
  });
});

describe('bulk items worth another try', () => {
  it('retries only items the server could not finish in time', () => {
    expect(retryableItem({ status: 'error', error: { code: 'enrichment_timeout' } })).toBe(true);
    expect(retryableItem({ status: 'error', error: { code: 'validation' } })).toBe(false);
    expect(retryableItem({ status: 'created', error: null })).toBe(false);
  });
});
