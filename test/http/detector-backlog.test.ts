// The contradiction detector's bounded backlog: writes wait for room, are refused with 503 and
// Retry-After when none comes in time (nothing stored), and /status reports depth and lag.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
let open!: () => void;
let held: Promise<void>;
const hold = () => {
  held = new Promise<void>((r) => { open = r; });
};

beforeAll(async () => {
  t = await startTestApp({ LOCI_DETECTOR_MAX_BACKLOG: '3', LOCI_BULK_BUDGET_MS: '3000' });
  const handle = t.services.detector.handle.bind(t.services.detector);
  vi.spyOn(t.services.detector, 'handle').mockImplementation(async (event) => {
    await held;
    return handle(event);
  });
});
afterAll(async () => t?.close());

const write = (content: string) => t.api('POST', '/api/v1/memories', { body: { tenant_id: 'default', agent_id: 'a', content } });
const bulk = (attempt: string, contents: string[]) => t.api('POST', '/api/v1/memories/bulk', {
  headers: { 'x-bulk-attempt-id': attempt }, body: { tenant_id: 'default', agent_id: 'a', items: contents.map((content) => ({ content })) },
});
const detection = async () => (await t.api('GET', '/api/v1/status', { key: null })).body.contradiction_detection;
const count = async () => (await t.api('GET', '/api/v1/memories/stats?tenant_id=default')).body.total;

describe('detector backlog', () => {
  it('reports an empty backlog at rest', async () => {
    expect(await detection()).toMatchObject({ depth: 0, max_depth: 3, waiting_writes: 0 });
  });

  it('refuses a bulk write that finds no room in time with 503 and Retry-After, storing nothing', async () => {
    hold();
    for (let i = 0; i < 3; i++) expect((await write(`held write number ${i} about the quarterly plan`)).status).toBe(201);
    expect((await detection()).depth).toBe(3);
    const before = await count();
    const r = await bulk('bp-1', ['first refused item of the batch', 'second refused item of the batch']);
    expect(r.status).toBe(503);
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await count()).toBe(before);
    expect((await detection()).depth).toBe(3);
  });

  it('lets a waiting write through once detection catches up, and measures the lag', async () => {
    const waiting = write('a write that waits for the detector to catch up');
    await vi.waitFor(async () => expect((await detection()).waiting_writes).toBe(1));
    open();
    expect((await waiting).status).toBe(201);
    await t.services.bus.drain();
    const d = await detection();
    expect(d).toMatchObject({ depth: 0, waiting_writes: 0 });
    expect(d.processed).toBeGreaterThanOrEqual(4);
    expect(d.lag_p50_ms).toBeGreaterThan(0);
    expect(d.lag_p95_ms).toBeGreaterThanOrEqual(d.lag_p50_ms);
    expect(d.peak_depth).toBe(3);
  });

  it('gives back the room of rows a bulk write did not create', async () => {
    const r = await bulk('bp-2', ['a new row for the backlog', 'a new row for the backlog']); // the second duplicates the first
    expect(r.status).toBe(200);
    expect(r.body.results.map((x: { status: string }) => x.status)).toEqual(['created', 'duplicate_content']);
    await t.services.bus.drain();
    expect((await detection()).depth).toBe(0);
  });
});
