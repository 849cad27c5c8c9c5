// Environment and clean-up for app tests against the machine's real NATS and Redis: each run uses
// its own stream and key prefix, and removes them afterwards.
import { randomBytes } from 'node:crypto';
import { connect } from 'nats';
import { Redis } from 'ioredis';

export const NATS_URL = process.env.LOCI_TEST_NATS_URL;
export const REDIS_URL = process.env.LOCI_TEST_REDIS_URL;

/** App env for the NATS bus and the Redis cache, with short delivery timings for tests. */
export function natsRedisEnv(streamBase: string, urls: { nats?: string; redis?: string } = {}): Record<string, string> {
  const suffix = randomBytes(3).toString('hex').toUpperCase();
  return {
    LOCI_NATS_URL: urls.nats ?? NATS_URL!,
    LOCI_NATS_STREAM: `LOCI_TEST_${streamBase}_${suffix}`,
    LOCI_REDIS_URL: urls.redis ?? REDIS_URL!,
    LOCI_CACHE_PREFIX: `loci-test-${streamBase.toLowerCase()}-${suffix.toLowerCase()}:`,
    LOCI_BUS_ACK_WAIT_MS: '1000',
    LOCI_BUS_RETRY_BASE_MS: '50',
    LOCI_BUS_MAX_DELIVER: '3',
  };
}

/** Deletes a test stream and its dead-letter stream. */
export async function cleanupNats(stream: string, extra: string[] = []) {
  const nc = await connect({ servers: NATS_URL! });
  try {
    const jsm = await nc.jetstreamManager();
    for (const s of [stream, `${stream}_DLQ`, ...extra]) await jsm.streams.delete(s).catch(() => undefined);
  } finally {
    await nc.close();
  }
}

/** Deletes every key under a test prefix. */
export async function cleanupRedis(prefix: string) {
  const r = new Redis(REDIS_URL!);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await r.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length) await r.del(...keys);
    } while (cursor !== '0');
  } finally {
    await r.quit();
  }
}

/** Polls cond until it holds or the time is up; returns its last value. */
export async function until(cond: () => boolean | Promise<boolean>, timeoutMs: number, stepMs = 50): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await cond()) return true;
    await new Promise((r) => setTimeout(r, stepMs));
  }
  return cond();
}
