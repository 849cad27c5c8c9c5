import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import { connect, type NatsConnection, type JetStreamManager } from 'nats';
import type { BusEvent, EventBus } from '../../src/infra/bus/types.js';
import { InProcessBus } from '../../src/infra/bus/in-process.js';
import { NatsBus, type NatsBusOptions } from '../../src/infra/bus/nats.js';
import { createBus } from '../../src/infra/bus/index.js';
import { startTcpProxy } from './tcp-proxy.js';
import { HAS_NATS_SERVER, NO_PULL_USER, startPrivateNats, type PrivateNats } from '../helpers/nats-server.js';

const NATS_URL = process.env.LOCI_TEST_NATS_URL;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(cond: () => boolean | Promise<boolean>, timeoutMs: number, stepMs = 25) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await cond()) return true;
    await sleep(stepMs);
  }
  return cond();
}

function ev(type = 'memory.written', data: unknown = {}, id: string = randomUUID()): BusEvent {
  return { id, type, version: 1, tenant_id: 't1', occurred_at: new Date().toISOString(), data };
}

describe('in-process bus', () => {
  let bus: InProcessBus;
  afterEach(async () => {
    await bus?.close();
  });

  it('delivers asynchronously: publish returns before the handler runs', async () => {
    bus = new InProcessBus();
    await bus.start();
    const seen: string[] = [];
    bus.subscribe('memory.written', async (e) => {
      seen.push(e.id);
    });
    const e = ev();
    await bus.publish(e);
    expect(seen).toEqual([]);
    await bus.drain(2_000);
    expect(seen).toEqual([e.id]);
    expect(bus.health()).toEqual({ status: 'ok' });
  });

  it('a handler that throws is not in the publisher’s await chain', async () => {
    bus = new InProcessBus({ maxDeliver: 1 });
    bus.subscribe('x', async () => {
      throw new Error('boom');
    });
    await expect(bus.publish(ev('x'))).resolves.toBeUndefined();
    await bus.drain(2_000);
    expect(bus.deadLetters()).toHaveLength(1);
  });

  it('retries a handler that throws once, then succeeds', async () => {
    bus = new InProcessBus({ maxDeliver: 3, retryBaseMs: 10 });
    let calls = 0;
    let done = false;
    bus.subscribe('memory.written', async () => {
      calls++;
      if (calls === 1) throw new Error('transient');
      done = true;
    });
    await bus.publish(ev());
    await bus.drain(2_000);
    expect(calls).toBe(2);
    expect(done).toBe(true);
    expect(bus.deadLetters()).toEqual([]);
  });

  it('dead-letters a poisoned event after maxDeliver attempts', async () => {
    bus = new InProcessBus({ maxDeliver: 3, retryBaseMs: 10 });
    let calls = 0;
    bus.subscribe('memory.written', async () => {
      calls++;
      throw new Error('poison');
    });
    const good: string[] = [];
    bus.subscribe('other', async (e) => {
      good.push(e.id);
    });
    const bad = ev();
    const ok = ev('other');
    await bus.publish(bad);
    await bus.publish(ok);
    await bus.drain(2_000);
    expect(calls).toBe(3);
    expect(good).toEqual([ok.id]);
    const dead = bus.deadLetters();
    expect(dead).toHaveLength(1);
    expect(dead[0].event.id).toBe(bad.id);
    expect(dead[0].attempts).toBe(3);
    expect(dead[0].error).toBe('poison');
  });

  it('delivers many events and drains', async () => {
    bus = new InProcessBus({ concurrency: 3 });
    let n = 0;
    bus.subscribe('memory.written', async () => {
      await sleep(1);
      n++;
    });
    for (let i = 0; i < 50; i++) await bus.publish(ev());
    await bus.drain(5_000);
    expect(n).toBe(50);
  });

  it('drain times out while a handler hangs', async () => {
    bus = new InProcessBus();
    bus.subscribe('memory.written', () => new Promise(() => undefined));
    await bus.publish(ev());
    await expect(bus.drain(100)).rejects.toThrow(/timed out/);
  });

  it('rejects invalid events and double subscriptions', async () => {
    bus = new InProcessBus();
    bus.subscribe('a', async () => undefined);
    expect(() => bus.subscribe('a', async () => undefined)).toThrow();
    expect(() => bus.subscribe('bad type', async () => undefined)).toThrow();
    await expect(bus.publish({ ...ev(), id: '' })).rejects.toThrow();
    await expect(bus.publish({ ...ev(), type: 'a.>' })).rejects.toThrow();
  });

  it('is what createBus returns without a NATS URL', () => {
    bus = createBus({}) as InProcessBus;
    expect(bus.kind).toBe('in-process');
  });
});

describe.skipIf(!NATS_URL)('NATS JetStream bus', () => {
  let admin: NatsConnection;
  let jsm: JetStreamManager;
  const runId = randomBytes(4).toString('hex').toUpperCase();
  const streams = new Set<string>();
  const buses: EventBus[] = [];
  let n = 0;

  // Short timings keep the suite fast; each test uses its own stream.
  function newBus(stream: string, extra: Partial<NatsBusOptions> = {}) {
    streams.add(stream);
    streams.add(`${stream}_DLQ`);
    const bus = new NatsBus({
      url: NATS_URL!,
      stream,
      maxDeliver: 3,
      ackWaitMs: 1_000,
      retryBaseMs: 50,
      fetchExpiresMs: 1_000,
      closeGraceMs: 200,
      ...extra,
    });
    buses.push(bus);
    return bus;
  }
  const streamName = () => `LOCI_TEST_${runId}_${++n}`;

  beforeAll(async () => {
    admin = await connect({ servers: NATS_URL! });
    jsm = await admin.jetstreamManager();
  });

  afterEach(async () => {
    await Promise.all(buses.splice(0).map((b) => b.close()));
    for (const s of streams) await jsm.streams.delete(s).catch(() => undefined);
    streams.clear();
  });

  afterAll(async () => {
    await admin?.close();
  });

  it('creates the stream and delivers events', async () => {
    const stream = streamName();
    const bus = newBus(stream);
    const seen: BusEvent[] = [];
    bus.subscribe('memory.written', async (e) => {
      seen.push(e);
    });
    await bus.start();
    const info = await jsm.streams.info(stream);
    expect(info.config.subjects).toEqual([`${stream.toLowerCase()}.events.>`]);
    const e = ev('memory.written', { memory_id: 'm1' });
    await bus.publish(e);
    await bus.drain(5_000);
    expect(seen).toEqual([e]);
    expect(bus.health()).toEqual({ status: 'ok' });
  });

  it('supports subscribing after start', async () => {
    const bus = newBus(streamName());
    await bus.start();
    const seen: string[] = [];
    bus.subscribe('late', async (e) => {
      seen.push(e.id);
    });
    const e = ev('late');
    await bus.publish(e);
    await bus.drain(5_000);
    expect(seen).toEqual([e.id]);
  });

  it('redelivers after a handler throws once', async () => {
    const bus = newBus(streamName());
    let calls = 0;
    bus.subscribe('memory.written', async () => {
      calls++;
      if (calls === 1) throw new Error('transient');
    });
    await bus.start();
    await bus.publish(ev());
    await bus.drain(5_000);
    expect(calls).toBe(2);
    expect(await bus.deadLetters()).toEqual([]);
  });

  it('dead-letters a poisoned event after maxDeliver attempts and keeps going', async () => {
    const stream = streamName();
    const bus = newBus(stream);
    let calls = 0;
    const ok: string[] = [];
    bus.subscribe('memory.written', async (e) => {
      if (e.data && (e.data as { poison?: boolean }).poison) {
        calls++;
        throw new Error('always fails');
      }
      ok.push(e.id);
    });
    await bus.start();
    const bad = ev('memory.written', { poison: true });
    const good = ev('memory.written', {});
    await bus.publish(bad);
    await bus.publish(good);
    await bus.drain(10_000);
    expect(calls).toBe(3);
    expect(ok).toEqual([good.id]);
    const dead = await bus.deadLetters();
    expect(dead).toHaveLength(1);
    expect(dead[0]).toMatchObject({ reason: 'handler_failed', attempts: 3, error: 'always fails', type: 'memory.written' });
    expect((dead[0].event as BusEvent).id).toBe(bad.id);
    const dlq = await jsm.streams.info(`${stream}_DLQ`);
    expect(dlq.state.messages).toBe(1);
  });

  it('drops a re-published event with the same id', async () => {
    const stream = streamName();
    const bus = newBus(stream);
    let calls = 0;
    bus.subscribe('memory.written', async () => {
      calls++;
    });
    await bus.start();
    const e = ev();
    const first = await bus.publishWithAck(e);
    const again = await bus.publishWithAck({ ...e, occurred_at: new Date(0).toISOString() });
    expect(first.duplicate).toBe(false);
    expect(again.duplicate).toBe(true);
    await bus.publish(e);
    await bus.drain(5_000);
    expect(calls).toBe(1);
    expect((await jsm.streams.info(stream)).state.messages).toBe(1);
  });

  it('redelivers an event whose consumer crashed before acking', async () => {
    const stream = streamName();
    const first = newBus(stream);
    let started = 0;
    first.subscribe('memory.written', async () => {
      started++;
      await new Promise(() => undefined); // never acks
    });
    await first.start();
    const e = ev();
    await first.publish(e);
    expect(await until(() => started === 1, 5_000)).toBe(true);
    await first.close();

    const second = newBus(stream);
    const seen: string[] = [];
    second.subscribe('memory.written', async (x) => {
      seen.push(x.id);
    });
    await second.start();
    expect(await until(() => seen.length > 0, 8_000)).toBe(true);
    expect(seen).toEqual([e.id]);
    await second.drain(5_000);
  });

  it('recovers when its stream is deleted and can be recreated', async () => {
    const stream = streamName();
    const bus = newBus(stream);
    const seen: string[] = [];
    bus.subscribe('memory.written', async (e) => {
      seen.push(e.id);
    });
    await bus.start();
    await bus.publish(ev());
    await bus.drain(5_000);
    await jsm.streams.delete(stream);
    // The loop recreates stream and consumer; new events flow again.
    expect(await until(async () => (await jsm.streams.info(stream).then(() => true, () => false)), 8_000)).toBe(true);
    const e = ev();
    expect(await until(async () => (await bus.publish(e).then(() => true, () => false)), 5_000)).toBe(true);
    expect(await until(() => seen.includes(e.id), 8_000)).toBe(true);
    expect(bus.health()).toEqual({ status: 'ok' });
  });

  it('reports pull_loop_halted when the stream is deleted and cannot be recreated', async () => {
    const stream = streamName();
    const bus = newBus(stream);
    bus.subscribe('memory.written', async () => undefined);
    await bus.start();
    expect(bus.health().status).toBe('ok');
    // Another stream takes over the subjects, so ours cannot be created again.
    const blocker = `${stream}_BLOCKER`;
    streams.add(blocker);
    for (let attempt = 0; ; attempt++) {
      await jsm.streams.delete(stream).catch(() => undefined);
      const added = await jsm.streams.add({ name: blocker, subjects: [`${stream.toLowerCase()}.events.>`] }).then(
        () => true,
        (err) => {
          // The loop recreated our stream first: delete it again and retry.
          if (attempt >= 5) throw err;
          return false;
        },
      );
      if (added) break;
    }
    expect(await until(() => bus.health().status === 'unhealthy', 10_000)).toBe(true);
    expect(bus.health()).toEqual({ status: 'unhealthy', detail: 'pull_loop_halted' });
  });

  it('survives a dropped connection and is healthy again once reconnected', async () => {
    const u = new URL(NATS_URL!);
    const proxy = await startTcpProxy(u.hostname, Number(u.port || 4222));
    try {
      const bus = newBus(streamName(), { url: `nats://127.0.0.1:${proxy.port}` });
      const seen: string[] = [];
      bus.subscribe('memory.written', async (e) => {
        seen.push(e.id);
      });
      await bus.start();
      await proxy.cut();
      expect(await until(() => bus.health().status === 'unhealthy', 5_000)).toBe(true);
      expect(bus.health().detail).toBe('disconnected');
      await proxy.restore();
      expect(await until(() => bus.health().status === 'ok', 8_000)).toBe(true);
      const e = ev();
      await bus.publish(e);
      expect(await until(() => seen.includes(e.id), 8_000)).toBe(true);
    } finally {
      await Promise.all(buses.splice(0).map((b) => b.close()));
      await proxy.close();
    }
  });

  it('createBus picks NATS when a URL is given', () => {
    const bus = createBus({ natsUrl: NATS_URL, stream: streamName() });
    expect(bus.kind).toBe('nats');
  });
});

describe.skipIf(!NATS_URL || !HAS_NATS_SERVER)('NATS JetStream bus on a server that refuses pull requests', () => {
  let server: PrivateNats | undefined;
  let bus: NatsBus | undefined;
  afterEach(async () => {
    await bus?.close();
    await server?.stop();
    bus = undefined;
    server = undefined;
  });

  it('halts the pull loop on the permissions violation and reports unhealthy', async () => {
    server = await startPrivateNats(NO_PULL_USER);
    const errors: string[] = [];
    bus = new NatsBus({ url: server.url, stream: 'LOCI_PERM', fetchExpiresMs: 1_000, closeGraceMs: 200, onError: (tag) => errors.push(tag) });
    bus.subscribe('memory.written', async () => undefined);
    await bus.start();
    expect(await until(() => bus!.health().status === 'unhealthy', 10_000)).toBe(true);
    expect(bus.health()).toEqual({ status: 'unhealthy', detail: 'pull_loop_halted' });
    expect(errors).toContain('nats_pull_loop_halted');
    // Publishing is allowed: the bus still accepts events, it just cannot consume them.
    await bus.publish(ev());
  });
});
