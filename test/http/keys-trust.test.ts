// Keys as a security boundary: fleet binding (trust 1 stays in its fleet, trust 2 crosses
// fleets), the bootstrap admin key (changing LOCI_ADMIN_KEY revokes the old one) and
// last_used_at (written at most once a minute per key).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { ensureAdminKey } from '../../src/server.js';
import { KeyService } from '../../src/core/keys.js';

const T = 'fleets';

describe('fleet-bound keys', () => {
  let t: TestApp;
  let tenantKey: string;
  let red1: string;
  let red2: string;
  let redReader: string;
  const ids: Record<string, string> = Object.create(null);

  beforeAll(async () => {
    t = await startTestApp();
    tenantKey = await t.key(T);
    const minted = await t.api('POST', '/api/v1/admin/keys', { body: { tenant_id: T, fleet_id: 'red', trust_level: 1 } });
    expect(minted.status).toBe(201);
    expect(minted.body.fleet_id).toBe('red');
    red1 = minted.body.key;
    red2 = await t.key(T, { fleet: 'red', trust: 2 });
    redReader = await t.key(T, { fleet: 'red', trust: 0 });
    const seed = [
      ['red', { fleet_id: 'red', content: 'Red fleet deploys on Mondays.' }],
      ['blue', { fleet_id: 'blue', content: 'Blue fleet deploys on Thursdays.' }],
      ['blueOrg', { fleet_id: 'blue', content: 'Everyone deploys through the blue pipeline runner.', visibility: 'scope_org' }],
      ['none', { content: 'Nobody deploys on Fridays.' }],
    ] as const;
    for (const [name, body] of seed) {
      const r = await t.api('POST', '/api/v1/memories', { key: tenantKey, body: { tenant_id: T, agent_id: 'seed', ...body } });
      expect(r.status).toBe(201);
      ids[name] = r.body.id;
    }
  });
  afterAll(async () => t?.close());

  const listIds = async (key: string, query = '') =>
    ((await t.api('GET', `/api/v1/memories?tenant_id=${T}&limit=500${query}`, { key })).body.items as { id: string }[]).map((m) => m.id);

  it('trust 1 reads its fleet, rows of no fleet and scope_org rows; nothing of another fleet', async () => {
    const seen = await listIds(red1);
    expect(seen).toEqual(expect.arrayContaining([ids.red, ids.none, ids.blueOrg]));
    expect(seen).not.toContain(ids.blue);
    expect((await t.api('GET', `/api/v1/memories/${ids.blue}?tenant_id=${T}`, { key: red1 })).status).toBe(404);
    // Naming another fleet is refused, not silently emptied.
    for (const [method, path, body] of [
      ['GET', `/api/v1/memories?tenant_id=${T}&fleet_id=blue`, undefined],
      ['GET', `/api/v1/memories/count?tenant_id=${T}&fleet_id=blue`, undefined],
      ['POST', '/api/v1/search', { tenant_id: T, query: 'deploys', fleet_ids: ['red', 'blue'] }],
      ['GET', `/api/v1/entities?tenant_id=${T}&fleet_id=blue`, undefined],
    ] as const) {
      const r = await t.api(method, path, { key: red1, body });
      expect(r.status, path).toBe(403);
    }
    const search = await t.api('POST', '/api/v1/search', { key: red1, body: { tenant_id: T, query: 'Which fleet deploys on which day?', top_k: 10 } });
    expect(search.body.items.map((m: any) => m.id)).not.toContain(ids.blue);
    const stats = await t.api('GET', `/api/v1/memories/stats?tenant_id=${T}`, { key: red1 });
    expect(stats.body.total).toBe(3);
    // A read-only key bound to the fleet is confined the same way.
    expect(await listIds(redReader)).not.toContain(ids.blue);
  });

  it('trust 1 writes only into its fleet and changes only its fleet\'s rows', async () => {
    const own = await t.api('POST', '/api/v1/memories', { key: red1, body: { tenant_id: T, agent_id: 'r', content: 'Written by the red key.' } });
    expect(own.status).toBe(201);
    expect(own.body.fleet_id).toBe('red');
    const away = await t.api('POST', '/api/v1/memories', { key: red1, body: { tenant_id: T, agent_id: 'r', fleet_id: 'blue', content: 'Sneaking into blue.' } });
    expect(away.status).toBe(403);
    const bulk = await t.api('POST', '/api/v1/memories/bulk', {
      key: red1, headers: { 'x-bulk-attempt-id': 'fleet-bulk' },
      body: { tenant_id: T, agent_id: 'r', items: [{ content: 'Bulk into red.' }, { content: 'Bulk into blue.', fleet_id: 'blue' }] },
    });
    expect(bulk.status).toBe(207);
    expect(bulk.body.results.map((r: any) => r.error?.code ?? r.status)).toEqual(['created', 'forbidden']);
    // Rows of other fleets and of no fleet are not changed by it.
    for (const id of [ids.blue, ids.blueOrg, ids.none]) {
      expect((await t.api('PATCH', `/api/v1/memories/${id}?tenant_id=${T}`, { key: red1, body: { weight: 0.9 } })).status).toBe(404);
      expect((await t.api('DELETE', `/api/v1/memories/${id}?tenant_id=${T}`, { key: red1 })).status).toBe(404);
    }
    expect((await t.api('DELETE', `/api/v1/memories?tenant_id=${T}&fleet_id=blue`, { key: red1 })).status).toBe(403);
    const del = await t.api('POST', '/api/v1/memories/bulk-delete', { key: red1, body: { tenant_id: T, ids: [ids.blue, ids.none] } });
    expect(del.body.deleted).toBe(0);
    expect((await listIds(tenantKey))).toEqual(expect.arrayContaining([ids.blue, ids.none, ids.blueOrg]));
  });

  it('trust 2 crosses fleets: reads every fleet, writes its own by default and others when named', async () => {
    expect(await listIds(red2)).toEqual(expect.arrayContaining([ids.red, ids.blue, ids.none, ids.blueOrg]));
    expect((await t.api('GET', `/api/v1/memories?tenant_id=${T}&fleet_id=blue`, { key: red2 })).status).toBe(200);
    const dflt = await t.api('POST', '/api/v1/memories', { key: red2, body: { tenant_id: T, agent_id: 'x', content: 'Cross-fleet key, default fleet.' } });
    expect(dflt.body.fleet_id).toBe('red');
    const blue = await t.api('POST', '/api/v1/memories', { key: red2, body: { tenant_id: T, agent_id: 'x', fleet_id: 'blue', content: 'Cross-fleet key writes blue.' } });
    expect(blue.status).toBe(201);
    expect(blue.body.fleet_id).toBe('blue');
  });

  it('documents: a confined key addresses its fleet and lists its fleet and the tenant-wide ones', async () => {
    const put = (key: string, body: Record<string, unknown>) => t.api('POST', '/api/v1/documents', { key, body: { tenant_id: T, collection: 'notes', ...body } });
    expect((await put(tenantKey, { doc_id: 'blue-doc', fleet_id: 'blue', data: { text: 'blue only' } })).status).toBe(201);
    expect((await put(tenantKey, { doc_id: 'shared-doc', data: { text: 'for everyone' } })).status).toBe(201);
    const mine = await put(red1, { doc_id: 'red-doc', data: { text: 'red notes' } });
    expect(mine.status).toBe(201);
    expect(mine.body.fleet_id).toBe('red');
    expect((await put(red1, { doc_id: 'x', fleet_id: 'blue', data: {} })).status).toBe(403);
    expect((await t.api('GET', `/api/v1/documents/notes/blue-doc?tenant_id=${T}&fleet_id=blue`, { key: red1 })).status).toBe(403);
    expect((await t.api('GET', `/api/v1/documents/notes/red-doc?tenant_id=${T}`, { key: red1 })).status).toBe(200);
    const q = await t.api('POST', '/api/v1/documents/query', { key: red1, body: { tenant_id: T, collection: 'notes' } });
    expect(q.body.items.map((d: any) => d.doc_id).sort()).toEqual(['red-doc', 'shared-doc']);
  });
});

describe('key bookkeeping', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  it('changing LOCI_ADMIN_KEY revokes the old admin key', async () => {
    const cfg = t.services.config;
    const saved = cfg.adminKey;
    try {
      cfg.adminKey = 'loci_first-configured-admin-key-0001';
      await ensureAdminKey(t.services);
      expect((await t.api('GET', '/api/v1/admin/keys', { key: cfg.adminKey })).status).toBe(200);
      const old = cfg.adminKey;
      cfg.adminKey = 'loci_second-configured-admin-key-0002';
      await ensureAdminKey(t.services);
      expect((await t.api('GET', '/api/v1/admin/keys', { key: cfg.adminKey })).status).toBe(200);
      expect((await t.api('GET', '/api/v1/whoami', { key: old })).status).toBe(401);
      expect((await t.api('GET', '/api/v1/admin/keys', { key: old })).status).toBe(401);
      // Restarting with the same key changes nothing; naming the revoked one again is refused.
      await ensureAdminKey(t.services);
      expect((await t.api('GET', '/api/v1/admin/keys', { key: cfg.adminKey })).status).toBe(200);
      cfg.adminKey = old;
      await expect(ensureAdminKey(t.services)).rejects.toThrow(/revoked/);
      // Keys minted through the API are not bootstrap keys: they survive a change.
      expect((await t.api('GET', '/api/v1/admin/keys', { key: t.adminKey })).status).toBe(200);
    } finally {
      cfg.adminKey = saved;
    }
  });

  it('last_used_at is set when a key is used, at most once a minute', async () => {
    const key = await t.key('lu');
    const record = async () => ((await t.api('GET', '/api/v1/admin/keys?tenant_id=lu')).body.items[0]);
    expect((await record()).last_used_at).toBeNull();
    expect((await t.api('GET', '/api/v1/memories?tenant_id=lu', { key })).status).toBe(200);
    let first: string | null = null;
    for (let i = 0; i < 50 && !first; i++) {
      first = (await record()).last_used_at;
      if (!first) await new Promise((r) => setTimeout(r, 20));
    }
    expect(first).not.toBeNull();
    await t.api('GET', '/api/v1/memories?tenant_id=lu', { key });
    await new Promise((r) => setTimeout(r, 100));
    expect((await record()).last_used_at).toBe(first);
  });

  it('touch writes once per key per minute', async () => {
    const writes: unknown[][] = [];
    const ks = new KeyService({ query: async (_sql: string, params?: unknown[]) => { writes.push(params ?? []); return { rows: [], rowCount: 1 }; } } as any);
    ks.touch('k1', 1_000);
    ks.touch('k1', 30_000);
    ks.touch('k2', 30_000);
    ks.touch('k1', 61_001);
    expect(writes).toEqual([['k1'], ['k2'], ['k1']]);
  });
});
