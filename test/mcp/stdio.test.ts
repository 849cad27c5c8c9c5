// `loci mcp` over stdio, driven by the SDK's own Client spawning the real bin/loci.js: as a proxy
// to a running server (LOCI_URL + LOCI_API_KEY) and on its own embedded data dir, including the
// one-line refusals to start (a held data dir naming its holder, a wrong key).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { caller, failedStart, ok, refused, stdioClient } from './helpers.js';
import { everyTool, refusals } from './scenario.js';

const T = 'mcp-stdio';
const SLOW = 300_000; // a child process booting the database and the embedder on a shared 2-core machine
// The embedded server meters its caller like REST; the scenarios write faster than the defaults allow.
const UNMETERED = { LOCI_RATE_WRITE: '100000', LOCI_RATE_BULK: '100000', LOCI_RATE_SEARCH: '100000', LOCI_RATE_OTHER: '100000' };

/** A refusal to start: exit code 1, nothing on stdout (the protocol channel), one line on stderr. */
function expectOneLine(r: { code: number | null; stdout: string; stderr: string }, pattern: RegExp) {
  expect(r.code, r.stderr).toBe(1);
  expect(r.stdout).toBe('');
  const lines = r.stderr.trim().split('\n');
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^loci mcp: /);
  expect(lines[0]).toMatch(pattern);
}

describe('loci mcp with LOCI_URL and LOCI_API_KEY (proxy to a running server)', () => {
  let t: TestApp;
  let bob: string;
  beforeAll(async () => {
    t = await startTestApp();
    bob = await t.key(T, { agent: 'bob', trust: 2 });
    const rule = { doc_id: 'proxy-rule', title: 'Proxy rule', content: 'Answer in English.', scope: 'tenant', weight: 'high' };
    expect((await t.api('POST', '/api/v1/loci/keystones', { key: bob, body: rule })).status).toBe(200);
  });
  afterAll(async () => t?.close());

  it('serves every tool, carries the keystones in its instructions and refuses what HTTP refuses', async () => {
    const s = await stdioClient({ LOCI_URL: t.url, LOCI_API_KEY: bob });
    try {
      expect(s.client.getInstructions()).toContain('Proxy rule');
      expect((await s.client.listTools()).tools).toHaveLength(9);
      // Active skills are prompts, through the proxy too (none are active here).
      expect((await s.client.listPrompts()).prompts).toEqual([]);
      const call = caller(s.client);
      await everyTool(call, { tenant: T, agent: 'bob', tag: 'p1' });
      await refusals(call, { tenant: T, agent: 'bob', tag: 'p2' });
    } finally {
      await s.client.close();
    }
  }, SLOW);

  it('applies the key\'s trust level', async () => {
    const s = await stdioClient({ LOCI_URL: `${t.url}/`, LOCI_API_KEY: await t.key(T, { agent: 'rita', trust: 0 }) });
    try {
      const call = caller(s.client);
      expect((await refused(call, 403, 'loci_write', { content: 'I may not write.' })).detail).toMatch(/trust level 1/);
      await ok(call, 'loci_keystones');
    } finally {
      await s.client.close();
    }
  }, SLOW);

  it('refuses to start with a wrong key or an unreachable server, in one line', async () => {
    expectOneLine(await failedStart({ LOCI_URL: t.url, LOCI_API_KEY: 'loci_not-a-key' }), /refused LOCI_API_KEY \(401\)/);
    expectOneLine(await failedStart({ LOCI_URL: 'http://127.0.0.1:1', LOCI_API_KEY: bob }), /cannot reach Loci at http:\/\/127\.0\.0\.1:1\/mcp/);
    expectOneLine(await failedStart({ LOCI_URL: 'not a url', LOCI_API_KEY: bob }), /LOCI_URL is not a URL/);
  }, SLOW);
});

describe('loci mcp on an embedded data dir', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'loci-mcp-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('opens the data dir itself and serves every tool as the standalone tenant at trust 1', async () => {
    const s = await stdioClient({ ...UNMETERED, LOCI_DATA_DIR: dir, LOCI_AGENT_ID: 'eve' });
    try {
      const call = caller(s.client);
      await everyTool(call, { tenant: 'default', agent: 'eve', tag: 'e1' });
      await refusals(call, { tenant: 'default', agent: 'eve', tag: 'e2' });
      // Trust 1: its own agent rule, not a tenant rule.
      await refused(call, 403, 'loci_keystones_set', { op: 'set', doc_id: 'eve-tenant', title: 't', content: 'c', scope: 'tenant', weight: 'low' });
      await ok(call, 'loci_keystones_set', { op: 'set', doc_id: 'eve-own', title: 'Eve rule', content: 'Sign with E.', scope: 'agent', agent_id: 'eve', weight: 'med' });
    } finally {
      await s.client.close();
    }
  }, SLOW);

  it('carries the keystones in the next session\'s instructions, and refuses a second process naming the holder\'s pid', async () => {
    // The first session made the admin key; with it, a tenant rule heavier than eve's own.
    const admin = readFileSync(join(dir, 'admin.key'), 'utf8').trim();
    const a = await stdioClient({ LOCI_DATA_DIR: dir, LOCI_API_KEY: admin });
    await ok(caller(a.client), 'loci_keystones_set', { op: 'set', doc_id: 'house', title: 'House rule', content: 'Cite ids.', scope: 'tenant', weight: 'high' });
    await a.client.close();

    const s = await stdioClient({ ...UNMETERED, LOCI_DATA_DIR: dir, LOCI_AGENT_ID: 'eve' });
    try {
      const text = s.client.getInstructions()!;
      expect(text).toContain('Eve rule');
      expect(text.indexOf('House rule')).toBeGreaterThan(0);
      expect(text.indexOf('House rule')).toBeLessThan(text.indexOf('Eve rule'));
      const pid = s.transport.pid!;
      expect(pid).toBeGreaterThan(0);
      const held = await failedStart({ LOCI_DATA_DIR: dir });
      expectOneLine(held, new RegExp(`held by process ${pid}\\b`));
      expect(held.stderr).toContain('LOCI_URL');
      // The refused process left the holder serving.
      expect((await ok(caller(s.client), 'loci_stats')).scope).toBe('agent');
    } finally {
      await s.client.close();
    }
    expectOneLine(await failedStart({ LOCI_DATA_DIR: dir, LOCI_API_KEY: 'loci_not-a-key' }), /LOCI_API_KEY is not an active key/);
  }, SLOW);
});
