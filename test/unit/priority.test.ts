// Foreground-first lock (infra/priority.ts) and the detector backlog's bound (contradictions/backlog.ts).
import { describe, expect, it } from 'vitest';
import { currentPriority, inBackground, PriorityLock, withPriority } from '../../src/infra/priority.js';
import { DetectionBacklog } from '../../src/core/contradictions/backlog.js';

const tick = () => new Promise((r) => setImmediate(r));

describe('PriorityLock', () => {
  it('serves waiting foreground work, then a batch\'s, then background work, each lane in order', async () => {
    const lock = new PriorityLock();
    const order: string[] = [];
    let release!: () => void;
    const first = lock.run(() => new Promise<void>((r) => { release = r; }));
    const jobs = [
      lock.run(async () => { order.push('bg1'); }, 'background'),
      lock.run(async () => { order.push('fg1'); }, 'foreground'),
      inBackground(() => lock.run(async () => { order.push('bg2'); })),
      withPriority('batch', () => lock.run(async () => { order.push('batch1'); })),
      lock.run(async () => { order.push('fg2'); }),
    ];
    await tick();
    expect(lock.waiting()).toEqual({ foreground: 2, batch: 1, background: 2 });
    release();
    await Promise.all([first, ...jobs]);
    expect(order).toEqual(['fg1', 'fg2', 'batch1', 'bg1', 'bg2']);
  });

  it('keeps the session for a request\'s next statement, sent a few awaits after its last, before a lower lane', async () => {
    const lock = new PriorityLock();
    const order: string[] = [];
    let release!: () => void;
    const first = lock.run(() => new Promise<void>((r) => { release = r; }));
    const batch = withPriority('batch', () => lock.run(async () => { order.push('batch'); }));
    await tick();
    release();
    await first;
    for (let i = 0; i < 5; i++) await null; // the layers between a statement's result and the next one
    await lock.run(async () => { order.push('next statement'); });
    await batch;
    expect(order).toEqual(['next statement', 'batch']);
  });

  it('runs one holder at a time and survives a failing holder', async () => {
    const lock = new PriorityLock();
    let inside = 0;
    let most = 0;
    const work = async () => {
      inside++;
      most = Math.max(most, inside);
      await tick();
      inside--;
    };
    const failing = lock.run(async () => { throw new Error('boom'); });
    await expect(failing).rejects.toThrow('boom');
    await Promise.all(Array.from({ length: 5 }, (_, i) => lock.run(work, i % 2 ? 'background' : 'foreground')));
    expect(most).toBe(1);
  });

  it('runs each holder at its own priority, not at that of the holder whose release starts it', async () => {
    const lock = new PriorityLock();
    let release!: () => void;
    const first = inBackground(() => lock.run(() => new Promise<void>((r) => { release = r; })));
    const seen = lock.run(async () => currentPriority());
    await tick();
    release();
    await first;
    expect(await seen).toBe('foreground');
  });

  it('knows the priority of the running work across awaits', async () => {
    expect(currentPriority()).toBe('foreground');
    await inBackground(async () => {
      await tick();
      expect(currentPriority()).toBe('background');
    });
    expect(currentPriority()).toBe('foreground');
  });
});

describe('DetectionBacklog', () => {
  const event = (i: number, at = new Date(Date.now() - 50).toISOString()) => ({ id: `e${i}`, occurred_at: at });

  it('reserves up to its bound, then makes writes wait in order until detections finish', async () => {
    const b = new DetectionBacklog(4);
    await b.reserve(3, Date.now() + 1000);
    const woke: string[] = [];
    const big = b.reserve(3, Date.now() + 5000).then(() => woke.push('big'));
    const small = b.reserve(1, Date.now() + 5000).then(() => woke.push('small')); // fits, but waits its turn
    await tick();
    expect(b.stats()).toMatchObject({ depth: 3, waiting_writes: 2 });
    await b.track(event(1), async () => undefined);
    await b.track(event(2), async () => undefined);
    await big; // 1 + 3 fit
    await tick();
    expect(woke).toEqual(['big']);
    expect(b.stats()).toMatchObject({ depth: 4, waiting_writes: 1 });
    await b.track(event(3), async () => undefined);
    await small;
    expect(woke).toEqual(['big', 'small']);
    expect(b.stats()).toMatchObject({ depth: 4, waiting_writes: 0, processed: 3 });
  });

  it('refuses with 503 and Retry-After when no room comes in time', async () => {
    const b = new DetectionBacklog(2);
    await b.reserve(2, Date.now());
    const err = await b.reserve(1, Date.now() + 30).catch((e) => e);
    expect(err.status).toBe(503);
    expect(Number(err.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(b.stats()).toMatchObject({ depth: 2, waiting_writes: 0 });
  });

  it('lets an oversize write through on an empty queue, and gives back unused room', async () => {
    const b = new DetectionBacklog(2);
    await b.reserve(10, Date.now());
    expect(b.stats().depth).toBe(10);
    b.release(7);
    expect(b.stats().depth).toBe(3);
  });

  it('counts a failed first attempt out of the depth once, and its retry never again', async () => {
    const b = new DetectionBacklog(10);
    await b.reserve(2, Date.now());
    await expect(b.track(event(1), async () => { throw new Error('later'); })).rejects.toThrow();
    expect(b.stats().depth).toBe(1);
    await b.track(event(1), async () => undefined); // the retry
    expect(b.stats()).toMatchObject({ depth: 1, processed: 1 });
  });

  it('reports lag percentiles of finished detections', async () => {
    const b = new DetectionBacklog(10);
    for (let i = 0; i < 20; i++) b.finished(new Date(1_000).toISOString(), true, 1_000 + (i + 1) * 10);
    expect(b.stats()).toMatchObject({ lag_p50_ms: 110, lag_p95_ms: 200 });
  });

  it('shrinks its bound to what detection finishes within the target lag, never below one batch', () => {
    const b = new DetectionBacklog(2_000, true, 2_000);
    expect(b.bound(0)).toBe(2_000); // no rate known yet
    for (let i = 0; i < 200; i++) b.finished(undefined, false, i * 4); // 250 per second
    expect(b.bound(800)).toBe(500);
    const slow = new DetectionBacklog(2_000, true, 2_000);
    for (let i = 0; i < 200; i++) slow.finished(undefined, false, i * 100); // 10 per second
    expect(slow.bound(20_000)).toBe(100);
    expect(new DetectionBacklog(300, true, 2_000).bound(0)).toBe(300);
  });

  it('does not count depth when another process handles the events', async () => {
    const b = new DetectionBacklog(1, false);
    await b.reserve(5, Date.now());
    await b.reserve(5, Date.now());
    expect(b.stats().depth).toBe(0);
  });
});
