// Idempotency records and rate-limit counters live in Redis, so replicas agree. Two cache
// clients, then two app instances sharing one Redis prefix and one API key, stand in for replicas.
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Redis } from 'ioredis';
import { RedisCache } from '../../src/infra/cache/redis.js';
import { Idempotency } from '../../src/core/idempotency.js';
import { takeToken } from '../../src/infra/rate-limit.js';
import { hashKey } from '../../src/core/keys.js';
import { LOCAL_OPERATOR } from '../../src/core/caller.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { cleanupRedis } from '../helpers/infra.js';

const REDIS_URL = process.env.LOCI_TEST_REDIS_URL;

describe.skipIf(!REDIS_URL)('replicas sharing Redis', () => {
  const prefix = `loci-test-${randomBytes(6).toString('hex')}:`;
  let admin: Redis;
  let a: RedisCache;
  let b: RedisCache;
  let appA: TestApp;
  let appB: TestApp;
  let key: string;

  beforeAll(async () => {
    admin = new Redis(REDIS_URL!);
    a = new RedisCache({ url: REDIS_URL!, keyPrefix: prefix });
    b = new RedisCache({ url: REDIS_URL!, keyPrefix: prefix });
    const env = { LOCI_REDIS_URL: REDIS_URL!, LOCI_CACHE_PREFIX: `${prefix}app:`, LOCI_RATE_BULK: '2' };
    [appA, appB] = await Promise.all([startTestApp(env), startTestApp(env)]);
    // Replicas share one database; here each has its own, so the key is minted in both with one id.
    const rec = await appA.services.keys.create(LOCAL_OPERATOR, { tenant_id: 'rr', trust_level: 1, name: 'replica-key' });
    key = rec.key;
    await appB.services.db.query(
      `INSERT INTO api_keys (id, key_hash, prefix, tenant_id, trust_level, name) VALUES ($1, $2, $3, 'rr', 1, 'replica-key')`,
      [rec.id, hashKey(key), rec.prefix]);
  });
  afterAll(async () => {
    await appA?.close();
    await appB?.close();
    await a?.close();
    await b?.close();
    if (admin) {
      await cleanupRedis(prefix);
      await admin.quit();
    }
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('an idempotency record claimed through one client is seen by the other', async () => {
    const ia = new Idempotency(a);
    const ib = new Idempotency(b);
    expect(await ia.claim('scope', 'k1', 'fp')).toEqual({ kind: 'claimed' });
    expect(await ib.claim('scope', 'k1', 'fp')).toEqual({ kind: 'in_flight' });
    expect(await ib.claim('scope', 'k1', 'other')).toEqual({ kind: 'mismatch' });
    const response = { status: 201, headers: { 'content-type': 'application/json' }, body: '{}' };
    await ia.complete('scope', 'k1', 'fp', response);
    expect(await ib.claim('scope', 'k1', 'fp')).toEqual({ kind: 'replay', response });
    const [stored] = await admin.keys(`${prefix}idem:scope:*`);
    expect(await admin.pttl(stored)).toBeGreaterThan(23 * 3600_000);
  });

  it('rate-limit windows are counted once for both clients', async () => {
    const now = Date.UTC(2030, 5, 1, 0, 0, 0, 100);
    expect((await takeToken(a, 'shared-key', 'bulk', 2, now)).allowed).toBe(true);
    expect((await takeToken(b, 'shared-key', 'bulk', 2, now + 1)).allowed).toBe(true);
    const third = await takeToken(a, 'shared-key', 'bulk', 2, now + 2);
    expect(third).toMatchObject({ allowed: false, remaining: 0, retryAfterS: 1 });
  });

  it('over HTTP: a response stored by one replica is replayed by the other, which writes nothing', async () => {
    const body = { tenant_id: 'rr', agent_id: 'a1', content: 'Stored once across replicas.' };
    const headers = { 'idempotency-key': 'replica-write' };
    const first = await appA.api('POST', '/api/v1/memories', { key, body, headers });
    expect(first.status).toBe(201);
    const second = await appB.api('POST', '/api/v1/memories', { key, body, headers });
    expect(second.status).toBe(201);
    expect(second.text).toBe(first.text);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    const clash = await appB.api('POST', '/api/v1/memories', { key, body: { ...body, content: 'Another body.' }, headers });
    expect(clash.status).toBe(422);
    const { rows } = await appB.services.db.query(`SELECT count(*)::int AS n FROM memories WHERE tenant_id = 'rr'`);
    expect(rows[0].n).toBe(0);

    const bulkBody = { tenant_id: 'rr', agent_id: 'a1', items: [{ content: 'Bulk across replicas.' }] };
    const bulkHeaders = { 'idempotency-key': 'replica-bulk', 'x-bulk-attempt-id': 'replica-attempt' };
    const b1 = await appA.api('POST', '/api/v1/memories/bulk', { key, body: bulkBody, headers: bulkHeaders });
    const b2 = await appB.api('POST', '/api/v1/memories/bulk', { key, body: bulkBody, headers: bulkHeaders });
    expect([b1.status, b2.status]).toEqual([200, 200]);
    expect(b2.text).toBe(b1.text);
  });

  it('over HTTP: one key\'s bulk budget is shared by both replicas (429 with Retry-After)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.UTC(2030, 6, 1, 0, 0, 0, 250));
    const call = (app: TestApp) => app.api('POST', '/api/v1/memories/bulk', { key, raw: '{}', headers: { 'x-bulk-attempt-id': 'rl' } });
    expect((await call(appA)).status).toBe(422);
    expect((await call(appB)).status).toBe(422);
    const third = await call(appA);
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toBe('1');
    expect((await call(appB)).status).toBe(429);
    expect((await admin.keys(`${prefix}app:rl:bulk:*`)).length).toBeGreaterThan(0);
  });
});
