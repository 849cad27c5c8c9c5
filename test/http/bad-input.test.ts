// Values Postgres cannot hold are the caller's 4xx, refused where they enter and changing
// nothing: NUL and lone surrogates in any string (body, keys, query, path; per item in bulk),
// uuid spellings beyond the canonical one, instants outside what timestamptz stores, and
// over-long or malformed paths (problem+json, not the framework's own body).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';

const T = 'default';
const ID = '6ba7b810-9dad-11d1-80b4-00c04fd430c8';

describe('bad input is a 4xx that writes nothing', () => {
  let t: TestApp;
  const count = async () => (await t.api('GET', `/api/v1/memories/count?tenant_id=${T}`)).body.count as number;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  it('NUL or a lone surrogate anywhere in a JSON body: 422 located at the string', async () => {
    const before = await count();
    const cases: [string, string, (string | number)[]][] = [
      ['/api/v1/memories', `{"tenant_id":"${T}","agent_id":"a","content":"x\\u0000y"}`, ['body', 'content']],
      ['/api/v1/memories', `{"tenant_id":"${T}","agent_id":"a\\u0000","content":"x"}`, ['body', 'agent_id']],
      ['/api/v1/memories', `{"tenant_id":"${T}","agent_id":"a","content":"x","metadata":{"k\\u0000":1}}`, ['body', 'metadata', 'k\u0000']],
      ['/api/v1/memories', `{"tenant_id":"${T}","agent_id":"a","content":"x","metadata":{"k":["\\ud800"]}}`, ['body', 'metadata', 'k', 0]],
      ['/api/v1/memories', `{"tenant_id":"${T}","agent_id":"a","content":"lone low \\udc00"}`, ['body', 'content']],
      ['/api/v1/search', `{"tenant_id":"${T}","query":"x","fleet_id":"f\\u0000"}`, ['body', 'fleet_id']],
      ['/api/v1/documents', `{"tenant_id":"${T}","collection":"notes","doc_id":"d","data":{"a":"\\u0000"}}`, ['body', 'data', 'a']],
      ['/api/v1/ingest/commit', `{"tenant_id":"${T}","facts":[{"content":"\\u0000"}]}`, ['body', 'facts', 0, 'content']],
    ];
    for (const [path, raw, loc] of cases) {
      const res = await t.api('POST', path, { raw });
      expect(res.status, raw).toBe(422);
      expect(res.body.detail[0]).toMatchObject({ loc, type: 'string_unstorable' });
    }
    // A valid surrogate pair is ordinary text.
    const emoji = await t.api('POST', '/api/v1/memories', { raw: `{"tenant_id":"${T}","agent_id":"a","content":"smile \\ud83d\\ude00"}` });
    expect(emoji.status).toBe(201);
    expect(emoji.body.content).toBe('smile 😀');
    expect(await count()).toBe(before + 1);
  });

  it('NUL in a query or path value: 422', async () => {
    const q = await t.api('GET', `/api/v1/memories?tenant_id=${T}&fleet_id=a%00b`);
    expect(q.status).toBe(422);
    expect(q.body.detail[0]).toMatchObject({ loc: ['query', 'fleet_id'], type: 'string_unstorable' });
    const p = await t.api('POST', `/api/v1/ingest/undo/run%00x?tenant_id=${T}`);
    expect(p.status).toBe(422);
    expect(p.body.detail[0]).toMatchObject({ loc: ['path', 'run_id'] });
  });

  it('in bulk a faulty string is that item\'s error; the others are written', async () => {
    const before = await count();
    const raw = `{"tenant_id":"${T}","agent_id":"a","items":[{"content":"bulk fine"},{"content":"bulk \\u0000"},{"content":"x","metadata":{"\\ud800":1}}]}`;
    const res = await t.api('POST', '/api/v1/memories/bulk', { raw, headers: { 'x-bulk-attempt-id': 'nul-items' } });
    expect(res.status).toBe(207);
    expect(res.body.results.map((r: any) => r.status)).toEqual(['created', 'error', 'error']);
    expect(res.body.results[1].error.detail[0]).toMatchObject({ loc: ['body', 'items', 1, 'content'], type: 'string_unstorable' });
    expect(res.body.results[2].error.detail[0].loc).toEqual(['body', 'items', 2, 'metadata', '\ud800']);
    // Outside the items it is the request's 422.
    const env = await t.api('POST', '/api/v1/memories/bulk', {
      raw: `{"tenant_id":"${T}","agent_id":"a\\u0000","items":[{"content":"never"}]}`, headers: { 'x-bulk-attempt-id': 'nul-env' },
    });
    expect(env.status).toBe(422);
    expect(await count()).toBe(before + 1);
  });

  it('only canonical uuids are ids: urn:, braces, bare hex are 422', async () => {
    for (const id of [`urn:uuid:${ID}`, `%7B${ID}%7D`, ID.replaceAll('-', ''), `${ID}x`]) {
      const res = await t.api('GET', `/api/v1/memories/${id}?tenant_id=${T}`);
      expect(res.status, id).toBe(422);
      expect(res.body.detail[0]).toMatchObject({ loc: ['path', 'memory_id'], type: 'uuid_parsing' });
    }
    const body = await t.api('POST', '/api/v1/memories', { body: { tenant_id: T, agent_id: 'a', content: 'urn subject', subject_entity_id: `urn:uuid:${ID}` } });
    expect(body.status).toBe(422);
    const del = await t.api('POST', '/api/v1/memories/bulk-delete', { body: { tenant_id: T, ids: [`urn:uuid:${ID}`] } });
    expect(del.status).toBe(422);
    expect((await t.api('GET', `/api/v1/memories/${ID.toUpperCase()}?tenant_id=${T}`)).status).toBe(404);
  });

  it('instants timestamptz cannot hold are 422; its edges are stored', async () => {
    for (const at of ['0000-01-01T00:00:00Z', '2020-01-01T00:00:00+16:00', '2020-01-01T00:00:00-23:59', '2021-02-29T00:00:00Z', '2020-04-31T10:00:00Z']) {
      const res = await t.api('POST', '/api/v1/memories', { body: { tenant_id: T, agent_id: 'a', content: `expiry ${at}`, expires_at: at } });
      expect(res.status, at).toBe(422);
      expect(res.body.detail[0]).toMatchObject({ loc: ['body', 'expires_at'], type: 'datetime_parsing' });
    }
    const q = await t.api('GET', `/api/v1/memories?tenant_id=${T}&created_after=0000-12-31T00:00:00Z`);
    expect(q.status).toBe(422);
    const s = await t.api('POST', '/api/v1/search', { body: { tenant_id: T, query: 'x', valid_at: '2020-01-01T00:00:00+20:00' } });
    expect(s.status).toBe(422);
    for (const at of ['0001-01-01T00:00:00Z', '9999-12-31T23:59:59.999999-15:59', '2020-02-29T12:00:00+15:59']) {
      const res = await t.api('POST', '/api/v1/memories', { body: { tenant_id: T, agent_id: 'a', content: `edge ${at}`, ts_valid_start: at } });
      expect(res.status, at).toBe(201);
    }
    // A cursor carrying an impossible instant is a 422, not a database error.
    const cursor = Buffer.from(`0000-01-01T00:00:00Z|${ID}`).toString('base64url');
    expect((await t.api('GET', `/api/v1/memories?tenant_id=${T}&cursor=${cursor}`)).status).toBe(422);
  });

  it('an over-long or malformed path answers problem+json', async () => {
    const long = await t.api('GET', `/api/v1/memories/${'a'.repeat(2000)}?tenant_id=${T}`);
    expect(long.status).toBe(414);
    expect(long.headers.get('content-type')).toContain('application/problem+json');
    expect(long.body).toMatchObject({ status: 414, title: 'URI Too Long' });
    const bad = await t.api('GET', `/api/v1/memories/%zz?tenant_id=${T}`);
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toContain('application/problem+json');
    // Beyond the server's header size the HTTP parser answers, still as problem+json.
    const huge = await t.api('GET', `/api/v1/memories?tenant_id=${T}&fleet_id=${'f'.repeat(20_000)}`);
    expect(huge.status).toBe(431);
    expect(huge.headers.get('content-type')).toContain('application/problem+json');
    expect(huge.body).toMatchObject({ status: 431, title: 'Request Header Fields Too Large' });
    // A run id of the full 200 characters the schema allows still reaches its route.
    const undo = await t.api('POST', `/api/v1/ingest/undo/${'r'.repeat(200)}?tenant_id=${T}`);
    expect(undo.status).toBe(200);
    expect((await t.api('GET', '/api/v1/health')).status).toBe(200);
  });
});
