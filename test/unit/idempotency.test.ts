import { describe, expect, it } from 'vitest';
import { Idempotency } from '../../src/core/idempotency.js';
import { MemoryCache } from '../../src/infra/cache/memory.js';

describe('abandoning a claim whose answer was lost', () => {
  it('drops only the in-flight claim made with its own token', async () => {
    const idem = new Idempotency(new MemoryCache());
    expect(await idem.claim('s', 'k', 'fp', 'mine')).toEqual({ kind: 'claimed' });
    await idem.abandon('s', 'k', 'theirs');
    expect(await idem.claim('s', 'k', 'fp', 'other')).toEqual({ kind: 'in_flight' });
    await idem.abandon('s', 'k', 'mine');
    expect(await idem.claim('s', 'k', 'fp', 'retry')).toEqual({ kind: 'claimed' });
    // A finished request is never abandoned.
    const response = { status: 201, headers: {}, body: '{}' };
    await idem.complete('s', 'k', 'fp', response);
    await idem.abandon('s', 'k', 'retry');
    expect(await idem.claim('s', 'k', 'fp', 'late')).toEqual({ kind: 'replay', response });
  });
});
