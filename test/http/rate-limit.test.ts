// Per-key rate limits over HTTP: 429 problem with Retry-After once a class's budget of the
// current one-second window is spent. The clock is frozen inside one window so the counts are
// exact whatever the machine's speed.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ LOCI_RATE_BULK: '2', LOCI_RATE_WRITE: '3', LOCI_RATE_OTHER: '4' });
});
afterAll(async () => t?.close());
afterEach(() => {
  vi.useRealTimers();
});

let second = 0;
/** Freezes Date 250 ms into a fresh one-second window (real timers keep running). */
function freezeClock() {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.UTC(2030, 0, 1, 0, 0, ++second, 250));
}

const bulkCall = (key: string) =>
  // An empty body is refused after the rate check: a cheap request that still counts.
  t.api('POST', '/api/v1/memories/bulk', { key, raw: '{}', headers: { 'x-bulk-attempt-id': 'rl' } });

describe('rate limits per API key', () => {
  it('the bulk class allows its budget per window, then answers 429 with Retry-After and a problem body', async () => {
    const k = await t.key('rl1');
    freezeClock();
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await bulkCall(k));
    expect(answers.map((a) => a.status)).toEqual([422, 422, 429, 429]);
    const limited = answers[2];
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(limited.headers.get('content-type')).toMatch(/problem\+json/);
    expect(limited.body).toMatchObject({ status: 429, class: 'bulk', limit: 2 });
    expect(answers[0].headers.get('x-ratelimit-limit')).toBe('2');
    expect(answers[0].headers.get('x-ratelimit-remaining')).toBe('1');
    // The next window has a fresh budget.
    vi.setSystemTime(Date.now() + 1_000);
    expect((await bulkCall(k)).status).toBe(422);
  });

  it('classes and keys have budgets of their own', async () => {
    const k = await t.key('rl2');
    const other = await t.key('rl2');
    freezeClock();
    for (let i = 0; i < 2; i++) await bulkCall(k);
    expect((await bulkCall(k)).status).toBe(429);
    // Another key is not affected.
    expect((await bulkCall(other)).status).toBe(422);
    // Single writes (3/s) and reads (4/s) of the same key have their own budgets.
    const writes = [];
    for (let i = 0; i < 4; i++) writes.push((await t.api('POST', '/api/v1/memories', { key: k, raw: '{}' })).status);
    expect(writes).toEqual([422, 422, 422, 429]);
    const reads = [];
    for (let i = 0; i < 5; i++) reads.push((await t.api('GET', '/api/v1/memories/count', { key: k })).status);
    expect(reads).toEqual([200, 200, 200, 200, 429]);
  });

  it('open endpoints and requests without a key are not metered per key', async () => {
    freezeClock();
    for (let i = 0; i < 6; i++) expect((await t.api('GET', '/api/v1/version', { key: null })).status).toBe(200);
    for (let i = 0; i < 6; i++) expect((await t.api('POST', '/api/v1/memories/bulk', { key: null, raw: '{}' })).status).toBe(401);
  });

});

describe('rate limits per client address without a valid key', () => {
  let u: TestApp;
  beforeAll(async () => {
    u = await startTestApp({ LOCI_RATE_UNAUTHENTICATED: '3' });
  });
  afterAll(async () => u?.close());

  it('open endpoints and failed authentications share one budget per address; then 429 with Retry-After, also for a valid key', async () => {
    const valid = await u.key('rl-addr');
    freezeClock();
    const answers = [];
    answers.push((await u.api('GET', '/api/v1/version', { key: null })).status);
    answers.push((await u.api('GET', '/api/v1/memories', { key: null })).status);
    answers.push((await u.api('GET', '/api/v1/memories', { key: 'loci_guessed-key-000000000000' })).status);
    // The guess over the budget is still answered 401; it blocks the address for the rest of the window.
    answers.push((await u.api('GET', '/api/v1/memories', { key: 'loci_guessed-key-000000000001' })).status);
    const limited = await u.api('GET', '/api/v1/memories', { key: 'loci_guessed-key-000000000002' });
    expect(answers).toEqual([200, 401, 401, 401]);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(limited.headers.get('content-type')).toContain('application/problem+json');
    expect(limited.body).toMatchObject({ status: 429, class: 'unauthenticated', limit: 3 });
    // The address is refused before any key is looked up, until the window ends.
    expect((await u.api('GET', '/api/v1/version', { key: null })).status).toBe(429);
    expect((await u.api('GET', '/api/v1/memories?tenant_id=rl-addr', { key: valid })).status).toBe(429);
    freezeClock(); // the next window
    expect((await u.api('GET', '/api/v1/memories?tenant_id=rl-addr', { key: valid })).status).toBe(200);
    // Requests with a valid key do not spend the address's budget.
    for (let i = 0; i < 5; i++) expect((await u.api('GET', '/api/v1/memories?tenant_id=rl-addr', { key: valid })).status).toBe(200);
    expect((await u.api('GET', '/api/v1/version', { key: null })).status).toBe(200);
  });
});
