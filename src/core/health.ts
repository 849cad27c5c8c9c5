// Health rules (spec 4.1): storage is always required; the cache only when a Redis URL
// is configured; the event bus reports ok/unhealthy. Provider init problems only degrade.
import type { Services } from '../services.js';

type DepStatus = 'ok' | 'unavailable' | 'unhealthy';

export async function checkHealth(s: Pick<Services, 'db' | 'cache' | 'bus' | 'config' | 'initErrors'>) {
  const storage: DepStatus = (await s.db.ping()) ? 'ok' : 'unavailable';
  const cacheRequired = Boolean(s.config.redisUrl);
  const cache: DepStatus = !cacheRequired || (await s.cache.ping()) ? 'ok' : 'unavailable';
  const bus = s.bus.health();
  const down = storage !== 'ok' || cache !== 'ok' || bus.status !== 'ok';
  const status = down ? 'unhealthy' : s.initErrors.length ? 'degraded' : 'ok';
  return {
    httpStatus: (down ? 503 : 200) as 200 | 503,
    body: {
      status,
      dependencies: {
        storage: { status: storage, required: true, driver: s.db.kind },
        cache: { status: cache, required: cacheRequired, kind: s.cache.kind },
        event_bus: { status: bus.status, required: true, kind: s.bus.kind, ...(bus.detail ? { detail: bus.detail } : {}) },
      },
      platform_init_errors: [...s.initErrors],
    },
  };
}
