// POST /api/v1/memories/bulk over HTTP: statuses (200 / 207 / 504 / 400 / 422), per-row attempt
// determinism, duplicates, per-item errors, concurrency of retries, tenant isolation.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, withConfig, type TestApp } from '../helpers/app.js';
import { holdEmbedder } from '../helpers/hold.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

let seq = 0;

function bulk(body: Record<string, unknown>, opts: { attempt?: string | null; key?: string; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.attempt !== null) headers['x-bulk-attempt-id'] = opts.attempt ?? `attempt-${++seq}`;
  return t.api('POST', '/api/v1/memories/bulk', { key: opts.key, body, headers });
}

/** Distinct contents: exact duplicates are refused. */
const items = (n: number, tag = `batch${++seq}`) =>
  Array.from({ length: n }, (_, i) => ({ content: `${tag} item ${i}: the release train for Orion leaves on Friday.` }));

async function count(tenant: string, where = 'true', params: unknown[] = []): Promise<number> {
  const { rows } = await t.services.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM memories WHERE tenant_id = $1 AND ${where}`, [tenant, ...params]);
  return rows[0].n;
}

describe('bulk write: statuses and results', () => {
  it('200 with every item created, one client_request_id per index, and the rows stored with their fields', async () => {
    const r = await bulk({
      tenant_id: 'b1', agent_id: 'a1', fleet_id: 'f1',
      items: [
        { content: 'Ada Lovelace wrote the first program in London.', memory_type: 'decision', metadata: { k: 1 } },
        { content: 'The deploy window is Tuesday.', fleet_id: 'f2', agent_id: 'a2', visibility: 'scope_agent', title: 'Window' },
        { content: '  Trimmed content.  ', weight: 0.9 },
      ],
    }, { attempt: 'first-batch' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ created: 3, duplicates: 0, errors: 0, usage: { memories_stored: 3, memories_limit: 100_000, writes_remaining: 99_997 } });
    expect(typeof r.body.bulk_ms).toBe('number');
    expect(r.body.results.map((x: any) => [x.index, x.client_request_id, x.status, x.error, x.duplicate_of])).toEqual([
      [0, 'first-batch:0', 'created', null, null],
      [1, 'first-batch:1', 'created', null, null],
      [2, 'first-batch:2', 'created', null, null],
    ]);
    const [a, b, c] = await Promise.all(r.body.results.map((x: any) => t.api('GET', `/api/v1/memories/${x.id}?tenant_id=b1&agent_id=a2`)));
    expect(a.body).toMatchObject({ tenant_id: 'b1', agent_id: 'a1', fleet_id: 'f1', memory_type: 'decision', metadata: { k: 1 }, visibility: 'scope_team' });
    expect(a.body.entity_links.map((l: any) => l.name)).toContain('Ada Lovelace');
    // The vector went over in binary and reads back as the embedder made it.
    const [expected] = await t.services.embedder.embed(['Ada Lovelace wrote the first program in London.']);
    expect(a.body.embedding).toHaveLength(512);
    a.body.embedding.forEach((x: number, i: number) => expect(x).toBeCloseTo(expected[i], 5));
    expect(b.body).toMatchObject({ agent_id: 'a2', fleet_id: 'f2', visibility: 'scope_agent', title: 'Window' });
    expect(c.body).toMatchObject({ content: 'Trimmed content.', weight: 0.9 });
    const { rows } = await t.services.db.query(`SELECT client_request_id FROM memories WHERE tenant_id = 'b1' ORDER BY client_request_id`);
    expect(rows.map((x) => x.client_request_id)).toEqual(['first-batch:0', 'first-batch:1', 'first-batch:2']);
  });

  it('a retry of the attempt answers duplicate_attempt with the same ids for stored rows and creates the rest', async () => {
    const all = items(5);
    const first = await bulk({ tenant_id: 'b2', agent_id: 'a1', items: all.slice(0, 3) }, { attempt: 'retry-me' });
    expect(first.status).toBe(200);
    const retry = await bulk({ tenant_id: 'b2', agent_id: 'a1', items: all }, { attempt: 'retry-me' });
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ created: 2, duplicates: 3, errors: 0 });
    expect(retry.body.results.map((x: any) => x.status)).toEqual(['duplicate_attempt', 'duplicate_attempt', 'duplicate_attempt', 'created', 'created']);
    expect(retry.body.results.slice(0, 3).map((x: any) => x.id)).toEqual(first.body.results.map((x: any) => x.id));
    const again = await bulk({ tenant_id: 'b2', agent_id: 'a1', items: all }, { attempt: 'retry-me' });
    expect(again.body.results.map((x: any) => x.status)).toEqual(Array(5).fill('duplicate_attempt'));
    expect(again.body.results.map((x: any) => x.id)).toEqual(retry.body.results.map((x: any) => x.id));
    expect(await count('b2')).toBe(5);
    // Another attempt with the same contents: duplicates of content, pointing at the stored rows.
    const other = await bulk({ tenant_id: 'b2', agent_id: 'a1', items: all }, { attempt: 'another' });
    expect(other.status).toBe(200);
    expect(other.body.results.map((x: any) => [x.status, x.id, x.duplicate_of])).toEqual(
      again.body.results.map((x: any) => ['duplicate_content', null, x.id]));
    expect(await count('b2')).toBe(5);
  });

  it('duplicate_content for content already stored (single write or earlier in the batch); another fleet is not a duplicate', async () => {
    const single = await t.api('POST', '/api/v1/memories', { body: { tenant_id: 'b3', agent_id: 'a1', content: 'The build server is called Orion.' } });
    expect(single.status).toBe(201);
    const r = await bulk({
      tenant_id: 'b3', agent_id: 'a1',
      items: [
        { content: ' The build server is called Orion.' },
        { content: 'Nightly backups run at 02:00.' },
        { content: 'Nightly backups run at 02:00.  ' },
        { content: 'The build server is called Orion.', fleet_id: 'elsewhere' },
      ],
    });
    expect(r.status).toBe(200);
    const res = r.body.results;
    expect(res.map((x: any) => x.status)).toEqual(['duplicate_content', 'created', 'duplicate_content', 'created']);
    expect(res[0]).toMatchObject({ id: null, duplicate_of: single.body.id, error: null });
    expect(res[2]).toMatchObject({ id: null, duplicate_of: res[1].id });
    expect(r.body).toMatchObject({ created: 2, duplicates: 2, errors: 0 });
    expect(await count('b3')).toBe(3);
  });

  it('207 when some items fail and others succeed; each failure names its cause and location', async () => {
    const r = await bulk({
      tenant_id: 'b4', agent_id: 'a1',
      items: [
        { content: 'A valid memory about the roadmap.' },
        { content: '   ' },
        'not an object',
        { content: 'Server-produced type', memory_type: 'rule' },
        { content: 'Bad weight', weight: 2 },
        { content: 'Another tenant', tenant_id: 'someone-else' },
        { content: 'Inverted validity', ts_valid_start: '2025-01-01T00:00:00Z', ts_valid_end: '2024-01-01T00:00:00Z' },
        { content: 'x'.repeat(10_001) },
        { content: 'Another valid memory about the roadmap.' },
      ],
    });
    expect(r.status).toBe(207);
    expect(r.body).toMatchObject({ created: 2, duplicates: 0, errors: 7 });
    const res = r.body.results;
    expect(res.map((x: any) => x.status)).toEqual(['created', 'error', 'error', 'error', 'error', 'error', 'error', 'error', 'created']);
    for (const x of res.slice(1, 8)) {
      expect(x.error.code).toBe('validation');
      expect(x.id).toBeNull();
    }
    const locs = res.slice(1, 8).map((x: any) => x.error.detail.map((d: any) => d.loc));
    expect(locs[0]).toContainEqual(['body', 'items', 1, 'content']);
    expect(locs[1]).toContainEqual(['body', 'items', 2]);
    expect(locs[2]).toContainEqual(['body', 'items', 3, 'memory_type']);
    expect(locs[3]).toContainEqual(['body', 'items', 4, 'weight']);
    expect(locs[4]).toContainEqual(['body', 'items', 5, 'tenant_id']);
    expect(locs[5]).toContainEqual(['body', 'items', 6, 'ts_valid_end']);
    expect(locs[6]).toContainEqual(['body', 'items', 7, 'content']);
    for (const d of res[3].error.detail) expect(Object.keys(d).sort()).toEqual(['ctx', 'input', 'loc', 'msg', 'type']);
    expect(await count('b4')).toBe(2);
    expect(await count('someone-else')).toBe(0);
  });

  it('200 (not 422) when every item is an error, and nothing is stored', async () => {
    const r = await bulk({ tenant_id: 'b5', agent_id: 'a1', items: [{ content: '' }, { content: 'ok', memory_type: 'insight' }] });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ created: 0, duplicates: 0, errors: 2, usage: { memories_stored: 0 } });
    expect(r.body.results.map((x: any) => x.error.code)).toEqual(['validation', 'validation']);
    expect(await count('b5')).toBe(0);
  });

  it('400 without X-Bulk-Attempt-Id; 422 for a malformed attempt id, a bad envelope or more than 100 items; nothing stored', async () => {
    const body = { tenant_id: 'b6', agent_id: 'a1', items: items(1) };
    const missing = await bulk(body, { attempt: null });
    expect(missing.status).toBe(400);
    expect(missing.headers.get('content-type')).toMatch(/problem\+json/);
    expect(missing.body.detail).toMatch(/X-Bulk-Attempt-Id/);
    const badId = await bulk(body, { attempt: 'has spaces' });
    expect(badId.status).toBe(422);
    expect(badId.body.detail[0].loc).toEqual(['header', 'x-bulk-attempt-id']);
    const tooLong = await bulk(body, { attempt: 'a'.repeat(129) });
    expect(tooLong.status).toBe(422);
    const cases: [Record<string, unknown>, (string | number)[]][] = [
      [{ tenant_id: 'b6', agent_id: 'a1', items: items(101) }, ['body', 'items']],
      [{ tenant_id: 'b6', agent_id: 'a1', items: [] }, ['body', 'items']],
      [{ tenant_id: 'b6', agent_id: 'a1', items: items(1), surprise: true }, ['body', 'surprise']],
      [{ tenant_id: 'b6', agent_id: 'a1', items: 'many' }, ['body', 'items']],
      [{ tenant_id: 'b6', agent_id: 'a1', fleet_id: '', items: items(1) }, ['body', 'fleet_id']],
    ];
    for (const [b, loc] of cases) {
      const r = await bulk(b);
      expect(r.status, JSON.stringify(loc)).toBe(422);
      expect(r.body.detail.map((d: any) => d.loc)).toContainEqual(loc);
    }
    // Exactly 100 is within bounds.
    const hundred = await bulk({ tenant_id: 'b6h', agent_id: 'a1', items: items(100) });
    expect(hundred.status).toBe(200);
    expect(hundred.body.created).toBe(100);
    expect(await count('b6')).toBe(0);
  });

  it('answers 401 without a key and 403 for a read-only key', async () => {
    const body = { tenant_id: 'b7', agent_id: 'a1', items: items(1) };
    expect((await bulk(body, { key: null as unknown as string })).status).toBe(401);
    const ro = await t.key('b7', { trust: 0 });
    expect((await bulk(body, { key: ro })).status).toBe(403);
    expect(await count('b7')).toBe(0);
  });
});

describe('bulk write: concurrency and failures', () => {
  it('two concurrent retries of one attempt store one row per item and agree on the ids', async () => {
    const body = { tenant_id: 'c1', agent_id: 'a1', items: items(20) };
    const [x, y] = await Promise.all([bulk(body, { attempt: 'race' }), bulk(body, { attempt: 'race' })]);
    expect([x.status, y.status]).toEqual([200, 200]);
    for (let i = 0; i < 20; i++) {
      const pair = [x.body.results[i], y.body.results[i]];
      expect(pair.map((p) => p.status).sort()).toEqual(['created', 'duplicate_attempt']);
      expect(pair[0].id).toBe(pair[1].id);
    }
    expect(await count('c1')).toBe(20);
    const { rows } = await t.services.db.query(
      `SELECT client_request_id, count(*)::int AS n FROM memories WHERE tenant_id = 'c1' GROUP BY 1 HAVING count(*) > 1`);
    expect(rows).toEqual([]);
  });

  it('504 with no per-item state when the budget runs out, and the retry stores every item exactly once', async () => {
    const body = { tenant_id: 'c2', agent_id: 'a1', items: items(5) };
    const r = await withConfig(t, { bulkBudgetMs: 1 }, () => bulk(body, { attempt: 'late' }));
    expect(r.status).toBe(504);
    expect(r.headers.get('content-type')).toMatch(/problem\+json/);
    expect(r.body).toMatchObject({ status: 504 });
    expect(r.body.results).toBeUndefined();
    expect(await count('c2')).toBe(0);
    const retry = await bulk(body, { attempt: 'late' });
    expect(retry.status).toBe(200);
    expect(retry.body.results.map((x: any) => x.status)).toEqual(Array(5).fill('created'));
    expect(await count('c2')).toBe(5);
  });

  it('504 while storage is busy: the queued transaction never commits, and the retry stores every item once', async () => {
    await bulk({ tenant_id: 'warm', agent_id: 'a1', items: items(2) }); // models loaded: enrichment is quick
    const body = { tenant_id: 'c3', agent_id: 'a1', items: items(4) };
    // When the batch asks for its transaction, another one takes storage first and holds it past the budget.
    let release!: () => void;
    const held = new Promise<void>((r) => { release = r; });
    let blocker: Promise<void> | undefined;
    const db = t.services.db;
    const tx = db.tx.bind(db);
    const spy = vi.spyOn(db, 'tx').mockImplementation(((fn: Parameters<typeof db.tx>[0]) => {
      blocker ??= tx(async () => { await held; });
      return tx(fn);
    }) as typeof db.tx);
    let r;
    try {
      // A budget below the pg pool's 5 s connect timeout (LOCI_TEST_DB=pg).
      r = await withConfig(t, { bulkBudgetMs: 4_000 }, () => bulk(body, { attempt: 'blocked' }));
    } finally {
      spy.mockRestore();
      release();
      await blocker;
    }
    expect(blocker).toBeDefined(); // the batch reached its transaction before the budget ran out
    expect(r.status).toBe(504);
    expect(r.body.results).toBeUndefined();
    // The bulk transaction, queued behind the blocker, ran after it and rolled back.
    expect(await count('c3')).toBe(0);
    const retry = await bulk(body, { attempt: 'blocked' });
    expect(retry.status).toBe(200);
    expect(retry.body.created).toBe(4);
    expect(await count('c3')).toBe(4);
  });

  it('enrichment that does not finish in time fails only its items (207), and the retry creates them', async () => {
    await bulk({ tenant_id: 'warm', agent_id: 'a1', items: items(2) }); // models loaded
    const body = { tenant_id: 'c4', agent_id: 'a1', items: [{ content: 'Fast one about Paris.' }, { content: 'SLOW: Bob met Alice in Rome.' }, { content: 'Fast two about Berlin.' }] };
    const extract = t.services.entities.extract.bind(t.services.entities);
    let finish!: () => void;
    const slow = new Promise<void>((r) => { finish = r; });
    const spy = vi.spyOn(t.services.entities, 'extract').mockImplementation(async (text: string) => {
      if (text.includes('SLOW')) await slow;
      return extract(text);
    });
    let r;
    try {
      r = await withConfig(t, { bulkEnrichTimeoutMs: 3_000 }, () => bulk(body, { attempt: 'slow' }));
    } finally {
      spy.mockRestore();
      finish();
    }
    expect(r.status).toBe(207);
    expect(r.body.results.map((x: any) => x.status)).toEqual(['created', 'error', 'created']);
    expect(r.body.results[1].error.code).toBe('enrichment_timeout');
    expect(await count('c4')).toBe(2);
    const retry = await bulk(body, { attempt: 'slow' });
    expect(retry.body.results.map((x: any) => x.status)).toEqual(['duplicate_attempt', 'created', 'duplicate_attempt']);
    expect(await count('c4')).toBe(3);
  });

  it('an embedder that does not answer in time fails every item (200, all errors); a failing embedder is a 503', async () => {
    const body = { tenant_id: 'c5', agent_id: 'a1', items: items(2) };
    let giveUp!: (err: Error) => void;
    const hang = vi.spyOn(t.services.embedder, 'embed').mockImplementation(() => new Promise((_, reject) => { giveUp = reject; }));
    try {
      const r = await withConfig(t, { bulkEnrichTimeoutMs: 300 }, () => bulk(body));
      expect(r.status).toBe(200);
      expect(r.body.results.map((x: any) => x.error?.code)).toEqual(['enrichment_timeout', 'enrichment_timeout']);
    } finally {
      hang.mockRestore();
      giveUp(new Error('the model answers at last')); // frees the batch's enrichment place
    }
    const crash = vi.spyOn(t.services.embedder, 'embed').mockRejectedValueOnce(new Error('model crashed'));
    try {
      const r = await bulk(body);
      expect(r.status).toBe(503);
      expect(r.text).not.toContain('model crashed');
    } finally {
      crash.mockRestore();
    }
    expect(await count('c5')).toBe(0);
  });

  it('at most two batches have work in the models: a batch that gave up keeps its place until its work is done', async () => {
    const hold = holdEmbedder(t);
    try {
      const late = await withConfig(t, { bulkBudgetMs: 1_500 }, () => Promise.all(
        [1, 2, 3].map((n) => bulk({ tenant_id: 'c8', agent_id: 'a1', items: items(2) }, { attempt: `held-${n}` }))));
      expect(late.map((r) => r.status)).toEqual([504, 504, 504]);
      // The third batch never reached the models: the first two still hold both places.
      expect(hold.spy).toHaveBeenCalledTimes(2);
    } finally {
      hold.release();
    }
    await vi.waitFor(async () => {
      const r = await bulk({ tenant_id: 'c8', agent_id: 'a1', items: items(1) });
      expect(r.status).toBe(200);
    }, { timeout: 30_000 });
    expect(await count('c8')).toBe(1);
  });

  it('a row that is neither stored nor found is a missing_storage_id error; the other rows are stored', async () => {
    // A trigger that silently drops some rows stands in for a store that loses a write.
    await t.services.db.query(`CREATE OR REPLACE FUNCTION test_drop_marked() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.content LIKE '%[vanish]%' THEN RETURN NULL; END IF; RETURN NEW; END $$`);
    await t.services.db.query(`CREATE TRIGGER test_drop_marked BEFORE INSERT ON memories FOR EACH ROW EXECUTE FUNCTION test_drop_marked()`);
    try {
      const r = await bulk({ tenant_id: 'c6', agent_id: 'a1', items: [{ content: 'Kept row.' }, { content: 'Lost row [vanish].' }] });
      expect(r.status).toBe(207);
      expect(r.body.results.map((x: any) => [x.status, x.error?.code ?? null])).toEqual([['created', null], ['error', 'missing_storage_id']]);
    } finally {
      await t.services.db.query('DROP TRIGGER test_drop_marked ON memories');
      await t.services.db.query('DROP FUNCTION test_drop_marked()');
    }
    expect(await count('c6')).toBe(1);
  });

  it('publishes memory.written for each created row only', async () => {
    const spy = vi.spyOn(t.services.bus, 'publish');
    try {
      const body = { tenant_id: 'c7', agent_id: 'a1', items: items(3) };
      const r = await bulk(body, { attempt: 'events' });
      await bulk(body, { attempt: 'events' });
      const ids = spy.mock.calls.map((c) => c[0]).filter((e) => e.type === 'memory.written' && e.tenant_id === 'c7').map((e) => (e.data as any).memory_id);
      expect(ids.sort()).toEqual(r.body.results.map((x: any) => x.id).sort());
    } finally {
      spy.mockRestore();
    }
  });
});

describe('bulk write: tenants and agents', () => {
  it('a tenant key cannot write into another tenant, not even through an item', async () => {
    const k1 = await t.key('iso1');
    const other = await bulk({ tenant_id: 'iso2', agent_id: 'a1', items: items(2) }, { key: k1 });
    expect(other.status).toBe(403);
    const sneaky = await bulk({ tenant_id: 'iso1', agent_id: 'a1', items: [{ content: 'mine' }, { content: 'theirs', tenant_id: 'iso2' }] }, { key: k1 });
    expect(sneaky.status).toBe(207);
    expect(sneaky.body.results[1].error.code).toBe('validation');
    expect(await count('iso2')).toBe(0);
    expect(await count('iso1')).toBe(1);
    // The same attempt id in another tenant is another attempt.
    const admin1 = await bulk({ tenant_id: 'iso1', agent_id: 'a1', items: items(1) }, { attempt: 'shared-id' });
    const admin2 = await bulk({ tenant_id: 'iso2', agent_id: 'a1', items: items(1) }, { attempt: 'shared-id' });
    expect([admin1.body.results[0].status, admin2.body.results[0].status]).toEqual(['created', 'created']);
  });

  it('an agent-scoped key writes only as its agent: another envelope agent is 403, another item agent is that item\'s error', async () => {
    const k = await t.key('ag1', { agent: 'planner' });
    expect((await bulk({ tenant_id: 'ag1', agent_id: 'critic', items: items(1) }, { key: k })).status).toBe(403);
    const r = await bulk({ tenant_id: 'ag1', agent_id: 'planner', items: [{ content: 'By the planner.' }, { content: 'As the critic.', agent_id: 'critic' }] }, { key: k });
    expect(r.status).toBe(207);
    expect(r.body.results.map((x: any) => [x.status, x.error?.code ?? null])).toEqual([['created', null], ['error', 'forbidden']]);
    expect(await count('ag1', `agent_id = 'critic'`)).toBe(0);
  });
});

describe('bulk write: OpenAPI', () => {
  it('documents the typed body, the attempt header and every status', async () => {
    const doc = (await t.api('GET', '/api/openapi.json')).body;
    const op = doc.paths['/api/v1/memories/bulk'].post;
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '207', '400', '401', '403', '422', '429', '504']));
    expect(op.parameters.map((p: any) => p.name)).toEqual(expect.arrayContaining(['x-bulk-attempt-id', 'idempotency-key']));
    const schema = op.requestBody.content['application/json'].schema;
    expect(schema.properties.items.maxItems).toBe(100);
    expect(schema.properties.items.items.properties.content).toBeDefined();
    expect(doc.paths['/api/v1/memories/redistribute'].post.responses['200']).toBeDefined();
  });
});
