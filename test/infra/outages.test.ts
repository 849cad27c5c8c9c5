// Outages under load: Postgres (PGlite served in its own process, stopped and started again),
// Redis and NATS (the machine's servers, reached through a link the test cuts and restores).
// Two writers keep writing with Idempotency-Keys throughout. While a dependency is down every
// answer is a success or a 503 with Retry-After, never a 500 or a hang; /health is 503 with
// Retry-After; the service recovers without a restart; a client retrying its 503s with the same
// keys ends with every write stored exactly once.
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { cleanupNats, cleanupRedis, NATS_URL, REDIS_URL, until } from '../helpers/infra.js';
import { startPgliteProcess, type PgliteProcess } from '../helpers/pglite-process.js';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.js';
import { PgDb } from '../../src/store/pg.js';

const run = randomBytes(4).toString('hex');
// "Never a hang": generous, since a write takes seconds on a loaded 2-core machine.
const REQUEST_TIMEOUT_MS = 60_000;

interface Attempt { content: string; statuses: number[] }

/** Writers that keep writing until stopped; every answer must be 201 or a 503 with Retry-After. */
function writers(t: TestApp, tenant: string, n = 2) {
  const attempts: Attempt[] = [];
  const bad: string[] = [];
  let stopped = false;
  let i = 0;
  const write = async (a: Attempt, retryable = [503]) => {
    try {
      const res = await fetch(`${t.url}/api/v1/memories`, {
        method: 'POST', signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        headers: { 'content-type': 'application/json', 'x-api-key': t.adminKey, 'idempotency-key': a.content },
        body: JSON.stringify({ tenant_id: tenant, agent_id: 'w', content: a.content }),
      });
      const text = await res.text();
      a.statuses.push(res.status);
      if (retryable.includes(res.status) && !res.headers.get('retry-after')) bad.push(`${res.status} without Retry-After: ${text}`);
      if (res.status !== 201 && !retryable.includes(res.status)) bad.push(`${res.status}: ${text.slice(0, 300)}`);
    } catch (err) {
      bad.push(`no answer: ${String(err)}`);
    }
  };
  const loop = async () => {
    while (!stopped) {
      const a = { content: `Outage write ${tenant} ${i++}: the relay station logs a reading.`, statuses: [] };
      attempts.push(a);
      await write(a);
      if (a.statuses.at(-1) === 503) await new Promise((r) => setTimeout(r, 50));
    }
  };
  const loops = Array.from({ length: n }, loop);
  const count = (status: number) => attempts.filter((a) => a.statuses.at(-1) === status).length;
  return {
    attempts, bad, count,
    async stop() {
      stopped = true;
      await Promise.all(loops);
    },
    /**
     * Retries every write whose last answer was not a success, with its own key, as a client
     * honouring Retry-After would: "still being processed" (409) and 503 are retried a few times.
     */
    async retryFailed() {
      for (const a of attempts) {
        for (let i = 0; i < 8 && a.statuses.at(-1) !== 201; i++) {
          if (i) await new Promise((r) => setTimeout(r, 1_000));
          await write(a, i < 7 ? [409, 503] : []);
        }
      }
    },
  };
}

async function expectExactlyOnce(t: TestApp, tenant: string, attempts: Attempt[]) {
  const { rows } = await t.services.db.query<{ content: string; n: number }>(
    `SELECT content, count(*)::int AS n FROM memories WHERE tenant_id = $1 AND deleted_at IS NULL GROUP BY content`, [tenant]);
  const stored = new Map(rows.map((r) => [r.content, r.n]));
  expect(rows.filter((r) => r.n !== 1)).toEqual([]);
  expect(attempts.filter((a) => stored.get(a.content) !== 1).map((a) => [a.content, a.statuses])).toEqual([]);
  expect(stored.size).toBe(attempts.length);
}

const health = async (t: TestApp) => t.api('GET', '/api/v1/health', { key: null });

/** Once the dependency is back: healthy again, writes succeed, and every attempt is stored exactly once. */
async function expectRecovery(t: TestApp, tenant: string, w: ReturnType<typeof writers>) {
  expect(await until(async () => (await health(t)).status === 200, 30_000)).toBe(true);
  const ok = w.count(201);
  expect(await until(() => w.count(201) >= ok + 3, 90_000)).toBe(true);
  await w.stop();
  expect(w.bad).toEqual([]);
  await w.retryFailed();
  expect(w.bad).toEqual([]);
  await expectExactlyOnce(t, tenant, w.attempts);
}

describe('outages under load', () => {
  let t: TestApp | undefined;
  let pg: PgliteProcess | undefined;
  let proxy: TcpProxy | undefined;

  afterEach(async () => {
    const cfg = t?.config;
    await t?.close();
    await pg?.close();
    await proxy?.close();
    t = undefined;
    pg = undefined;
    proxy = undefined;
    if (cfg?.natsUrl) await cleanupNats(cfg.natsStream);
    if (cfg?.redisUrl) await cleanupRedis(cfg.cachePrefix);
  });

  it('Postgres stopped and started again: 503 with Retry-After while down, every write exactly once after', async () => {
    pg = await startPgliteProcess(inject('pgliteTemplate'));
    t = await startTestApp({}, { db: new PgDb(pg.url, 4) });
    const tenant = `out-pg-${run}`;
    const w = writers(t, tenant);
    expect(await until(() => w.count(201) >= 3, 90_000)).toBe(true);

    await pg.stop();
    const down = await health(t);
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBe('2');
    expect(down.body.dependencies.storage.status).toBe('unavailable');
    const read = await t.api('GET', `/api/v1/memories?tenant_id=${tenant}`);
    expect(read.status).toBe(503);
    expect(read.headers.get('content-type')).toContain('application/problem+json');
    expect(read.headers.get('retry-after')).toBe('2');
    const before = w.attempts.length;
    expect(await until(() => w.attempts.length >= before + 5 && w.count(503) >= 3, 30_000)).toBe(true);

    await pg.start();
    await expectRecovery(t, tenant, w);
  }, 480_000);

  it.skipIf(!REDIS_URL)('Redis cut and restored: keyed writes 503 with Retry-After while down, every write exactly once after', async () => {
    const u = new URL(REDIS_URL!);
    proxy = await startTcpProxy(u.hostname, Number(u.port || 6379));
    t = await startTestApp({ LOCI_REDIS_URL: `redis://127.0.0.1:${proxy.port}`, LOCI_CACHE_PREFIX: `loci-test-out-${run}:` });
    const tenant = `out-redis-${run}`;
    const w = writers(t, tenant);
    expect(await until(() => w.count(201) >= 3, 90_000)).toBe(true);

    await proxy.cut();
    expect(await until(() => w.count(503) >= 3, 30_000)).toBe(true);
    const down = await health(t);
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBe('2');
    // Without an idempotency key nothing needs the cache: writes and reads go on.
    const plain = await t.api('POST', '/api/v1/memories', { body: { tenant_id: `${tenant}-plain`, agent_id: 'w', content: 'Written while the cache is away.' } });
    expect(plain.status).toBe(201);

    await proxy.restore();
    await expectRecovery(t, tenant, w);
  }, 240_000);

  it.skipIf(!NATS_URL)('NATS cut and restored: writes go on, /health is 503 with Retry-After, every write is processed once after', async () => {
    const u = new URL(NATS_URL!);
    proxy = await startTcpProxy(u.hostname, Number(u.port || 4222));
    t = await startTestApp({
      LOCI_NATS_URL: `nats://127.0.0.1:${proxy.port}`, LOCI_NATS_STREAM: `LOCI_TEST_OUT_${run.toUpperCase()}`,
      LOCI_BUS_ACK_WAIT_MS: '1000', LOCI_BUS_RETRY_BASE_MS: '50',
    });
    const tenant = `out-nats-${run}`;
    const w = writers(t, tenant);
    expect(await until(() => w.count(201) >= 3, 90_000)).toBe(true);

    await proxy.cut();
    expect(await until(async () => (await health(t!)).status === 503, 10_000)).toBe(true);
    expect((await health(t)).headers.get('retry-after')).toBe('2');
    const during = w.count(201);
    expect(await until(() => w.count(201) >= during + 5, 60_000)).toBe(true);

    await proxy.restore();
    expect(await until(async () => (await health(t!)).status === 200, 30_000)).toBe(true);
    await w.stop();
    expect(w.bad).toEqual([]);
    await w.retryFailed();
    await expectExactlyOnce(t, tenant, w.attempts);
    // Events of writes made during the outage are delivered once it returns: the bus drains.
    await t.services.bus.drain(30_000);
  }, 240_000);
});
