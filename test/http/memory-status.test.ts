// PATCH /memories/{id}/status (DEFAULTS "Memories"): every target status, `deleted` as a soft
// delete, both answer spellings, and refusals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';

const T = 'status-t';

describe('memory status transitions', () => {
  let t: TestApp;
  const write = async (content: string) =>
    (await t.api('POST', '/api/v1/memories', { body: { tenant_id: T, agent_id: 'a1', content } })).body;
  const patch = (id: string, status: unknown, key?: string) =>
    t.api('PATCH', `/api/v1/memories/${id}/status?tenant_id=${T}`, { body: { status }, key });

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  it('moves through every settable status and answers with our keys and Caura\'s', async () => {
    const m = await write('The staging database is on port 5433.');
    let previous = 'active';
    for (const status of ['confirmed', 'pending', 'cancelled', 'archived', 'outdated', 'conflicted', 'active']) {
      const r = await patch(m.id, status);
      expect(r.status, status).toBe(200);
      expect(r.body).toEqual({ id: m.id, status, previous_status: previous, memory_id: m.id, old_status: previous, new_status: status });
      expect((await t.api('GET', `/api/v1/memories/${m.id}?tenant_id=${T}`)).body.status).toBe(status);
      previous = status;
    }
  });

  it('soft-deletes on deleted, keeping the row for include_deleted', async () => {
    const m = await write('The build server restarts nightly at 02:00.');
    await patch(m.id, 'confirmed');
    const r = await patch(m.id, 'deleted');
    expect(r.body).toEqual({ id: m.id, status: 'deleted', previous_status: 'confirmed', memory_id: m.id, old_status: 'confirmed', new_status: 'deleted' });
    expect((await t.api('GET', `/api/v1/memories/${m.id}?tenant_id=${T}`)).status).toBe(404);
    const kept = await t.api('GET', `/api/v1/memories/${m.id}?tenant_id=${T}&include_deleted=true`);
    expect(kept.body).toMatchObject({ status: 'confirmed', deleted_at: expect.any(String) });
    expect((await patch(m.id, 'active')).status).toBe(404);
  });

  it('refuses unknown statuses with 422 and changes nothing', async () => {
    const m = await write('Invoices are sent on the first business day.');
    for (const bad of ['expired', 'DELETED', '', 3, null]) {
      const r = await patch(m.id, bad);
      expect(r.status, String(bad)).toBe(422);
      expect(r.body.detail[0].loc).toEqual(['body', 'status']);
    }
    expect((await t.api('GET', `/api/v1/memories/${m.id}?tenant_id=${T}`)).body.status).toBe('active');
    // A read-only key may not change a status.
    const reader = await t.key(T, { trust: 0 });
    expect((await patch(m.id, 'archived', reader)).status).toBe(403);
  });
});
