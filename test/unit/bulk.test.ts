// Pure pieces of bulk write, idempotency and rate limiting.
import { describe, expect, it } from 'vitest';
import { Admission, BulkBudget, bulkHttpStatus, chunkRows, classifyRows, clientRequestId, Gate, Pace, STORE_CHUNK } from '../../src/core/memories/bulk.js';
import { GateFull } from '../../src/infra/gate.js';
import { fingerprint, Idempotency, isFinal } from '../../src/core/idempotency.js';
import { takeToken } from '../../src/infra/rate-limit.js';
import { MemoryCache } from '../../src/infra/cache/memory.js';

describe('bulkHttpStatus (spec 4.2 bulk rules 3 and 4)', () => {
  const of = (...s: string[]) => s.map((status) => ({ status: status as any }));
  it('200 when nothing failed, whatever mix of created and duplicates', () => {
    expect(bulkHttpStatus(of('created', 'created'))).toBe(200);
    expect(bulkHttpStatus(of('created', 'duplicate_attempt', 'duplicate_content'))).toBe(200);
    expect(bulkHttpStatus(of('duplicate_attempt'))).toBe(200);
  });
  it('200 when every item failed: the items carry the rejection, 422 is not reused', () => {
    expect(bulkHttpStatus(of('error'))).toBe(200);
    expect(bulkHttpStatus(of('error', 'error', 'error'))).toBe(200);
  });
  it('207 when some failed and some succeeded (duplicates count as success)', () => {
    expect(bulkHttpStatus(of('created', 'error'))).toBe(207);
    expect(bulkHttpStatus(of('error', 'duplicate_content'))).toBe(207);
    expect(bulkHttpStatus(of('duplicate_attempt', 'error', 'error'))).toBe(207);
  });
});

describe('classifyRows', () => {
  const rows = [
    { crid: 'a:0', contentKey: 'k0' },
    { crid: 'a:1', contentKey: 'k1' },
    { crid: 'a:2', contentKey: 'k2' },
    { crid: 'a:3', contentKey: 'k3' },
  ];
  it('inserted → created; held attempt id → duplicate_attempt (before content); held content → duplicate_content; else missing', () => {
    const out = classifyRows(rows,
      new Map([['a:0', 'id0']]),
      new Map([['a:1', 'id1']]),
      new Map([['k1', 'other'], ['k2', 'id-holder']]));
    expect(out).toEqual([
      { status: 'created', id: 'id0' },
      { status: 'duplicate_attempt', id: 'id1' },
      { status: 'duplicate_content', duplicateOf: 'id-holder' },
      { status: 'missing' },
    ]);
  });
  it('client_request_id is "<attempt>:<index>"', () => {
    expect(clientRequestId('batch-7', 12)).toBe('batch-7:12');
  });
});

describe('BulkBudget', () => {
  it('check throws a 504 once the deadline has passed, and keeps throwing', () => {
    const open = new BulkBudget(1000, Date.now() + 60_000);
    expect(() => open.check()).not.toThrow();
    const spent = new BulkBudget(5, Date.now() - 1);
    expect(() => spent.check()).toThrow(expect.objectContaining({ status: 504 }));
    expect(() => spent.check()).toThrow();
  });

  it('settle answers 504 when the work outlasts the budget, and the work can then no longer pass check', async () => {
    const b = new BulkBudget(30, Date.now() + 30);
    let passed: boolean | undefined;
    const work = (async () => {
      await new Promise((r) => setTimeout(r, 100));
      try {
        b.check();
        passed = true;
      } catch {
        passed = false;
      }
    })();
    await expect(b.settle(work)).rejects.toMatchObject({ status: 504 });
    await work;
    expect(passed).toBe(false);
  });

  it('settle waits past the deadline for work whose commit has begun', async () => {
    const b = new BulkBudget(30, Date.now() + 30);
    const work = (async () => {
      b.committing = true;
      await new Promise((r) => setTimeout(r, 100));
      return 'committed';
    })();
    await expect(b.settle(work)).resolves.toBe('committed');
  });

  it('check passes once the first commit has begun, also past the deadline (the rest of the rows are stored)', () => {
    const b = new BulkBudget(5, Date.now() - 1);
    b.committing = true;
    expect(() => b.check()).not.toThrow();
  });

  it('settle passes through the result and errors of quick work', async () => {
    const b = new BulkBudget(10_000, Date.now() + 10_000);
    await expect(b.settle(Promise.resolve(7))).resolves.toBe(7);
    await expect(b.settle(Promise.reject(new Error('boom')))).rejects.toThrow('boom');
  });
});

describe('chunkRows (storage transactions on the embedded database)', () => {
  const rows = (...lengths: number[]) => lengths.map((n, i) => ({ i, text: 'x'.repeat(n) }));
  const shape = (chunks: { i: number }[][]) => chunks.map((c) => c.map((r) => r.i));

  it('keeps the order and cuts at the row cap', () => {
    const n = STORE_CHUNK.rows * 2 + 3;
    const chunks = chunkRows(rows(...Array(n).fill(100)));
    expect(chunks.map((c) => c.length)).toEqual([STORE_CHUNK.rows, STORE_CHUNK.rows, 3]);
    expect(chunks.flat().map((r) => r.i)).toEqual([...Array(n).keys()]);
  });

  it('cuts at the character cap, and a row longer than the cap goes alone', () => {
    const half = STORE_CHUNK.chars / 2;
    expect(shape(chunkRows(rows(half, half, 1, STORE_CHUNK.chars * 2, 10)))).toEqual([[0, 1], [2], [3], [4]]);
    expect(chunkRows([])).toEqual([]);
  });
});

describe('Gate with a bounded queue', () => {
  it('refuses an arrival at once when every place is taken and the queue is full', async () => {
    const gate = new Gate(1, 1);
    const first = await gate.enter();
    const second = gate.enter(); // queued
    await expect(gate.enter()).rejects.toBeInstanceOf(GateFull);
    first();
    const leave = await second;
    leave();
    (await gate.enter())();
  });
});

describe('Gate', () => {
  it('admits `size` holders at once and the waiting ones in arrival order; leaving twice counts once', async () => {
    const gate = new Gate(2);
    const order: string[] = [];
    const a = await gate.enter();
    const b = await gate.enter();
    const c = gate.enter().then((leave) => { order.push('c'); return leave; });
    const d = gate.enter().then((leave) => { order.push('d'); return leave; });
    await new Promise((r) => setTimeout(r, 10));
    expect(order).toEqual([]);
    a();
    a();
    const leaveC = await c;
    await new Promise((r) => setTimeout(r, 10));
    expect(order).toEqual(['c']);
    b();
    const leaveD = await d;
    expect(order).toEqual(['c', 'd']);
    leaveC();
    leaveD();
    // Both places are free again.
    const e = await gate.enter();
    const f = await gate.enter();
    let third = false;
    void gate.enter().then(() => { third = true; });
    await new Promise((r) => setTimeout(r, 10));
    expect(third).toBe(false);
    e();
    f();
  });
});

describe('Pace', () => {
  it('expects the median recent cost per item of batches of some size; nothing before', () => {
    const pace = new Pace();
    expect(pace.expect(100)).toBe(0);
    pace.observe(9_000, 5); // small batches are fixed costs mostly: ignored
    expect(pace.expect(100)).toBe(0);
    pace.observe(5_000, 100); // a cold start: 50 ms per item
    expect(pace.expect(100)).toBeCloseTo(5_000);
    pace.observe(1_000, 100);
    pace.observe(1_200, 100);
    expect(pace.expect(100)).toBeCloseTo(1_200); // the median of 10, 12 and 50 ms per item
    for (let i = 0; i < 8; i++) pace.observe(2_000, 100);
    expect(pace.expect(50)).toBeCloseTo(1_000); // only the last eight count
  });
});

describe('Admission', () => {
  it('expects the queued work ahead shared by the places, and forgets a batch once it leaves', async () => {
    const a = new Admission(2);
    a.pace.observe(1_000, 100); // 10 ms per item
    expect(a.expectedWait()).toBe(0);
    const first = await a.enter(100);
    const second = await a.enter(50);
    expect(a.expectedWait()).toBeCloseTo((150 * 10) / 2);
    let thirdIn = false;
    const third = a.enter(100).then((leave) => { thirdIn = true; return leave; });
    expect(a.expectedWait()).toBeCloseTo((250 * 10) / 2); // waiting batches count too
    first();
    first(); // leaving twice changes nothing
    const leaveThird = await third;
    expect(thirdIn).toBe(true);
    expect(a.expectedWait()).toBeCloseTo((150 * 10) / 2);
    second();
    leaveThird();
    expect(a.expectedWait()).toBe(0);
  });

  it('refuses with a 504 whose Retry-After covers the expected wait', () => {
    const budget = new BulkBudget(1_000, Date.now() + 1_000);
    try {
      budget.refuse(2_400);
      expect.unreachable();
    } catch (err: any) {
      expect(err.status).toBe(504);
      expect(err.headers['retry-after']).toBe('3');
    }
    expect(() => budget.check()).toThrow(); // a refused batch can no longer commit
  });
});

describe('idempotency records', () => {
  it('fingerprints ignore object key order but not values or array order', () => {
    expect(fingerprint([{ a: 1, b: { c: 2, d: 3 } }])).toBe(fingerprint([{ b: { d: 3, c: 2 }, a: 1 }]));
    expect(fingerprint([{ a: 1 }])).not.toBe(fingerprint([{ a: 2 }]));
    expect(fingerprint([[1, 2]])).not.toBe(fingerprint([[2, 1]]));
  });

  it('claim → in_flight for a second claim → replay after complete; another fingerprint → mismatch; release frees the key', async () => {
    const idem = new Idempotency(new MemoryCache());
    expect(await idem.claim('s', 'k', 'fp1')).toEqual({ kind: 'claimed' });
    expect(await idem.claim('s', 'k', 'fp1')).toEqual({ kind: 'in_flight' });
    expect(await idem.claim('s', 'k', 'fp2')).toEqual({ kind: 'mismatch' });
    const response = { status: 201, headers: { 'content-type': 'application/json' }, body: '{"id":1}' };
    await idem.complete('s', 'k', 'fp1', response);
    expect(await idem.claim('s', 'k', 'fp1')).toEqual({ kind: 'replay', response });
    expect(await idem.claim('s', 'k', 'fp2')).toEqual({ kind: 'mismatch' });
    // Scopes are separate.
    expect(await idem.claim('other', 'k', 'fp2')).toEqual({ kind: 'claimed' });
    await idem.release('other', 'k');
    expect(await idem.claim('other', 'k', 'fp3')).toEqual({ kind: 'claimed' });
  });

  it('an in-flight claim expires, so a crashed request does not block its key for ever', async () => {
    const idem = new Idempotency(new MemoryCache(), 50);
    expect((await idem.claim('s', 'k', 'fp')).kind).toBe('claimed');
    await new Promise((r) => setTimeout(r, 120));
    expect((await idem.claim('s', 'k', 'fp')).kind).toBe('claimed');
  });

  it('replays final answers only', () => {
    for (const s of [200, 201, 207, 400, 403, 404, 422]) expect(isFinal(s)).toBe(true);
    for (const s of [409, 429, 500, 503, 504]) expect(isFinal(s)).toBe(false);
  });
});

describe('takeToken (fixed one-second windows)', () => {
  it('allows `limit` calls per window, then refuses with the seconds to the window end', async () => {
    const cache = new MemoryCache();
    const t0 = Date.UTC(2030, 0, 1, 0, 0, 0, 400);
    const d = [];
    for (let i = 0; i < 3; i++) d.push(await takeToken(cache, 'key-1', 'bulk', 2, t0 + i));
    expect(d.map((x) => x.allowed)).toEqual([true, true, false]);
    expect(d.map((x) => x.remaining)).toEqual([1, 0, 0]);
    expect(d[2]).toMatchObject({ limit: 2, retryAfterS: 1 });
    // The next window starts fresh; other keys and classes never shared the count.
    expect((await takeToken(cache, 'key-1', 'bulk', 2, t0 + 600)).allowed).toBe(true);
    expect((await takeToken(cache, 'key-2', 'bulk', 2, t0 + 2)).allowed).toBe(true);
    expect((await takeToken(cache, 'key-1', 'write', 2, t0 + 2)).allowed).toBe(true);
  });
});
