// Caura's "no API key" quick start against Loci in standalone mode: bound to loopback, a request
// without a key (or with the README's placeholder key "standalone") acts as the fixed tenant at
// trust 1; bound to any other address a key is always required. The plugin's boot: auth/verify,
// then the keystones it puts in front of every session.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { cauraWire, searchItems, verifyKey } from './caura-shapes.js';

describe('standalone on loopback', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ LOCI_KEYLESS_LOOPBACK: 'true' });
  });
  afterAll(async () => t?.close());

  it('the README quick start: write and search with the placeholder key', async () => {
    const c = cauraWire(t.url, 'standalone');
    const w = await c.client('POST', '/api/v1/memories', { tenant_id: 'default', content: 'Our auth service uses JWT with 15-minute expiry.' });
    expect(w.status).toBe(201);
    expect(w.body).toMatchObject({ tenant_id: 'default', agent_id: 'default' });
    const s = await c.client('POST', '/api/v1/search', { tenant_id: 'default', query: 'authentication token lifetime' });
    expect(s.status).toBe(200);
    expect(searchItems(s.body).map((m) => m.id)).toContain(w.body.id);
  });

  it('without any key, tenant_id and agent_id may be left out', async () => {
    const c = cauraWire(t.url, null);
    const w = await c.client('POST', '/api/v1/memories', { content: 'The release train leaves every second Tuesday.' });
    expect(w.status).toBe(201);
    expect(w.body).toMatchObject({ tenant_id: 'default', agent_id: 'default' });
    const named = await c.client('POST', '/api/v1/memories', { content: 'Deploys freeze on Fridays.', agent_id: 'planner' });
    expect(named.body.agent_id).toBe('planner');
    const who = await c.client('GET', '/api/v1/whoami');
    expect(who.body).toMatchObject({ tenant_id: 'default', source: 'standalone', trust_level: 1, authenticated: true });
    const r = await c.client('POST', '/api/v1/recall', { query: 'when does the release train leave' });
    expect(r.status).toBe(200);
    expect(r.body.memories.map((m: any) => m.id)).toContain(w.body.id);
  });

  it('is trust 1, never admin, and stays in its tenant', async () => {
    const c = cauraWire(t.url, null);
    expect((await c.client('GET', '/api/v1/admin/tenants')).status).toBe(403);
    expect((await c.client('POST', '/api/v1/admin/keys', { tenant_id: 'default', trust_level: 3 })).status).toBe(403);
    expect((await c.client('POST', '/api/v1/memories', { tenant_id: 'other', content: 'x' })).status).toBe(403);
    expect((await c.client('POST', '/api/v1/memories/redistribute?tenant_id=default&agent_id=a', { memory_ids: [crypto.randomUUID()], target_agent_id: 'b' })).status).toBe(403);
  });

  it('a key that is not the placeholder must still be right', async () => {
    expect((await cauraWire(t.url, 'loci_wrong').client('GET', '/api/v1/memories')).status).toBe(401);
    const real = await t.key('default', { agent: 'keyed', trust: 1 });
    const w = await cauraWire(t.url, real).client('POST', '/api/v1/memories', { content: 'Keyed callers keep their own agent.' });
    expect(w.body.agent_id).toBe('keyed');
  });

  it('auth/verify names the tenant of a key, of the placeholder, and refuses a wrong one', async () => {
    expect((await verifyKey(t.url, 'standalone')).body).toMatchObject({ valid: true, tenant_id: 'default', agent_id: null, trust_level: 1 });
    const agentKey = await t.key('acme', { agent: 'quote-agent', trust: 2 });
    expect((await verifyKey(t.url, agentKey)).body).toMatchObject({ valid: true, tenant_id: 'acme', agent_id: 'quote-agent', trust_level: 2, source: 'api_key' });
    const wrong = await verifyKey(t.url, 'loci_not_a_key');
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('content-type')).toContain('application/problem+json');
    const extra = await fetch(`${t.url}/api/v1/auth/verify`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ key: agentKey, tenant: 'x' }) });
    expect(extra.status).toBe(422);
    expect(((await extra.json()) as any).detail[0]).toMatchObject({ loc: ['body', 'tenant'], type: 'extra_forbidden' });
  });

  it('plugin boot: verify, then keystones from /api/v1/memclaw/keystones as the plugin asks for them', async () => {
    const key = await t.key('boot', { trust: 2 });
    const tenant = (await verifyKey(t.url, key)).body.tenant_id;
    expect(tenant).toBe('boot');
    const c = cauraWire(t.url, key);
    // Authoring as docs/integration-without-plugin.md shows it (X-Agent-ID, weight as a word).
    const put = await c.plugin('POST', '/memclaw/keystones', {
      body: { tenant_id: tenant, doc_id: 'no-secrets-in-logs', title: 'No secrets in logs', content: 'Never log credentials or API keys.', scope: 'tenant', weight: 'high' },
      headers: { 'X-Agent-ID': 'quote-agent-na' },
    });
    expect(put.status).toBe(200);
    await c.plugin('POST', '/memclaw/keystones', {
      body: { tenant_id: tenant, doc_id: 'na-quotes-in-usd', title: 'Quotes in USD', content: 'Quote North America in USD.', scope: 'fleet', fleet_id: 'na-sales', weight: 'med' },
    });
    // Without a fleet the plugin sends tenant_id alone; with one, fleet_id and agent_id.
    const bare = await c.plugin('GET', '/memclaw/keystones', { query: { tenant_id: tenant } });
    expect(bare.status).toBe(200);
    const rows = Array.isArray(bare.body) ? bare.body : bare.body.rules;
    expect(rows.map((r: any) => r.doc_id)).toEqual(['no-secrets-in-logs']);
    expect(rows[0]).toMatchObject({ title: 'No secrets in logs', content: 'Never log credentials or API keys.', weight: 100 });
    const fleet = await c.plugin('GET', '/memclaw/keystones', { query: { tenant_id: tenant, fleet_id: 'na-sales', agent_id: 'quote-agent-na' } });
    expect(fleet.body.map((r: any) => r.doc_id)).toEqual(['no-secrets-in-logs', 'na-quotes-in-usd']);
    // Keyless on loopback, the standalone tenant's rules are listed.
    expect((await cauraWire(t.url, null).plugin('GET', '/memclaw/keystones', { query: { tenant_id: 'default' } })).status).toBe(200);
    expect((await c.plugin('DELETE', '/memclaw/keystones/na-quotes-in-usd', { query: { tenant_id: tenant } })).status).toBe(200);
  });

  it('tool descriptions load as the plugin fetches them', async () => {
    const r = await cauraWire(t.url, 'standalone').plugin('GET', '/tool-descriptions');
    expect(r.status).toBe(200);
    expect(typeof Object.values(r.body)[0]).toBe('string');
  });
});

describe('standalone bound to a non-loopback address', () => {
  let t: TestApp;
  beforeAll(async () => {
    // The bind address decides: configured for every interface, no request goes without a key.
    t = await startTestApp({ LOCI_KEYLESS_LOOPBACK: 'true', LOCI_HOST: '0.0.0.0' });
  });
  afterAll(async () => t?.close());

  it('requires a key; the placeholder is not one', async () => {
    for (const key of [null, 'standalone']) {
      const c = cauraWire(t.url, key);
      expect((await c.client('POST', '/api/v1/memories', { tenant_id: 'default', content: 'x' })).status, String(key)).toBe(401);
      expect((await c.client('POST', '/api/v1/search', { tenant_id: 'default', query: 'x' })).status).toBe(401);
    }
    expect((await verifyKey(t.url, 'standalone')).status).toBe(401);
    // The open probe still answers, as an unauthenticated caller.
    expect((await cauraWire(t.url, null).client('GET', '/api/v1/whoami')).body).toMatchObject({ source: 'standalone', authenticated: false, trust_level: 0 });
  });
});
