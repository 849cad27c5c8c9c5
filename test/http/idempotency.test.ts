// Idempotency-Key on POST /api/v1/memories and POST /api/v1/memories/bulk: replay of the final
// response (status, body, headers), 422 for the same key with another request, 409 while in flight.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, withConfig, type TestApp } from '../helpers/app.js';
import { holdEmbedder } from '../helpers/hold.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

let seq = 0;
const key = () => `idem-${++seq}-${Math.random().toString(36).slice(2)}`;

async function count(tenant: string): Promise<number> {
  const { rows } = await t.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM memories WHERE tenant_id = $1', [tenant]);
  return rows[0].n;
}

const write = (body: unknown, idem: string, opts: { key?: string } = {}) =>
  t.api('POST', '/api/v1/memories', { key: opts.key, body, headers: { 'idempotency-key': idem } });

const bulk = (body: unknown, idem: string | null, attempt: string) =>
  t.api('POST', '/api/v1/memories/bulk', { body, headers: { 'x-bulk-attempt-id': attempt, ...(idem ? { 'idempotency-key': idem } : {}) } });

describe('Idempotency-Key on POST /api/v1/memories', () => {
  it('replays the final response with the same status, body and headers, and stores one row', async () => {
    const k = key();
    const body = { tenant_id: 'i1', agent_id: 'a1', content: 'The deploy freeze starts on Friday.' };
    const first = await write(body, k);
    expect(first.status).toBe(201);
    // Same body with its keys in another order is the same request.
    const again = await write({ content: body.content, agent_id: 'a1', tenant_id: 'i1' }, k);
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(await count('i1')).toBe(1);
  });

  it('the same key with another body is a 422 and changes nothing', async () => {
    const k = key();
    expect((await write({ tenant_id: 'i2', agent_id: 'a1', content: 'First body.' }, k)).status).toBe(201);
    const other = await write({ tenant_id: 'i2', agent_id: 'a1', content: 'Second body.' }, k);
    expect(other.status).toBe(422);
    expect(other.body.detail[0]).toMatchObject({ loc: ['header', 'idempotency-key'], type: 'idempotency_key_reused' });
    expect(await count('i2')).toBe(1);
  });

  it('a concurrent request with a key still in flight is a 409; afterwards the final response is replayed', async () => {
    const k = key();
    const body = { tenant_id: 'i3', agent_id: 'a1', content: 'Held while the embedder thinks.' };
    const hold = holdEmbedder(t);
    const first = write(body, k);
    try {
      await vi.waitFor(() => expect(hold.spy).toHaveBeenCalled(), { timeout: 20_000 });
      const second = await write(body, k);
      expect(second.status).toBe(409);
      expect(second.headers.get('content-type')).toMatch(/problem\+json/);
    } finally {
      hold.release();
    }
    const done = await first;
    expect(done.status).toBe(201);
    const third = await write(body, k);
    expect(third.status).toBe(201);
    expect(third.text).toBe(done.text);
    expect(await count('i3')).toBe(1);
  });

  it('keys belong to their caller: another key with the same Idempotency-Key runs its own request', async () => {
    const k = key();
    const mine = await t.key('i4');
    const theirs = await t.key('i4');
    const a = await write({ tenant_id: 'i4', agent_id: 'a1', content: 'Mine.' }, k, { key: mine });
    const b = await write({ tenant_id: 'i4', agent_id: 'a1', content: 'Theirs.' }, k, { key: theirs });
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.body.id).not.toBe(a.body.id);
  });

  it('an answer that asks for a retry is not kept: after a 503 the same key runs again', async () => {
    const k = key();
    const body = { tenant_id: 'i5', agent_id: 'a1', content: 'Stored on the second try.' };
    const spy = vi.spyOn(t.services.embedder, 'embed').mockRejectedValueOnce(new Error('model crashed'));
    try {
      expect((await write(body, k)).status).toBe(503);
    } finally {
      spy.mockRestore();
    }
    const retry = await write(body, k);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(await count('i5')).toBe(1);
  });
});

describe('Idempotency-Key on POST /api/v1/memories/bulk', () => {
  const body = (tenant: string) => ({
    tenant_id: tenant, agent_id: 'a1',
    items: [{ content: `Bulk ${tenant} one.` }, { content: '' }, { content: `Bulk ${tenant} two.` }],
  });

  it('replays a 207 receipt exactly; the attempt id is part of the request', async () => {
    const k = key();
    const first = await bulk(body('j1'), k, 'att-j1');
    expect(first.status).toBe(207);
    const again = await bulk(body('j1'), k, 'att-j1');
    expect(again.status).toBe(207);
    expect(again.text).toBe(first.text); // bulk_ms included: this is the stored receipt, not a recomputation
    expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const otherAttempt = await bulk(body('j1'), k, 'att-j1-b');
    expect(otherAttempt.status).toBe(422);
    const otherBody = await bulk({ ...body('j1'), fleet_id: 'f' }, k, 'att-j1');
    expect(otherBody.status).toBe(422);
    expect(await count('j1')).toBe(2);
  });

  it('409 while the first bulk request with the key is in flight', async () => {
    const k = key();
    const hold = holdEmbedder(t);
    const first = bulk(body('j2'), k, 'att-j2');
    try {
      await vi.waitFor(() => expect(hold.spy).toHaveBeenCalled(), { timeout: 20_000 });
      expect((await bulk(body('j2'), k, 'att-j2')).status).toBe(409);
    } finally {
      hold.release();
    }
    expect((await first).status).toBe(207);
    expect(await count('j2')).toBe(2);
  });

  it('a 504 is not replayed: the same key retried later stores the batch', async () => {
    const k = key();
    expect((await withConfig(t, { bulkBudgetMs: 1 }, () => bulk(body('j3'), k, 'att-j3'))).status).toBe(504);
    const retry = await bulk(body('j3'), k, 'att-j3');
    expect(retry.status).toBe(207);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(await count('j3')).toBe(2);
  });
});
