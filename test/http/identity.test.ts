// Gateway headers and multitenant mode.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';

describe('trusted gateway', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ LOCI_TRUST_GATEWAY: 'true', LOCI_MODE: 'multitenant' });
  });
  afterAll(async () => t?.close());

  it('takes tenant and agent from the gateway headers', async () => {
    const r = await t.api('GET', '/api/v1/whoami', { key: null, headers: { 'x-tenant-id': 'gw', 'x-agent-id': 'bot' } });
    expect(r.body).toMatchObject({ tenant_id: 'gw', agent_id: 'bot', source: 'gateway', authenticated: true });
  });

  it('anonymous in multitenant mode without headers', async () => {
    const r = await t.api('GET', '/api/v1/whoami', { key: null });
    expect(r.body).toMatchObject({ tenant_id: null, source: 'anonymous', authenticated: false });
  });
});

describe('untrusted gateway headers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  it('ignores X-Tenant-ID unless LOCI_TRUST_GATEWAY is set', async () => {
    const r = await t.api('GET', '/api/v1/whoami', { key: null, headers: { 'x-tenant-id': 'evil' } });
    expect(r.body).toMatchObject({ tenant_id: 'default', source: 'standalone', authenticated: false });
    expect((await t.api('GET', '/api/v1/admin/keys', { key: null, headers: { 'x-tenant-id': 'evil' } })).status).toBe(401);
  });
});
