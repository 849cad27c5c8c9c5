// The dashboard's server side: static files and their headers, the loopback sign-in of standalone
// mode and who may not use it, and the activity endpoint of the Stats page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { startTestApp, type TestApp } from '../helpers/app.js';

/** A raw request, so Host and forwarding headers are sent exactly as given. */
function raw(url: string, method: string, headers: Record<string, string>): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : null }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('dashboard', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  it('serves the page with a strict content security policy, and only the files it ships', async () => {
    const page = await fetch(t.url + '/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    const html = await page.text();
    for (const src of [...html.matchAll(/(?:src|href)="(\/(?:ui|vendor)\/[^"]+)"/g)].map((m) => m[1])) {
      expect((await fetch(t.url + src)).status, src).toBe(200);
    }
    const vendor = await fetch(t.url + '/vendor/sigma.min.js');
    expect(vendor.headers.get('content-type')).toMatch(/^text\/javascript/);
    const etag = vendor.headers.get('etag')!;
    expect((await fetch(t.url + '/vendor/sigma.min.js', { headers: { 'if-none-match': etag } })).status).toBe(304);
    for (const p of ['/ui/nope.js', '/vendor/package.json', '/ui/..%2f..%2fpackage.json', '/vendor/%2e%2e/%2e%2e/package.json']) {
      const r = await fetch(t.url + p);
      expect(r.status, p).toBe(404);
    }
  });

  it('signs a loopback browser in at trust 1 in standalone mode, never as admin, one key per process', async () => {
    expect((await t.api('POST', '/dashboard/session', { key: null })).status).toBe(403);
    const s = await t.api('POST', '/dashboard/session', { key: null, headers: { 'x-loci-dashboard': '1' } });
    expect(s.status).toBe(200);
    expect(s.body).toMatchObject({ tenant_id: 'default', trust_level: 1, key: expect.stringMatching(/^loci_/) });
    const again = await t.api('POST', '/dashboard/session', { key: null, headers: { 'x-loci-dashboard': '1' } });
    expect(again.body.key).toBe(s.body.key);
    const who = await t.api('GET', '/api/v1/whoami', { key: s.body.key });
    expect(who.body).toMatchObject({ tenant_id: 'default', trust_level: 1, authenticated: true });
    expect((await t.api('GET', '/api/v1/admin/tenants', { key: s.body.key })).status).toBe(403);
  });

  it('refuses the keyless sign-in through a rebound host name or a proxy', async () => {
    const port = new URL(t.url).port;
    const h = { 'x-loci-dashboard': '1' };
    expect((await raw(t.url + '/dashboard/session', 'POST', { ...h, host: `evil.example:${port}` })).status).toBe(403);
    expect((await raw(t.url + '/dashboard/session', 'POST', { ...h, 'x-forwarded-for': '203.0.113.9' })).status).toBe(403);
    expect((await raw(t.url + '/dashboard/session', 'POST', { ...h, forwarded: 'for=203.0.113.9' })).status).toBe(403);
    expect((await raw(t.url + '/dashboard/session', 'POST', { ...h, host: `localhost:${port}` })).status).toBe(200);
  });

  it('refuses the keyless sign-in in multitenant mode', async () => {
    const m = await startTestApp({ LOCI_MODE: 'multitenant' });
    try {
      const r = await m.api('POST', '/dashboard/session', { key: null, headers: { 'x-loci-dashboard': '1' } });
      expect(r.status).toBe(403);
      expect(r.headers.get('content-type')).toMatch(/problem\+json/);
      expect((await fetch(m.url + '/')).status).toBe(200);
    } finally {
      await m.close();
    }
  });

  describe('activity', () => {
    const T = 'activity-t';
    it('counts writes per day the caller can see and records search latency per tenant', async () => {
      const ann = await t.key(T, { agent: 'ann' });
      const bob = await t.key(T, { agent: 'bob' });
      for (const [key, content, visibility] of [[ann, 'Ann notes the deploy window.', 'scope_team'], [ann, 'Ann private note.', 'scope_agent'], [bob, 'Bob notes the rollback.', 'scope_team']]) {
        const w = await t.api('POST', '/api/v1/memories', { key, body: { tenant_id: T, agent_id: key === ann ? 'ann' : 'bob', content, visibility } });
        expect(w.status, w.text).toBe(201);
      }
      const today = new Date().toISOString().slice(0, 10);
      const asBob = await t.api('GET', `/api/v1/activity?tenant_id=${T}&days=7`, { key: bob });
      expect(asBob.status, asBob.text).toBe(200);
      expect(asBob.body).toMatchObject({ tenant_id: T, days: 7, writes: [{ day: today, writes: 2 }], search_latency: { count: 0, p50_ms: null } });
      const asAnn = await t.api('GET', `/api/v1/activity?tenant_id=${T}`, { key: ann });
      expect(asAnn.body.writes).toEqual([{ day: today, writes: 3 }]);

      expect((await t.api('POST', '/api/v1/search', { key: bob, body: { tenant_id: T, query: 'deploy window' } })).status).toBe(200);
      expect((await t.api('POST', '/api/v1/recall', { key: bob, body: { tenant_id: T, query: 'rollback' } })).status).toBe(200);
      expect((await t.api('POST', '/api/v1/search', { key: bob, body: { tenant_id: T, query: '' } })).status).toBe(422);
      const after = await t.api('GET', `/api/v1/activity?tenant_id=${T}`, { key: bob });
      expect(after.body.search_latency).toMatchObject({ count: 2, p50_ms: expect.any(Number), p95_ms: expect.any(Number) });
      expect(after.body.search_latency.recent).toHaveLength(2);
      // Another tenant's figures are its own.
      expect((await t.api('GET', '/api/v1/activity?tenant_id=default')).body.search_latency.count).toBe(0);
    });

    it('refuses other tenants, bad bounds and anonymous callers', async () => {
      const key = await t.key('activity-other');
      expect((await t.api('GET', `/api/v1/activity?tenant_id=${T}`, { key })).status).toBe(403);
      for (const q of ['days=0', 'days=367', 'days=x']) {
        const r = await t.api('GET', `/api/v1/activity?tenant_id=${T}&${q}`);
        expect(r.status, q).toBe(422);
      }
      expect((await t.api('GET', `/api/v1/activity?tenant_id=${T}`, { key: null })).status).toBe(401);
    });
  });
});
