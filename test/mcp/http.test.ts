// MCP over Streamable HTTP at /mcp, driven by the SDK's own Client: every tool, authentication
// like REST (X-API-Key, Bearer, wrong key), trust gates, rate limits, instructions carrying
// keystones, the registry's completeness and the size of tools/list.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { loadRegistry, restTwins } from '../../src/mcp/registry.js';
import { caller, httpClient, nested, ok, refused } from './helpers.js';
import { everyTool, refusals } from './scenario.js';

const T = 'mcp-http';

describe('MCP over Streamable HTTP', () => {
  let t: TestApp;
  let bob: string; // agent bob, trust 2
  beforeAll(async () => {
    t = await startTestApp();
    bob = await t.key(T, { agent: 'bob', trust: 2 });
  });
  afterAll(async () => t?.close());

  it('serves every tool with the REST shapes', async () => {
    const client = await httpClient(t.url, { 'x-api-key': bob });
    await everyTool(caller(client), { tenant: T, agent: 'bob', tag: 'h1' });
    await client.close();
  });

  it('refuses bad arguments, deep arguments and identities other than the key\'s, as isError results with the REST body', async () => {
    const client = await httpClient(t.url, { 'x-api-key': bob });
    await refusals(caller(client), { tenant: T, agent: 'bob', tag: 'h2' });
    await client.close();
  });

  it('authenticates like REST: Bearer works, a wrong or missing key cannot connect', async () => {
    const bearer = await httpClient(t.url, { authorization: `Bearer ${bob}` });
    expect((await ok(caller(bearer), 'loci_stats')).scope).toBe('agent');
    await bearer.close();
    await expect(httpClient(t.url, { 'x-api-key': 'loci_not-a-key' })).rejects.toThrow(/401/);
    await expect(httpClient(t.url, { authorization: 'Bearer loci_not-a-key' })).rejects.toThrow(/401/);
    await expect(httpClient(t.url, {})).rejects.toThrow(/401/);
    // The endpoint is stateless: no stream to open, no session to end.
    expect((await t.api('GET', '/mcp', { key: bob })).status).toBe(405);
    expect((await t.api('GET', '/mcp', { key: null })).status).toBe(401);
  });

  it('applies the same trust gates as REST', async () => {
    const reader = caller(await httpClient(t.url, { 'x-api-key': await t.key(T, { agent: 'rita', trust: 0 }) }));
    expect((await refused(reader, 403, 'loci_write', { content: 'I may not write.' })).detail).toMatch(/trust level 1/);
    await refused(reader, 403, 'loci_doc', { op: 'write', collection: 'c', doc_id: 'd', data: { a: 1 } });
    await refused(reader, 403, 'loci_keystones_set', { op: 'set', doc_id: 'r', title: 't', content: 'c', scope: 'agent', agent_id: 'rita', weight: 'low' });
    await ok(reader, 'loci_keystones');
    await ok(reader, 'loci_list', { scope: 'all' });
    // Trust 1: its own agent rule yes, a tenant rule no.
    const one = caller(await httpClient(t.url, { 'x-api-key': await t.key(T, { agent: 'tom', trust: 1 }) }));
    await ok(one, 'loci_keystones_set', { op: 'set', doc_id: 'tom-own', title: 't', content: 'c', scope: 'agent', agent_id: 'tom', weight: 'low' });
    await refused(one, 403, 'loci_keystones_set', { op: 'set', doc_id: 'tom-tenant', title: 't', content: 'c', scope: 'tenant', weight: 'low' });
    // Trust 1 passes the first gate of a delete: a missing rule is then a 404 (trust 0 gets 403 either way).
    await refused(one, 404, 'loci_keystones_set', { op: 'delete', doc_id: 'no-such-rule' });
    await refused(reader, 403, 'loci_keystones_set', { op: 'delete', doc_id: 'no-such-rule' });
    await ok(one, 'loci_keystones_set', { op: 'delete', doc_id: 'tom-own' });
    // The same audit trail as REST.
    const events = (await t.api('GET', `/api/v1/admin/audit-events?tenant_id=${T}&type=keystone.delete`)).body.items;
    expect(events[0]).toMatchObject({ type: 'keystone.delete', actor_agent_id: 'tom', detail: expect.objectContaining({ doc_id: 'tom-own' }) });
  });

  it('refuses a body nested past twice the argument limit before MCP, and keeps serving', async () => {
    const client = await httpClient(t.url, { 'x-api-key': bob });
    const call = caller(client);
    await expect(call('loci_write', { content: 'deep', metadata: nested(300) as Record<string, unknown> })).rejects.toThrow(/json_too_deep/);
    expect((await ok(call, 'loci_stats')).scope).toBe('agent');
    await client.close();
  });

  it('carries the caller\'s keystones in the initialize instructions, heaviest first', async () => {
    const admin = caller(await httpClient(t.url, { 'x-api-key': bob }));
    await ok(admin, 'loci_keystones_set', { op: 'set', doc_id: 'i-low', title: 'Be brief', content: 'Answer in one paragraph.', scope: 'tenant', weight: 'low' });
    await ok(admin, 'loci_keystones_set', { op: 'set', doc_id: 'i-high', title: 'No secrets', content: 'Never repeat credentials.', scope: 'tenant', weight: 'high' });
    await ok(admin, 'loci_keystones_set', { op: 'set', doc_id: 'i-fleet', title: 'Blue fleet', content: 'Deploy only on Tuesdays.', scope: 'fleet', fleet_id: 'blue', weight: 'med' });
    await ok(admin, 'loci_keystones_set', { op: 'set', doc_id: 'i-carol', title: 'Carol only', content: 'Write in French.', scope: 'agent', agent_id: 'carol', weight: 'high' });
    const carol = await httpClient(t.url, { 'x-api-key': await t.key(T, { agent: 'carol', trust: 1 }) }, '?fleet_id=blue');
    const text = carol.getInstructions()!;
    const at = (s: string) => text.indexOf(s);
    for (const s of ['No secrets', 'Carol only', 'Blue fleet', 'Be brief']) expect(at(s), s).toBeGreaterThan(0);
    expect(at('No secrets')).toBeLessThan(at('Blue fleet'));
    expect(at('Carol only')).toBeLessThan(at('Blue fleet'));
    expect(at('Blue fleet')).toBeLessThan(at('Be brief'));
    expect(text).toMatch(/MANDATORY/);
    // Another agent, no fleet: neither carol's nor the fleet's rules.
    const dave = await httpClient(t.url, { 'x-api-key': await t.key(T, { agent: 'dave', trust: 1 }) });
    expect(dave.getInstructions()).toContain('No secrets');
    expect(dave.getInstructions()).not.toContain('Carol only');
    expect(dave.getInstructions()).not.toContain('Blue fleet');
    for (const id of ['i-low', 'i-high', 'i-fleet', 'i-carol']) await ok(admin, 'loci_keystones_set', { op: 'delete', doc_id: id });
    await carol.close();
    await dave.close();
  });

  it('lists every tool of the registry, compactly', async () => {
    const client = await httpClient(t.url, { 'x-api-key': bob });
    const { tools } = await client.listTools();
    const registry = await loadRegistry();
    expect(tools.map((x) => x.name)).toEqual(registry.tools.map((x) => x.name));
    expect(tools.map((x) => x.name)).toEqual([
      'loci_write', 'loci_recall', 'loci_list', 'loci_manage', 'loci_doc', 'loci_entity_get', 'loci_stats', 'loci_keystones', 'loci_keystones_set',
    ]);
    const chars = JSON.stringify({ tools }).length;
    // ≈ chars / 4 tokens (2,534 cl100k tokens when measured; Caura's list: 4,820, its same nine tools 3,853).
    // Every session pays for this list: growing past the budget needs a reason.
    expect(chars / 4).toBeLessThan(2_800);
    await client.close();
  });
});

describe('MCP rate limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ LOCI_RATE_WRITE: '2', LOCI_RATE_SEARCH: '3', LOCI_RATE_OTHER: '1000' });
  });
  afterAll(async () => t?.close());

  it('meters each tool call in its REST twin\'s class, per key, with the REST 429 body', async () => {
    const client = await httpClient(t.url, { 'x-api-key': await t.key(T, { agent: 'fast', trust: 1 }) });
    const call = caller(client);
    // Several windows may pass while a write embeds: count refusals over a burst sent at once.
    const writes = await Promise.all([1, 2, 3, 4, 5, 6].map((i) => call('loci_write', { content: `Burst write number ${i}.` })));
    const limited = writes.filter((r) => r.isError);
    expect(limited.length).toBeGreaterThan(0);
    for (const r of limited) expect(r.body).toMatchObject({ status: 429, title: 'Too Many Requests', class: 'write', limit: 2 });
    const searches = await Promise.all([1, 2, 3, 4, 5, 6, 7].map(() => call('loci_recall', { query: 'burst' })));
    expect(searches.filter((r) => r.isError).every((r) => r.body.class === 'search')).toBe(true);
    expect(searches.some((r) => r.isError)).toBe(true);
    await client.close();
  });
});

describe('the tool registry', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  it('gives every tool a handler, an object schema, a trust level and REST twins that are routes of the app', async () => {
    const registry = await loadRegistry();
    expect(registry.tools.length).toBeGreaterThanOrEqual(9);
    const app = (await import('../../src/app.js')).buildApp;
    const routes = await app(t.services);
    for (const tool of registry.tools) {
      expect(typeof tool.handler, tool.name).toBe('function');
      expect(tool.input.type, tool.name).toBe('object');
      expect((tool.input as { additionalProperties?: unknown }).additionalProperties, tool.name).toBe(false);
      expect([0, 1, 2, 3], tool.name).toContain(tool.trust);
      expect(tool.description.length, tool.name).toBeLessThan(300);
      for (const twin of restTwins(tool)) {
        const [method, url] = twin.split(' ');
        expect(routes.hasRoute({ method: method as 'GET', url }), `${tool.name}: ${twin}`).toBe(true);
      }
    }
    await routes.close();
  });

  it('refuses a tool without a handler, a schema or a REST twin', async () => {
    const { makeRegistry } = await import('../../src/mcp/registry.js');
    const base = (await loadRegistry()).tools[0];
    expect(() => makeRegistry([{ ...base, handler: undefined as never }])).toThrow(/handler/);
    expect(() => makeRegistry([{ ...base, input: undefined as never }])).toThrow(/schema/);
    expect(() => makeRegistry([{ ...base, rest: {} }])).toThrow(/REST twin/);
    expect(() => makeRegistry([{ ...base, name: 'caura_write' }])).toThrow(/loci_/);
    expect(() => makeRegistry([base, base])).toThrow(/unique/);
  });

  it('generates /api/v1/tool-descriptions from it', async () => {
    const registry = await loadRegistry();
    const plain = await t.api('GET', '/api/v1/tool-descriptions', { key: null });
    expect(plain.status).toBe(200);
    expect(Object.keys(plain.body)).toEqual(registry.tools.map((x) => x.name));
    for (const tool of registry.tools) expect(plain.body[tool.name]).toBe(tool.description);
    const rich = (await t.api('GET', '/api/v1/tool-descriptions?enriched=true', { key: null })).body;
    expect(rich.loci_write).toMatchObject({ description: registry.get('loci_write')!.description, stm_only: false, trust_level: 1 });
    expect(rich.loci_write.input_schema.properties.content.type).toBe('string');
    expect(rich.loci_recall.input_schema.required).toEqual(['query']);
  });
});
