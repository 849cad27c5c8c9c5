// Redis housekeeping for service-backed tests: every run uses its own key prefix and removes its keys.
import type { Redis } from 'ioredis';

/** Deletes every key under prefix. */
export async function deleteKeys(admin: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await admin.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    cursor = next;
    if (keys.length) await admin.del(...keys);
  } while (cursor !== '0');
}
