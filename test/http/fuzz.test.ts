// Property-based fuzz over every operation of the OpenAPI document and every MCP tool, with a
// fixed seed: values shaped by each schema mixed with hostile ones (see helpers/fuzz.ts), sent by
// an agent-bound key of one tenant, a read-only key, a wrong key and no key. Properties: never a
// 5xx, never a hang; a 4xx writes nothing; no answer names another tenant's data or another
// agent's scope_agent memories (unless the request itself carried the id), and neither changes;
// the service is healthy throughout.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { headerValue, rawBody, urlPart, valueFor, type Seeds } from '../helpers/fuzz.js';
import { httpClient } from '../mcp/helpers.js';

const SEED = 20261123;
const HTTP_RUNS = 500;
const MCP_RUNS = 250;
const REQUEST_TIMEOUT_MS = 20_000;
const T = 'fuzz';
const VICTIM = 'victim';
const VICTIM_MARK = 'Vexillum harbour code 7731';
const ALICE_MARK = 'Quorvath private ledger 5520';

/** Runs a property; a failure's report is cut short (a counterexample may be megabytes of JSON). */
async function check<T>(arb: fc.Arbitrary<T>, prop: (v: T) => Promise<void>, numRuns: number) {
  try {
    await fc.assert(fc.asyncProperty(arb, prop), { seed: SEED, numRuns, endOnFailure: true });
  } catch (err: any) {
    const cut = (s: string) => (s.length > 1600 ? `${s.slice(0, 800)} …[${s.length - 1600} chars]… ${s.slice(-800)}` : s);
    throw new Error(cut(String(err?.message)) + (err?.cause ? `\ncause: ${cut(String(err.cause?.message ?? err.cause))}` : ''));
  }
}

interface Op {
  method: string;
  path: string;
  params: { in: string; name: string; schema: any; required?: boolean }[];
  body?: any;
  multipart: boolean;
}

interface Sent {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

describe('fuzz: hostile input through HTTP and MCP', () => {
  let t: TestApp;
  let bob: string;
  let reader: string;
  let ops: Op[];
  const secretIds: string[] = [];
  const seeds: Seeds = { byName: Object.create(null) };
  let protectedState: () => Promise<string>;
  let protectedBefore: string;

  /** What a 4xx must leave as it was: every memory, document, entity and keystone. */
  const writtenState = async () => {
    await t.services.bus.drain(10_000);
    const { rows } = await t.services.db.query<{ fp: string }>(`SELECT
      (SELECT count(*) || ':' || coalesce(max(updated_at)::text, '') || ':' || count(deleted_at) || ':' || coalesce(sum(hashtext(status || visibility)), 0) FROM memories)
      || '|' || (SELECT count(*) || ':' || coalesce(max(updated_at)::text, '') FROM documents)
      || '|' || (SELECT count(*) FROM entities) || '|' || (SELECT count(*) FROM keystones) AS fp`);
    return rows[0].fp;
  };

  beforeAll(async () => {
    t = await startTestApp();
    bob = await t.key(T, { agent: 'bob' });
    reader = await t.key(T, { agent: 'bob', trust: 0 });
    const alice = await t.key(T, { agent: 'alice' });
    const victim = await t.key(VICTIM);
    for (const [key, tenant, agent, content, visibility] of [
      [victim, VICTIM, 'v', `${VICTIM_MARK}: the vault opens at dawn.`, 'scope_team'],
      [victim, VICTIM, 'v', `${VICTIM_MARK}: spare keys sit in the blue box.`, 'scope_agent'],
      [alice, T, 'alice', `${ALICE_MARK}: Alice owes Marek forty euros.`, 'scope_agent'],
    ] as const) {
      const r = await t.api('POST', '/api/v1/memories', { key, body: { tenant_id: tenant, agent_id: agent, content, visibility } });
      expect(r.status).toBe(201);
      secretIds.push(r.body.id);
    }
    const doc = await t.api('POST', '/api/v1/documents', { key: victim, body: { tenant_id: VICTIM, collection: 'notes', doc_id: 'd1', data: { text: VICTIM_MARK } } });
    expect(doc.status).toBe(201);
    if (doc.body.id) secretIds.push(doc.body.id);
    const own = await t.api('POST', '/api/v1/memories', { key: bob, body: { tenant_id: T, agent_id: 'bob', content: 'Bob keeps the harbour log.' } });
    await t.api('POST', '/api/v1/documents', { key: bob, body: { tenant_id: T, collection: 'notes', doc_id: 'd1', data: { text: 'bob' } } });

    // Field values that get requests past their first checks: own tenant and ids, and the others'.
    const ids = [own.body.id, ...secretIds];
    Object.assign(seeds.byName, {
      tenant_id: [T, T, T, VICTIM], agent_id: ['bob', 'bob', 'alice'], content: ['Bob moved the harbour log to Pier 4.'],
      query: ['harbour', 'vault', 'ledger'], collection: ['notes', 'skills', '_system'], doc_id: ['d1', 'd2'],
      memory_id: ids, id: ids, ids: [ids], entity_id: ids, run_id: ['run-1'], slug: ['a-skill'], fleet_id: [null],
    });

    const doc_: any = (await t.api('GET', '/api/openapi.json', { key: null })).body;
    ops = [];
    for (const [path, item] of Object.entries<any>(doc_.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        const content = op.requestBody?.content ?? {};
        ops.push({ method: method.toUpperCase(), path, params: op.parameters ?? [], body: content['application/json']?.schema, multipart: !!content['multipart/form-data'] });
      }
    }
    expect(ops.length).toBeGreaterThan(50);

    // Rows the fuzzing caller must never change: the other tenant's and alice's private memory.
    protectedState = async () => {
      const { rows } = await t.services.db.query(
        `SELECT id, content, status, deleted_at, updated_at FROM memories WHERE tenant_id = $1 OR agent_id = 'alice' ORDER BY id`, [VICTIM]);
      const docs = await t.services.db.query(`SELECT id, data, updated_at FROM documents WHERE tenant_id = $1 ORDER BY id`, [VICTIM]);
      return JSON.stringify([rows, docs.rows]);
    };
    protectedBefore = await protectedState();
  });
  afterAll(async () => t?.close());

  const keyArb = fc.constantFrom<string | null>(...Array(8).fill('bob'), 'reader', null, 'loci_not-a-real-key-000000000000');
  const resolveKey = (k: string | null) => (k === 'bob' ? bob : k === 'reader' ? reader : k);

  const requestFor = (op: Op): fc.Arbitrary<Sent> => {
    const paramArbs = op.params.map((p) => (p.in === 'header' ? fc.option(headerValue, { freq: 2 }) : fc.option(valueFor(p.schema, seeds, p.name), { freq: p.required ? 8 : 2 })));
    const body = op.body
      ? fc.oneof({ weight: 5, arbitrary: valueFor(op.body, seeds).map((v) => JSON.stringify(v) ?? 'null') }, { weight: 1, arbitrary: rawBody })
      : fc.option(rawBody, { freq: 3 });
    return fc.tuple(keyArb, fc.tuple(...paramArbs), body).map(([key, values, raw]) => {
      let path = op.path;
      const query: string[] = [];
      const headers: Record<string, string> = {};
      op.params.forEach((p, i) => {
        const v = values[i];
        if (p.in === 'path') path = path.replace(`{${p.name}}`, v === null ? '' : urlPart(v));
        else if (v === null) return;
        else if (p.in === 'query') query.push(`${p.name}=${urlPart(v)}`);
        else if (p.in === 'header') headers[p.name] = String(v);
      });
      const k = resolveKey(key);
      if (k) headers['x-api-key'] = k;
      if (op.multipart) {
        headers['content-type'] = 'multipart/form-data; boundary=fuzz';
        raw = `--fuzz\r\nContent-Disposition: form-data; name="file"; filename="../../etc/passwd"\r\n\r\n${raw ?? 'x'}\r\n--fuzz--\r\n`;
      } else if (raw !== null) headers['content-type'] = 'application/json';
      return { method: op.method, url: path + (query.length ? `?${query.join('&')}` : ''), headers, body: raw ?? undefined };
    });
  };

  /** Secrets the answer names that the request did not carry itself. */
  const leaked = (text: string, sent: string) =>
    [VICTIM_MARK, ALICE_MARK, ...secretIds].filter((s) => text.toLowerCase().includes(s.toLowerCase()) && !sent.toLowerCase().includes(s.toLowerCase()));

  it('HTTP: every operation answers hostile input with a 4xx that writes nothing, or a 2xx; nothing leaks', async () => {
    let n = 0;
    const statuses = new Map<number, number>();
    await check(fc.nat(ops.length - 1).chain((i) => requestFor(ops[i])), async (req) => {
        const before = await writtenState();
        let res: Response;
        try {
          res = await fetch(t.url + req.url, { method: req.method, headers: req.headers, body: req.method === 'GET' || req.method === 'HEAD' ? undefined : req.body, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
        } catch (err: any) {
          if (err?.name === 'TimeoutError') throw new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms: ${req.method} ${req.url}`);
          if (err instanceof TypeError && /header|URL|url/i.test(String(err.message))) return; // the client itself refused to send it
          throw err;
        }
        const text = await res.text();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        const label = `${req.method} ${req.url.slice(0, 200)} → ${res.status} ${text.slice(0, 300)}`;
        expect(res.status, label).toBeLessThan(500);
        expect(leaked(text, req.url + JSON.stringify(req.headers) + (req.body ?? '')), label).toEqual([]);
        if (res.status >= 400) {
          expect(await writtenState(), `a ${res.status} changed stored data: ${label}`).toBe(before);
          // /mcp answers in JSON-RPC, as its protocol says; every other 4xx but 422 is problem+json.
          if (res.status !== 422 && !req.url.startsWith('/mcp')) expect(res.headers.get('content-type') ?? '', label).toContain('application/problem+json');
        }
        if (++n % 40 === 0) expect((await t.api('GET', '/api/v1/health', { key: null })).status).toBe(200);
    }, HTTP_RUNS);
    // The run reached past validation: some requests succeeded, many were refused.
    expect([...statuses].filter(([s]) => s < 300).reduce((a, [, c]) => a + c, 0)).toBeGreaterThan(10);
    expect(statuses.get(422) ?? 0).toBeGreaterThan(50);
    expect((await t.api('GET', '/api/v1/health', { key: null })).status).toBe(200);
    expect(await protectedState()).toBe(protectedBefore);
  }, 120_000);

  it('MCP: every tool answers hostile arguments with a tool error or a result; never a 5xx, nothing leaks', async () => {
    const clients: Client[] = [await httpClient(t.url, { 'x-api-key': bob }), await httpClient(t.url, { 'x-api-key': reader })];
    try {
      const { tools } = await clients[0].listTools();
      expect(tools.length).toBeGreaterThan(5);
      const callArb = fc.tuple(
        fc.constantFrom(0, 0, 0, 1),
        fc.oneof(
          { weight: 9, arbitrary: fc.nat(tools.length - 1).chain((i) => valueFor(tools[i].inputSchema as any, seeds).map((args) => [tools[i].name, args] as const)) },
          { weight: 1, arbitrary: fc.constantFrom('no_such_tool', '__proto__', 'constructor').map((name) => [name, {}] as const) },
        ),
      );
      await check(callArb, async ([which, [name, args]]) => {
          const before = await writtenState();
          const sent = JSON.stringify(args) ?? '';
          let result: any;
          try {
            result = await clients[which].callTool({ name, arguments: args as Record<string, unknown> }, undefined, { timeout: REQUEST_TIMEOUT_MS });
          } catch (err: any) {
            // A protocol-level refusal (arguments not an object): a JSON-RPC error, never a hang.
            expect(String(err?.message), `${name} ${sent.slice(0, 200)}`).not.toMatch(/timed out|timeout/i);
            expect(await writtenState()).toBe(before);
            return;
          }
          const text = (result.content as { text: string }[]).map((c) => c.text).join('');
          const label = `${name} ${sent.slice(0, 200)} → ${text.slice(0, 300)}`;
          let body: any = null;
          try {
            body = JSON.parse(text);
          } catch {
            // a tool's plain-text answer
          }
          if (result.isError) {
            expect(body?.status ?? 422, label).toBeLessThan(500);
            expect(await writtenState(), `a refused call changed stored data: ${label}`).toBe(before);
          }
          expect(leaked(text, sent), label).toEqual([]);
      }, MCP_RUNS);
    } finally {
      for (const c of clients) await c.close();
    }
    expect((await t.api('GET', '/api/v1/health', { key: null })).status).toBe(200);
    expect(await protectedState()).toBe(protectedBefore);
  }, 120_000);
});
