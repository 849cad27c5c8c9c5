// Statistics on the embedded database, which has no autovacuum: a table that changed by more than
// the analyze threshold is analysed, so plans and the keyword leg's word statistics follow a bulk load.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { analyzeStale } from '../../src/store/maintenance.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

const analysed = async () => (await t.services.db.query<{ n: number }>(
  `SELECT count(*)::int AS n FROM pg_stats WHERE schemaname = current_schema() AND tablename = 'memories' AND attname = 'tenant_id'`)).rows[0].n;

describe('analyzeStale', () => {
  it('analyses a table once more rows changed than 50 + 10 % of it, and not again until they do', async () => {
    if (t.services.db.kind !== 'pglite') return; // a server runs its own autovacuum
    await t.services.db.query('ANALYZE memories');
    expect(await analysed()).toBe(0); // an empty table has no statistics
    const items = Array.from({ length: 80 }, (_, i) => ({ content: `Inventory note ${i}: shelf ${i % 9} holds ${i * 3} boxes of part ${1000 + i}.` }));
    const r = await t.api('POST', '/api/v1/memories/bulk', {
      body: { tenant_id: 'stats', agent_id: 'a1', items }, headers: { 'x-bulk-attempt-id': 'stats-1' },
    });
    expect(r.body.created).toBe(80);
    // The change counts reach the statistics views shortly after the transactions end; the
    // service's own timer may get there first.
    for (let i = 0; i < 40 && (await analysed()) === 0; i++) {
      await new Promise((res) => setTimeout(res, 250));
      await analyzeStale(t.services.db);
    }
    expect(await analysed()).toBe(1);
    expect(await analyzeStale(t.services.db)).not.toContain('memories');
  });
});
