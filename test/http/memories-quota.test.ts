// Write quota and provider failures on the write path.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ LOCI_QUOTA_PER_TENANT: '3' });
});
afterAll(async () => t?.close());

const write = (tenant: string, content: string) =>
  t.api('POST', '/api/v1/memories', { body: { tenant_id: tenant, agent_id: 'a1', content } });

describe('write quota', () => {
  it('reports usage and answers 429 once the tenant holds its quota; deleting frees room', async () => {
    const r1 = await write('q1', 'first');
    expect(r1.body.usage).toEqual({ memories_stored: 1, memories_limit: 3, writes_remaining: 2 });
    await write('q1', 'second');
    const r3 = await write('q1', 'third');
    expect(r3.body.usage).toEqual({ memories_stored: 3, memories_limit: 3, writes_remaining: 0 });
    const over = await write('q1', 'fourth');
    expect(over.status).toBe(429);
    expect(over.headers.get('content-type')).toMatch(/problem\+json/);
    expect(over.body).toMatchObject({ status: 429, memories_stored: 3, memories_limit: 3, writes_remaining: 0 });
    expect(over.body.detail).toMatch(/quota/);
    // Another tenant has its own quota.
    expect((await write('q2', 'fourth')).status).toBe(201);
    expect((await t.api('DELETE', `/api/v1/memories/${r1.body.id}?tenant_id=q1`)).status).toBe(204);
    const again = await write('q1', 'fourth');
    expect(again.status).toBe(201);
    expect(again.body.usage.writes_remaining).toBe(0);
    const { rows } = await t.services.db.query(`SELECT count(*)::int AS n FROM memories WHERE tenant_id = 'q1'`);
    expect(rows[0].n).toBe(4);
  });
  it('a bulk batch that does not fit is refused whole, also when it is stored in several transactions', async () => {
    // Four 8,000-character items: the embedded database stores them one per transaction, and the
    // first three alone would fit the quota of 3.
    const items = [1, 2, 3, 4].map((k) => ({ content: `Quarterly report ${k}. ${'The figures of the region were reviewed again. '.repeat(170)}` }));
    const r = await t.api('POST', '/api/v1/memories/bulk', {
      body: { tenant_id: 'qb', agent_id: 'a1', items }, headers: { 'x-bulk-attempt-id': 'quota-whole' },
    });
    expect(r.status).toBe(429);
    expect(r.body).toMatchObject({ memories_stored: 0, memories_limit: 3 });
    const { rows } = await t.services.db.query(`SELECT count(*)::int AS n FROM memories WHERE tenant_id = 'qb'`);
    expect(rows[0].n).toBe(0);
  });
});

describe('usage counter', () => {
  it('follows bulk writes, soft deletes by id and by filter, and direct row deletes', async () => {
    const live = async () => (await t.services.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM memories WHERE tenant_id = 'u1' AND deleted_at IS NULL`)).rows[0].n;
    const counter = async () => (await t.services.db.query<{ n: number }>(
      `SELECT live_memories::int AS n FROM tenant_usage WHERE tenant_id = 'u1'`)).rows[0]?.n ?? 0;
    const bulk = await t.api('POST', '/api/v1/memories/bulk', {
      body: { tenant_id: 'u1', agent_id: 'a1', items: [{ content: 'one' }, { content: 'two' }, { content: 'three', agent_id: 'a2' }] },
      headers: { 'x-bulk-attempt-id': 'usage-1' },
    });
    expect(bulk.body.usage.memories_stored).toBe(3);
    expect(await counter()).toBe(3);
    const ids = bulk.body.results.map((r: { id: string }) => r.id);
    expect((await t.api('POST', '/api/v1/memories/bulk-delete', { body: { tenant_id: 'u1', ids: [ids[0]] } })).status).toBe(200);
    // Deleting a deleted row again changes nothing.
    await t.api('POST', '/api/v1/memories/bulk-delete', { body: { tenant_id: 'u1', ids: [ids[0]] } });
    expect(await counter()).toBe(2);
    expect((await t.api('DELETE', '/api/v1/memories?tenant_id=u1&agent_id=a2')).status).toBe(204);
    expect(await counter()).toBe(1);
    await t.services.db.query(`DELETE FROM memories WHERE tenant_id = 'u1' AND id = $1`, [ids[0]]); // already soft-deleted
    expect(await counter()).toBe(1);
    await t.services.db.query(`DELETE FROM memories WHERE tenant_id = 'u1' AND id = $1`, [ids[1]]);
    expect(await counter()).toBe(0);
    expect(await live()).toBe(0);
    const next = await write('u1', 'four');
    expect(next.body.usage.memories_stored).toBe(1);
  });
});

describe('provider failures', () => {
  it('an embedder failure refuses the write with 503 and stores nothing', async () => {
    const spy = vi.spyOn(t.services.embedder, 'embed').mockRejectedValueOnce(new Error('model crashed'));
    try {
      const r = await write('f1', 'will not be stored');
      expect(r.status).toBe(503);
      expect(r.text).not.toContain('model crashed');
    } finally {
      spy.mockRestore();
    }
    const { rows } = await t.services.db.query(`SELECT count(*)::int AS n FROM memories WHERE tenant_id = 'f1'`);
    expect(rows[0].n).toBe(0);
  });

  it('an extractor failure only loses the entity links', async () => {
    const spy = vi.spyOn(t.services.entities, 'extract').mockRejectedValueOnce(new Error('nlp down'));
    try {
      const r = await write('f1', 'Ada Lovelace lived in London.');
      expect(r.status).toBe(201);
      expect(r.body.entity_links).toEqual([]);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('write quota of bulk writes', () => {
  const bulk = (attempt: string, contents: string[]) => t.api('POST', '/api/v1/memories/bulk', {
    body: { tenant_id: 'qb', agent_id: 'a1', items: contents.map((content) => ({ content })) },
    headers: { 'x-bulk-attempt-id': attempt },
  });
  const stored = async () => (await t.services.db.query(`SELECT count(*)::int AS n FROM memories WHERE tenant_id = 'qb'`)).rows[0].n;

  it('reports usage; a batch that would pass the quota is refused whole with 429; retries of stored rows still answer', async () => {
    const first = await bulk('q-1', ['one', 'two']);
    expect(first.status).toBe(200);
    expect(first.body.usage).toEqual({ memories_stored: 2, memories_limit: 3, writes_remaining: 1 });
    const over = await bulk('q-2', ['three', 'four']);
    expect(over.status).toBe(429);
    expect(over.headers.get('content-type')).toMatch(/problem\+json/);
    expect(over.body).toMatchObject({ status: 429, memories_stored: 2, memories_limit: 3, writes_remaining: 1 });
    expect(over.body.detail).toMatch(/quota/);
    expect(await stored()).toBe(2);
    // Duplicates take no room: with one slot left, a batch of one new row and one duplicate fits.
    const fits = await bulk('q-3', ['two', 'three']);
    expect(fits.status).toBe(200);
    expect(fits.body.results.map((r: any) => r.status)).toEqual(['duplicate_content', 'created']);
    expect(fits.body.usage).toEqual({ memories_stored: 3, memories_limit: 3, writes_remaining: 0 });
    // At the quota, a retry of a stored attempt is still answered.
    const retry = await bulk('q-1', ['one', 'two']);
    expect(retry.status).toBe(200);
    expect(retry.body.results.map((r: any) => r.status)).toEqual(['duplicate_attempt', 'duplicate_attempt']);
    expect((await bulk('q-4', ['five'])).status).toBe(429);
    expect(await stored()).toBe(3);
  });
});
