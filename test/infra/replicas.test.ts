// Two Loci replicas sharing one Postgres (PGlite served over the wire in its own process), the
// machine's Redis (one key prefix) and NATS (one stream): requests racing each other across the
// replicas behave as one service. Idempotency keys and bulk attempt ids store once; contradiction
// detection handles each write once. (One shared 429 budget: replicas-redis.test.ts.)
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { cleanupNats, cleanupRedis, NATS_URL, natsRedisEnv, REDIS_URL } from '../helpers/infra.js';
import { startPgliteProcess, type PgliteProcess } from '../helpers/pglite-process.js';
import { LOCAL_OPERATOR } from '../../src/core/caller.js';
import { PgDb } from '../../src/store/pg.js';

const T = `rep-${randomBytes(3).toString('hex')}`;

describe.skipIf(!REDIS_URL || !NATS_URL)('two replicas, one Postgres, Redis and NATS', () => {
  let pg: PgliteProcess;
  let a: TestApp;
  let b: TestApp;
  let key: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    pg = await startPgliteProcess(inject('pgliteTemplate'));
    env = natsRedisEnv('REPLICAS');
    a = await startTestApp(env, { db: new PgDb(pg.url, 4), ...(process.env.DEBUG_REPLICAS ? { log: pino({ level: 'error' }) } : {}) });
    b = await startTestApp(env, { db: new PgDb(pg.url, 4), ...(process.env.DEBUG_REPLICAS ? { log: pino({ level: 'error' }) } : {}) });
    key = (await a.services.keys.create(LOCAL_OPERATOR, { tenant_id: T, trust_level: 1, name: 'replicas' })).key;
  }, 300_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await pg?.close();
    if (env) {
      await cleanupNats(env.LOCI_NATS_STREAM);
      await cleanupRedis(env.LOCI_CACHE_PREFIX);
    }
  });

  const rowsWith = async (content: string) =>
    (await a.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM memories WHERE tenant_id = $1 AND content = $2`, [T, content])).rows[0].n;

  it('one Idempotency-Key sent to both replicas at once stores one memory', async () => {
    for (let i = 0; i < 3; i++) {
      const body = { tenant_id: T, agent_id: 'w', content: `Replica race ${i}: the ferry leaves at nine.` };
      const headers = { 'idempotency-key': `race-${i}` };
      const [x, y] = await Promise.all([a.api('POST', '/api/v1/memories', { key, body, headers }), b.api('POST', '/api/v1/memories', { key, body, headers })]);
      const statuses = [x.status, y.status].sort();
      // The loser is either replayed (201, same body) or told the first is still in flight (409).
      expect([[201, 201], [201, 409]]).toContainEqual(statuses);
      if (statuses[1] === 201) expect(x.body.id).toBe(y.body.id);
      expect(await rowsWith(body.content)).toBe(1);
      // A later retry on either replica replays the stored answer.
      const again = await b.api('POST', '/api/v1/memories', { key, body, headers });
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body.id).toBe((x.status === 201 ? x : y).body.id);
    }
  }, 240_000);

  it('one bulk attempt id sent to both replicas at once stores each item once', async () => {
    const items = Array.from({ length: 10 }, (_, i) => ({ content: `Bulk replica item ${i}: the depot opens at six.` }));
    const send = (app: TestApp) => app.api('POST', '/api/v1/memories/bulk', {
      key, headers: { 'x-bulk-attempt-id': 'replica-race' }, body: { tenant_id: T, agent_id: 'w', items },
    });
    const [x, y] = await Promise.all([send(a), send(b)]);
    for (const r of [x, y]) {
      expect([200, 409]).toContain(r.status);
      if (r.status === 200) for (const it of r.body.results) expect(['created', 'duplicate_attempt'], JSON.stringify(it)).toContain(it.status);
    }
    const retry = await send(b);
    expect(retry.status).toBe(200);
    expect(retry.body.results.map((r: any) => r.status)).toEqual(Array(10).fill('duplicate_attempt'));
    for (const r of [x, y]) if (r.status === 200) expect(r.body.results.map((i: any) => i.id)).toEqual(retry.body.results.map((i: any) => i.id));
    for (const { content } of items) expect(await rowsWith(content)).toBe(1);
  }, 240_000);

  it('a contradiction written across the replicas is detected once', async () => {
    const old = await a.api('POST', '/api/v1/memories', { key, body: { tenant_id: T, agent_id: 'w', content: 'Ilse lives in Bremen.' } });
    expect(old.status).toBe(201);
    await Promise.all([a.services.bus.drain(30_000), b.services.bus.drain(30_000)]);
    const upd = await b.api('POST', '/api/v1/memories', { key, body: { tenant_id: T, agent_id: 'w', content: 'Ilse moved to Kassel.' } });
    expect(upd.status).toBe(201);
    await Promise.all([a.services.bus.drain(30_000), b.services.bus.drain(30_000)]);
    const got = await a.api('GET', `/api/v1/memories/${old.body.id}?tenant_id=${T}`, { key });
    expect(got.body.status).toBe('outdated');
    const { rows } = await a.services.db.query<{ id: string }>(`SELECT id FROM memories WHERE supersedes_id = $1`, [old.body.id]);
    expect(rows.map((r) => r.id)).toEqual([upd.body.id]);
    const listed = await b.api('GET', `/api/v1/memories/${upd.body.id}/contradictions?tenant_id=${T}`, { key });
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.body).split(old.body.id).length - 1).toBeGreaterThanOrEqual(1);
  }, 240_000);
});
