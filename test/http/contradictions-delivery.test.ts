// Delivery of memory.written to the contradiction detector over both buses: an event survives a
// consumer that fails or crashes mid-detection and is handled on redelivery; an event no attempt
// can handle lands in the dead-letter store while the rest keep flowing.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import pino from 'pino';
import type { FastifyInstance } from 'fastify';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { cleanupNats, cleanupRedis, NATS_URL, natsRedisEnv, REDIS_URL, until } from '../helpers/infra.js';
import { loadConfig } from '../../src/config.js';
import { createServices, type Services } from '../../src/services.js';
import { buildApp } from '../../src/app.js';
import { LOCAL_OPERATOR } from '../../src/core/caller.js';
import { PgliteDb } from '../../src/store/pglite.js';
import type { Db } from '../../src/store/db.js';
import type { BusEvent } from '../../src/infra/bus/types.js';
import type { InProcessBus } from '../../src/infra/bus/in-process.js';
import type { NatsBus } from '../../src/infra/bus/nats.js';

const run = randomBytes(4).toString('hex');


const event = (tenantId: string, data: unknown): BusEvent => ({
  id: randomUUID(), type: 'memory.written', version: 1, tenant_id: tenantId, occurred_at: new Date().toISOString(), data,
});

async function call(url: string, key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(url + path, {
    method, body: body === undefined ? undefined : JSON.stringify(body),
    headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as any };
}

const variants: Array<{ name: string; env: () => Record<string, string> }> = [{ name: 'in-process', env: () => ({}) }];
if (NATS_URL && REDIS_URL) variants.push({ name: 'NATS', env: () => natsRedisEnv(`DELIV_${run}`) });

describe.each(variants)('detector delivery over the $name bus', ({ name, env }) => {
  let t: TestApp;
  afterEach(async () => {
    const cfg = t?.config;
    await t?.close();
    if (cfg?.natsUrl) await cleanupNats(cfg.natsStream);
    if (cfg?.redisUrl) await cleanupRedis(cfg.cachePrefix);
  });

  it('a detection that fails mid-way is retried and completes', async () => {
    t = await startTestApp(env());
    const detector = t.services.detector;
    const real = detector.detect.bind(detector);
    let calls = 0;
    detector.detect = async (tenantId, memoryId) => {
      calls++;
      if (calls === 2) throw new Error('storage went away mid-detection');
      return real(tenantId, memoryId);
    };
    const tenantId = `deliv-${run}-1`;
    const o = await t.api('POST', '/api/v1/memories', { body: { tenant_id: tenantId, agent_id: 'a', content: 'Alice lives in Berlin.' } });
    await t.services.bus.drain(20_000);
    const n = await t.api('POST', '/api/v1/memories', { body: { tenant_id: tenantId, agent_id: 'a', content: 'Alice moved to Munich.' } });
    await t.services.bus.drain(20_000);
    expect(calls).toBe(3);
    expect((await t.api('GET', `/api/v1/memories/${o.body.id}?tenant_id=${tenantId}`)).body.status).toBe('outdated');
    expect((await t.api('GET', `/api/v1/memories/${n.body.id}?tenant_id=${tenantId}`)).body.supersedes_id).toBe(o.body.id);
  });

  it('a poisoned event lands in the dead-letter store and later events still flow', async () => {
    t = await startTestApp(env());
    const tenantId = `deliv-${run}-2`;
    const poison = event(tenantId, { memory_id: 'not-a-uuid' });
    await t.services.bus.publish(poison);
    const o = await t.api('POST', '/api/v1/memories', { body: { tenant_id: tenantId, agent_id: 'a', content: 'Bob reports to Carol.' } });
    const n = await t.api('POST', '/api/v1/memories', { body: { tenant_id: tenantId, agent_id: 'a', content: 'Bob reports to Dan.' } });
    await t.services.bus.drain(30_000);
    expect((await t.api('GET', `/api/v1/memories/${o.body.id}?tenant_id=${tenantId}`)).body.status).toBe('outdated');
    expect((await t.api('GET', `/api/v1/memories/${n.body.id}?tenant_id=${tenantId}`)).body.supersedes_id).toBe(o.body.id);
    if (name === 'in-process') {
      const dead = (t.services.bus as InProcessBus).deadLetters();
      expect(dead).toHaveLength(1);
      expect(dead[0].event.id).toBe(poison.id);
      expect(dead[0].attempts).toBe(5);
      expect(dead[0].error).toMatch(/memory_id/);
    } else {
      const dead = await (t.services.bus as NatsBus).deadLetters();
      expect(dead).toHaveLength(1);
      expect(dead[0]).toMatchObject({ reason: 'handler_failed', attempts: 3, type: 'memory.written' });
      expect((dead[0].event as BusEvent).id).toBe(poison.id);
      expect(String(dead[0].error)).toMatch(/memory_id/);
    }
  });
});

describe.skipIf(!NATS_URL || !REDIS_URL)('detector delivery over NATS: a crashed consumer', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
  });

  /** A replica of the service on a shared database: closing it leaves the database open. */
  async function replica(db: Db, env: Record<string, string>): Promise<{ s: Services; app: FastifyInstance; url: string }> {
    const dataDir = mkdtempSync(join(tmpdir(), 'loci-replica-'));
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    const config = loadConfig({ LOCI_DATA_DIR: dataDir, LOCI_LOG_LEVEL: 'silent', LOCI_EMBED_WORKERS: '1', ...env });
    const shared: Db = { kind: db.kind, singleSession: db.singleSession, query: (q, p) => db.query(q, p), tx: (fn) => db.tx(fn), queryWithSettings: (s, q, p) => db.queryWithSettings(s, q, p), ping: () => db.ping(), close: async () => {} };
    const s = await createServices(config, { db: shared, log: pino({ level: 'silent' }) });
    const app = await buildApp(s);
    await app.listen({ host: '127.0.0.1', port: 0 });
    const addr = app.server.address();
    return { s, app, url: `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}` };
  }

  it('an event whose consumer died before acking is redelivered to the next replica', async () => {
    const db = new PgliteDb(undefined, readFileSync(inject('pgliteTemplate')));
    cleanups.push(() => db.close());
    const env = natsRedisEnv(`CRASH_${run}`);
    cleanups.push(() => cleanupNats(env.LOCI_NATS_STREAM));
    cleanups.push(() => cleanupRedis(env.LOCI_CACHE_PREFIX));

    const first = await replica(db, env);
    const { key } = await first.s.keys.create(LOCAL_OPERATOR, { tenant_id: 'default', trust_level: 3, name: 'crash-test' });
    // The first replica's detector starts and never finishes: the process "dies" mid-detection.
    let started = 0;
    first.s.detector.detect = () => {
      started++;
      return new Promise(() => undefined);
    };
    const tenantId = `crash-${run}`;
    const o = await call(first.url, key, 'POST', '/api/v1/memories', { tenant_id: tenantId, agent_id: 'a', content: 'Erin works at Initech.' });
    const n = await call(first.url, key, 'POST', '/api/v1/memories', { tenant_id: tenantId, agent_id: 'a', content: 'Erin joined Globex.' });
    expect([o.status, n.status]).toEqual([201, 201]);
    expect(await until(() => started === 2, 10_000)).toBe(true);
    await first.app.close();
    await first.s.close(); // abandons the running handlers unacked
    expect((await db.query(`SELECT status FROM memories WHERE tenant_id = $1 AND id = $2`, [tenantId, o.body.id])).rows[0].status).toBe('active');

    const second = await replica(db, env);
    cleanups.push(async () => {
      await second.app.close();
      await second.s.close();
    });
    await until(async () => (await call(second.url, key, 'GET', `/api/v1/memories/${o.body.id}?tenant_id=${tenantId}`)).body.status === 'outdated', 20_000);
    await second.s.bus.drain(20_000);
    const older = await call(second.url, key, 'GET', `/api/v1/memories/${o.body.id}?tenant_id=${tenantId}`);
    const newer = await call(second.url, key, 'GET', `/api/v1/memories/${n.body.id}?tenant_id=${tenantId}`);
    expect(older.body.status).toBe('outdated');
    expect(newer.body.supersedes_id).toBe(o.body.id);
    const f = await call(second.url, key, 'GET', `/api/v1/memories/${o.body.id}/contradictions?tenant_id=${tenantId}`);
    expect(f.body.contradictions).toMatchObject([{ id: n.body.id, direction: 'superseded_by', reason: 'rdf_conflict' }]);
  });
});
