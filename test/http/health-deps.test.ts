// /health against the real Redis and NATS servers, reached through a TCP proxy whose link the
// test cuts and restores: a stopped dependency answers 503, and the service recovers — health,
// writes and contradiction detection — when it returns. A pull loop halted on a permanent
// JetStream error is a 503 too.
import { afterEach, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { connect } from 'nats';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { cleanupNats, cleanupRedis, NATS_URL, REDIS_URL, until } from '../helpers/infra.js';
import { startTcpProxy, type TcpProxy } from '../infra/tcp-proxy.js';
import { HAS_NATS_SERVER, NO_PULL_USER, startPrivateNats } from '../helpers/nats-server.js';

const run = randomBytes(4).toString('hex').toUpperCase();


describe.skipIf(!NATS_URL || !REDIS_URL)('health of the cache and the event bus', () => {
  let t: TestApp | undefined;
  let proxy: TcpProxy | undefined;
  const streams: string[] = [];
  let n = 0;

  afterEach(async () => {
    const cfg = t?.config;
    await t?.close();
    await proxy?.close();
    t = undefined;
    proxy = undefined;
    if (cfg?.natsUrl) await cleanupNats(cfg.natsStream, streams.splice(0));
    if (cfg?.redisUrl) await cleanupRedis(cfg.cachePrefix);
  });

  const health = async () => t!.api('GET', '/api/v1/health', { key: null });
  const env = (extra: Record<string, string>) => ({
    LOCI_NATS_STREAM: `LOCI_TEST_HEALTH_${run}_${++n}`,
    LOCI_CACHE_PREFIX: `loci-test-health-${run.toLowerCase()}-${n}:`,
    LOCI_BUS_ACK_WAIT_MS: '1000',
    LOCI_BUS_RETRY_BASE_MS: '50',
    ...extra,
  });

  /** Writes a contradicting pair and waits for the detector: proof the service works end to end. */
  async function detectsAgain(tenantId: string) {
    const o = await t!.api('POST', '/api/v1/memories', { body: { tenant_id: tenantId, agent_id: 'a', content: 'Olga lives in Riga.' } });
    const w = await t!.api('POST', '/api/v1/memories', { body: { tenant_id: tenantId, agent_id: 'a', content: 'Olga moved to Tartu.' } });
    expect([o.status, w.status]).toEqual([201, 201]);
    await t!.services.bus.drain(20_000);
    expect((await t!.api('GET', `/api/v1/memories/${o.body.id}?tenant_id=${tenantId}`)).body.status).toBe('outdated');
    return { o: o.body, w: w.body };
  }

  it('a stopped Redis gives 503 and the service recovers when it returns', async () => {
    const u = new URL(REDIS_URL!);
    proxy = await startTcpProxy(u.hostname, Number(u.port || 6379));
    t = await startTestApp(env({ LOCI_NATS_URL: NATS_URL!, LOCI_REDIS_URL: `redis://127.0.0.1:${proxy.port}` }));
    expect((await health()).status).toBe(200);

    await proxy.cut();
    expect(await until(async () => (await health()).status === 503, 5_000)).toBe(true);
    const down = await health();
    expect(down.body.status).toBe('unhealthy');
    expect(down.body.dependencies.cache).toMatchObject({ status: 'unavailable', required: true, kind: 'redis' });
    expect(down.body.dependencies.storage.status).toBe('ok');
    expect(down.body.dependencies.event_bus.status).toBe('ok');

    await proxy.restore();
    expect(await until(async () => (await health()).status === 200, 10_000)).toBe(true);
    expect((await health()).body.dependencies.cache.status).toBe('ok');
    await detectsAgain(`health-redis-${run}`);
  });

  it('a stopped NATS gives 503; a write made during the outage is still detected once it returns', async () => {
    const u = new URL(NATS_URL!);
    proxy = await startTcpProxy(u.hostname, Number(u.port || 4222));
    t = await startTestApp(env({ LOCI_NATS_URL: `nats://127.0.0.1:${proxy.port}`, LOCI_REDIS_URL: REDIS_URL! }));
    expect((await health()).status).toBe(200);
    const tenantId = `health-nats-${run}`;
    const o = await t.api('POST', '/api/v1/memories', { body: { tenant_id: tenantId, agent_id: 'a', content: 'Pavel works at Umbrella.' } });
    await t.services.bus.drain(20_000);

    await proxy.cut();
    expect(await until(async () => (await health()).status === 503, 5_000)).toBe(true);
    const down = await health();
    expect(down.body.dependencies.event_bus).toMatchObject({ status: 'unhealthy', kind: 'nats', detail: 'disconnected' });
    expect(down.body.dependencies.cache.status).toBe('ok');
    // The write itself does not wait for the bus.
    const w = await t.api('POST', '/api/v1/memories', { body: { tenant_id: tenantId, agent_id: 'a', content: 'Pavel joined Initech.' } });
    expect(w.status).toBe(201);

    await proxy.restore();
    expect(await until(async () => (await health()).status === 200, 10_000)).toBe(true);
    expect(await until(async () => (await t!.api('GET', `/api/v1/memories/${o.body.id}?tenant_id=${tenantId}`)).body.status === 'outdated', 20_000)).toBe(true);
    expect((await t.api('GET', `/api/v1/memories/${w.body.id}?tenant_id=${tenantId}`)).body.supersedes_id).toBe(o.body.id);
    await detectsAgain(`health-nats-after-${run}`);
  });

  it('a pull loop halted on a permanent JetStream error makes the bus unhealthy: 503', async () => {
    t = await startTestApp(env({ LOCI_NATS_URL: NATS_URL!, LOCI_REDIS_URL: REDIS_URL! }));
    expect((await health()).status).toBe(200);
    const stream = t.config.natsStream;
    const blocker = `${stream}_BLOCKER`;
    streams.push(blocker);
    // Another stream takes our subjects, so the consumer's stream cannot be created again.
    const nc = await connect({ servers: NATS_URL! });
    try {
      const jsm = await nc.jetstreamManager();
      for (let attempt = 0; ; attempt++) {
        await jsm.streams.delete(stream).catch(() => undefined);
        const added = await jsm.streams.add({ name: blocker, subjects: [`${stream.toLowerCase()}.events.>`] }).then(() => true, (err) => {
          if (attempt >= 5) throw err;
          return false; // the loop recreated the stream first: try again
        });
        if (added) break;
      }
    } finally {
      await nc.close();
    }
    expect(await until(async () => (await health()).status === 503, 15_000)).toBe(true);
    expect((await health()).body.dependencies.event_bus).toMatchObject({ status: 'unhealthy', detail: 'pull_loop_halted' });
  });

  it.skipIf(!HAS_NATS_SERVER)('a pull loop halted on a permissions violation is a 503', async () => {
    const server = await startPrivateNats(NO_PULL_USER);
    try {
      t = await startTestApp(env({ LOCI_NATS_URL: server.url, LOCI_REDIS_URL: REDIS_URL! }));
      expect(await until(async () => (await health()).status === 503, 15_000)).toBe(true);
      expect((await health()).body.dependencies.event_bus).toMatchObject({ status: 'unhealthy', kind: 'nats', detail: 'pull_loop_halted' });
      // Writes still work: the bus is unhealthy, not the service.
      const w = await t.api('POST', '/api/v1/memories', { body: { tenant_id: `health-perm-${run}`, agent_id: 'a', content: 'Quinn lives in Gent.' } });
      expect(w.status).toBe(201);
    } finally {
      const cfg = t?.config;
      await t?.close();
      t = undefined;
      await server.stop();
      if (cfg?.redisUrl) await cleanupRedis(cfg.cachePrefix);
    }
  });
});
