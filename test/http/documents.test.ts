// Document store over HTTP: upsert round trip, equality queries, collections, hybrid search,
// tenant isolation, protected collections and validation.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { systemCaller } from '../../src/core/caller.js';

const T = 'default';

describe('documents', () => {
  let t: TestApp;
  const write = (body: Record<string, unknown>, key?: string) => t.api('POST', '/api/v1/documents', { body: { tenant_id: T, ...body }, key });
  const read = (collection: string, docId: string, query = '', key?: string) =>
    t.api('GET', `/api/v1/documents/${collection}/${docId}?tenant_id=${T}${query}`, { key });
  const query = (body: Record<string, unknown>, key?: string) => t.api('POST', '/api/v1/documents/query', { body: { tenant_id: T, ...body }, key });
  const search = (body: Record<string, unknown>, key?: string) => t.api('POST', '/api/v1/documents/search', { body: { tenant_id: T, ...body }, key });
  const collections = async (tenant = T, key?: string) =>
    (await t.api('GET', `/api/v1/documents/collections?tenant_id=${tenant}`, { key })).body.collections as { collection: string; count: number }[];

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  it('writes, reads, replaces and deletes a document', async () => {
    const created = await write({ collection: 'notes', doc_id: 'router', data: { title: 'Router', steps: ['unplug', 'wait'] } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      tenant_id: T, fleet_id: null, collection: 'notes', doc_id: 'router', created: true,
      data: { title: 'Router', steps: ['unplug', 'wait'] },
    });
    expect(Date.parse(created.body.created_at)).not.toBeNaN();

    const got = await read('notes', 'router');
    expect(got.status).toBe(200);
    expect(got.body.data).toEqual({ title: 'Router', steps: ['unplug', 'wait'] });
    expect(got.body).not.toHaveProperty('created');

    const replaced = await write({ collection: 'notes', doc_id: 'router', data: { title: 'Router v2' } });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ created: false, data: { title: 'Router v2' }, created_at: created.body.created_at });
    expect(Date.parse(replaced.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(created.body.updated_at));
    // The whole document is replaced, not merged.
    expect((await read('notes', 'router')).body.data).toEqual({ title: 'Router v2' });

    // The same doc_id in a fleet is a separate document.
    const inFleet = await write({ collection: 'notes', doc_id: 'router', fleet_id: 'blue', data: { title: 'Blue router' } });
    expect(inFleet.status).toBe(201);
    expect((await read('notes', 'router', '&fleet_id=blue')).body).toMatchObject({ fleet_id: 'blue', data: { title: 'Blue router' } });
    expect((await read('notes', 'router')).body.data.title).toBe('Router v2');

    const del = await t.api('DELETE', `/api/v1/documents/notes/router?tenant_id=${T}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    const gone = await read('notes', 'router');
    expect(gone.status).toBe(404);
    expect(gone.headers.get('content-type')).toContain('application/problem+json');
    expect((await t.api('DELETE', `/api/v1/documents/notes/router?tenant_id=${T}`)).status).toBe(404);
    expect((await read('notes', 'router', '&fleet_id=blue')).status).toBe(200);
    expect((await t.api('DELETE', `/api/v1/documents/notes/router?tenant_id=${T}&fleet_id=blue`)).status).toBe(204);
  });

  it('keeps the stored vector when a rewrite leaves the text unchanged', async () => {
    const spy = vi.spyOn(t.services.embedder, 'embed');
    try {
      const body = { collection: 'flags', doc_id: 'f1', data: { summary: 'Ship on Fridays only after review', state: 'on' }, text_fields: ['summary'] };
      await write(body);
      const calls = spy.mock.calls.length;
      expect(calls).toBeGreaterThan(0);
      await write({ ...body, data: { ...body.data, state: 'off' } });
      expect(spy.mock.calls.length).toBe(calls);
      await write({ ...body, data: { ...body.data, summary: 'Never ship on Fridays' } });
      expect(spy.mock.calls.length).toBe(calls + 1);
    } finally {
      spy.mockRestore();
    }
  });

  describe('query', () => {
    beforeAll(async () => {
      const docs = [
        { doc_id: 't-1', data: { status: 'open', priority: 1, owner: { team: 'infra', name: 'ana' }, tags: ['db', 'urgent'] } },
        { doc_id: 't-2', data: { status: 'open', priority: 2, owner: { team: 'web', name: 'bo' }, tags: ['css'] } },
        { doc_id: 't-3', data: { status: 'closed', priority: 1, owner: { team: 'infra', name: 'cy' }, tags: ['db'] } },
        { doc_id: 't-4', data: { status: 'open', priority: 3, owner: { team: 'infra', name: 'di' }, tags: [] } },
      ];
      for (const d of docs) expect((await write({ collection: 'tickets', ...d })).status).toBe(201);
      await write({ collection: 'tickets', doc_id: 't-5', fleet_id: 'blue', data: { status: 'open', owner: { team: 'infra' } } });
    });
    const ids = (r: { body: { items: { doc_id: string }[] } }) => r.body.items.map((i) => i.doc_id);

    it('matches on top-level equality, ANDed', async () => {
      const r = await query({ collection: 'tickets', filter: { status: 'open', priority: 1 } });
      expect(r.status).toBe(200);
      expect(ids(r)).toEqual(['t-1']);
      expect(r.body.count).toBe(1);
      expect(r.body.items[0]).toMatchObject({ tenant_id: T, collection: 'tickets', fleet_id: null });
    });

    it('matches nested fields by dotted key or nested object', async () => {
      const dotted = await query({ collection: 'tickets', filter: { 'owner.team': 'infra', status: 'open' } });
      expect(ids(dotted)).toEqual(['t-1', 't-4', 't-5']);
      const nested = await query({ collection: 'tickets', filter: { owner: { team: 'infra' }, status: 'open' } });
      expect(ids(nested)).toEqual(ids(dotted));
      expect(ids(await query({ collection: 'tickets', filter: { tags: ['db'] } }))).toEqual(['t-1', 't-3']);
    });

    it('returns nothing for a filter no document matches', async () => {
      for (const filter of [{ status: 'archived' }, { 'owner.team': 'infra', priority: 2 }, { priority: '1' }, { 'owner.name.first': 'ana' }]) {
        const r = await query({ collection: 'tickets', filter });
        expect(r.status).toBe(200);
        expect(r.body).toEqual({ items: [], count: 0 });
      }
      expect((await query({ collection: 'no-such-collection' })).body).toEqual({ items: [], count: 0 });
    });

    it('pages in doc_id order with a total count, and narrows to a fleet', async () => {
      const page = await query({ collection: 'tickets', limit: 2, offset: 1 });
      expect(ids(page)).toEqual(['t-2', 't-3']);
      expect(page.body.count).toBe(5);
      const all = await query({ collection: 'tickets' });
      expect(ids(all)).toEqual(['t-1', 't-2', 't-3', 't-4', 't-5']);
      expect(ids(await query({ collection: 'tickets', fleet_id: 'blue' }))).toEqual(['t-5']);
    });

    it('sorts by a field of data, numbers as numbers, missing values last', async () => {
      expect(ids(await query({ collection: 'tickets', order_by: 'priority' }))).toEqual(['t-1', 't-3', 't-2', 't-4', 't-5']);
      expect(ids(await query({ collection: 'tickets', order_by: 'priority', order: 'desc' }))).toEqual(['t-4', 't-2', 't-3', 't-1', 't-5']);
      expect(ids(await query({ collection: 'tickets', order_by: 'owner.name', order: 'desc', limit: 2 }))).toEqual(['t-4', 't-3']);
      expect(ids(await query({ collection: 'tickets', order: 'desc' }))).toEqual(['t-5', 't-4', 't-3', 't-2', 't-1']);
      for (const bad of [{ order: 'up' }, { order_by: '' }, { order_by: 'a..b' }]) {
        expect((await query({ collection: 'tickets', ...bad })).status, JSON.stringify(bad)).toBe(422);
      }
    });

    it('refuses limits out of range and conflicting filter keys', async () => {
      for (const limit of [0, 501]) expect((await query({ collection: 'tickets', limit })).status).toBe(422);
      expect((await query({ collection: 'tickets', offset: -1 })).status).toBe(422);
      const r = await query({ collection: 'tickets', filter: { 'owner.team': 'infra', owner: 'x' } });
      expect(r.status).toBe(422);
      expect(r.body.detail[0].loc.slice(0, 2)).toEqual(['body', 'filter']);
    });
  });

  it('lists collections with document counts', async () => {
    await write({ collection: 'counted', doc_id: 'a', data: { x: 'one' } });
    await write({ collection: 'counted', doc_id: 'b', data: { x: 'two' } });
    await write({ collection: 'counted', doc_id: 'c', fleet_id: 'green', data: { x: 'three' } });
    const list = await collections();
    const counted = list.find((c) => c.collection === 'counted');
    expect(counted).toMatchObject({ collection: 'counted', count: 3 });
    expect(Date.parse((counted as any).updated_at)).not.toBeNaN();
    expect(list.map((c) => c.collection)).toEqual([...list.map((c) => c.collection)].sort());
    const green = await t.api('GET', `/api/v1/documents/collections?tenant_id=${T}&fleet_id=green`);
    expect(green.body.collections).toEqual([expect.objectContaining({ collection: 'counted', count: 1 })]);
  });

  describe('search', () => {
    beforeAll(async () => {
      const docs = [
        { doc_id: 'lasagna', data: { title: 'Lasagna', body: 'Layer pasta sheets with tomato sauce, minced beef and béchamel, then bake for forty minutes.' } },
        { doc_id: 'failover', data: { title: 'Database failover', body: 'Promote the replica to primary and repoint the connection string when the primary goes down.' } },
        { doc_id: 'leave', data: { title: 'Vacation policy', body: 'Employees accrue twenty-five days of paid leave per year.' } },
        { doc_id: 'postmortem', data: { title: 'Postmortem', body: 'Ticket ZQX-48213: the cache cluster ran out of memory overnight.' } },
      ];
      for (const d of docs) await write({ collection: 'kb', ...d });
    });

    it('finds a document by meaning with no words in common', async () => {
      const r = await search({ query: 'what should I cook for an italian dinner', collection: 'kb' });
      expect(r.status).toBe(200);
      expect(r.body.items[0]).toMatchObject({ collection: 'kb', doc_id: 'lasagna' });
      for (const item of r.body.items) {
        expect(typeof item.score).toBe('number');
        expect(typeof item.similarity).toBe('number');
      }
      expect(r.body.items[0].data.title).toBe('Lasagna');
      const leave = await search({ query: 'how many holidays do workers get?' });
      expect(leave.body.items[0]).toMatchObject({ collection: 'kb', doc_id: 'leave' });
    });

    it('finds a document by an identifier', async () => {
      const r = await search({ query: 'ZQX-48213', top_k: 1 });
      expect(r.status).toBe(200);
      expect(r.body.items).toHaveLength(1);
      expect(r.body.items[0].doc_id).toBe('postmortem');
      // A question that holds only some of the document's words still reaches it.
      const q = await search({ query: 'which cluster had memory trouble in ZQX-48213?', collection: 'kb' });
      expect(q.body.items[0].doc_id).toBe('postmortem');
    });

    it('ranks a document holding every query word and close in meaning above one holding a single word', async () => {
      await write({ collection: 'runbooks', doc_id: 'full', data: { body: 'Rotate the TLS certificates on the edge proxy before they expire; renew them with the ACME client and reload the proxy.' } });
      await write({ collection: 'runbooks', doc_id: 'single', data: { body: 'The office plants need water on Mondays; the proxy for the landlord signs the lease.' } });
      const r = await search({ query: 'rotate TLS certificates edge proxy', collection: 'runbooks' });
      expect(r.status).toBe(200);
      expect(r.body.items.map((i: { doc_id: string }) => i.doc_id)).toEqual(['full', 'single']);
      const [full, single] = r.body.items;
      expect(full.score).toBeGreaterThan(single.score);
      expect(full.similarity).toBeGreaterThan(single.similarity);
    });

    it('answers 503 (problem+json) when the query cannot be embedded', async () => {
      const spy = vi.spyOn(t.services.queryEmbedder, 'embed').mockRejectedValueOnce(new Error('model crashed'));
      try {
        const r = await search({ query: 'an uncached question about certificates' });
        expect(r.status).toBe(503);
        expect(r.headers.get('content-type')).toContain('application/problem+json');
        expect(r.body).toMatchObject({ status: 503 });
      } finally {
        spy.mockRestore();
      }
      expect((await search({ query: 'an uncached question about certificates' })).status).toBe(200);
    });

    it('honours top_k and the collection scope', async () => {
      const r = await search({ query: 'policy', top_k: 2 });
      expect(r.body.items.length).toBeLessThanOrEqual(2);
      const scoped = await search({ query: 'tomato pasta', collection: 'tickets' });
      expect(scoped.body.items.every((i: { collection: string }) => i.collection === 'tickets')).toBe(true);
    });
  });

  it('keeps each tenant to its own documents', async () => {
    const other = await t.key('acme');
    await write({ collection: 'secrets', doc_id: 'plan', data: { body: 'The default tenant plans to acquire a bakery chain.' } });

    const readOther = await read('secrets', 'plan', '', other);
    expect(readOther.status).toBe(403);
    expect(readOther.body.detail).toContain(`"${T}"`);
    for (const r of [
      await search({ query: 'bakery acquisition' }, other),
      await query({ collection: 'secrets' }, other),
      await write({ collection: 'secrets', doc_id: 'x', data: {} }, other),
      await t.api('GET', `/api/v1/documents/collections?tenant_id=${T}`, { key: other }),
      await t.api('DELETE', `/api/v1/documents/secrets/plan?tenant_id=${T}`, { key: other }),
    ]) {
      expect(r.status).toBe(403);
      expect(r.body.detail).toContain(`"${T}"`);
    }

    const own = await t.api('POST', '/api/v1/documents', {
      key: other, body: { tenant_id: 'acme', collection: 'secrets', doc_id: 'plan', data: { body: 'Acme sells anvils.' } },
    });
    expect(own.status).toBe(201);
    const found = await t.api('POST', '/api/v1/documents/search', { key: other, body: { tenant_id: 'acme', query: 'bakery chain acquisition plans', top_k: 50 } });
    expect(found.status).toBe(200);
    expect(found.body.items.length).toBeGreaterThan(0);
    for (const item of found.body.items) expect(item.data.body).toBe('Acme sells anvils.');
    // The keyword leg stays in the tenant too: an identifier only the default tenant holds is not found.
    const byKeyword = await t.api('POST', '/api/v1/documents/search', { key: other, body: { tenant_id: 'acme', query: 'ZQX-48213', top_k: 50 } });
    expect(byKeyword.status).toBe(200);
    expect(byKeyword.body.items.map((i: { doc_id: string }) => i.doc_id)).not.toContain('postmortem');
    expect((await search({ query: 'ZQX-48213', top_k: 1 })).body.items[0].doc_id).toBe('postmortem');
    const cols = await collections('acme', other);
    expect(cols).toEqual([expect.objectContaining({ collection: 'secrets', count: 1 })]);
    expect((await read('secrets', 'plan')).body.data.body).toContain('bakery');
  });

  it('refuses writes and deletes of system and feature collections over HTTP', async () => {
    // `skills` is governed by the skill rules instead (test/http/skills.test.ts).
    for (const collection of ['_settings', 'ingest-sources']) {
      const r = await write({ collection, doc_id: 'x', data: { a: 'b' } });
      expect(r.status).toBe(403);
      expect(r.body.detail).toContain(collection);
    }
    // Their own features write through the service; reading them over HTTP is allowed.
    await t.services.documents.write(systemCaller(T), { collection: 'ingest-sources', doc_id: 'deploy', data: { name: 'Deploy', summary: 'How to deploy' } });
    // The system caller acts inside its own tenant only.
    await expect(t.services.documents.write(systemCaller(T), { tenant_id: `${T}-other`, collection: 'ingest-sources', doc_id: 'x', data: { a: 'b' } }))
      .rejects.toMatchObject({ status: 403 });
    expect((await read('ingest-sources', 'deploy')).status).toBe(200);
    expect((await t.api('DELETE', `/api/v1/documents/ingest-sources/deploy?tenant_id=${T}`)).status).toBe(403);
    expect((await read('ingest-sources', 'deploy')).status).toBe(200);
    const names = (await collections()).map((c) => c.collection);
    expect(names).not.toContain('_settings');
    expect(names).toContain('ingest-sources');
  });

  it('refuses bad input with 422 and writes nothing', async () => {
    const bad: Record<string, unknown>[] = [
      { collection: 'bad', doc_id: 'Bad ID', data: {} },
      { collection: 'bad', doc_id: '-lead', data: {} },
      { collection: 'bad', doc_id: 'x'.repeat(101), data: {} },
      { collection: 'Bad', doc_id: 'ok', data: {} },
      { collection: 'bad', doc_id: 'ok', data: [1, 2] },
      { collection: 'bad', doc_id: 'ok', data: 'text' },
      { collection: 'bad', doc_id: 'ok', data: null },
      { collection: 'bad', doc_id: 'ok' },
      { collection: 'bad', data: {} },
      { doc_id: 'ok', data: {} },
      { collection: 'bad', doc_id: 'ok', data: {}, text_fields: [] },
      { collection: 'bad', doc_id: 'ok', data: { a: 'nul\u0000' } },
    ];
    for (const body of bad) {
      const r = await write(body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.body.detail[0]).toMatchObject({ loc: expect.any(Array), msg: expect.any(String), type: expect.any(String) });
    }
    const missing = await write({ collection: 'bad', doc_id: 'ok' });
    expect(missing.body.detail).toContainEqual(expect.objectContaining({ loc: ['body', 'data'], type: 'missing' }));
    const pattern = await write({ collection: 'bad', doc_id: 'Bad ID', data: {} });
    expect(pattern.body.detail).toContainEqual(expect.objectContaining({ loc: ['body', 'doc_id'], type: 'string_pattern_mismatch' }));
    const extra = await write({ collection: 'bad', doc_id: 'ok', data: {}, surprise: 1 });
    expect(extra.body.detail).toContainEqual(expect.objectContaining({ loc: ['body', 'surprise'], type: 'extra_forbidden' }));

    for (const top_k of [0, 51, 2.5]) expect((await search({ query: 'x', top_k })).status).toBe(422);
    expect((await search({ query: '' })).status).toBe(422);
    expect((await search({ top_k: 3 })).status).toBe(422);
    expect((await search({ query: 'x', surprise: 1 })).status).toBe(422);
    expect((await t.api('GET', `/api/v1/documents/bad/Bad%20ID?tenant_id=${T}`)).status).toBe(422);
    expect((await t.api('GET', '/api/v1/documents/collections?fleet_id=')).status).toBe(422);

    expect((await collections()).map((c) => c.collection)).not.toContain('bad');
    expect((await collections()).map((c) => c.collection)).not.toContain('Bad');
  });

  it('caps a document at 1 MiB', async () => {
    const big = await write({ collection: 'blobs', doc_id: 'big', data: { body: 'a '.repeat(540_000) } });
    expect(big.status).toBe(413);
    expect(big.headers.get('content-type')).toContain('application/problem+json');
    const huge = await write({ collection: 'blobs', doc_id: 'huge', data: { body: 'a'.repeat(2_000_000) } });
    expect(huge.status).toBe(413);
    const fits = await write({ collection: 'blobs', doc_id: 'fits', data: { body: 'word '.repeat(200_000) } });
    expect(fits.status).toBe(201);
    expect((await collections()).find((c) => c.collection === 'blobs')?.count).toBe(1);
  });

  it('needs a key, and a key that may write', async () => {
    expect((await t.api('POST', '/api/v1/documents/search', { key: null, body: { tenant_id: T, query: 'x' } })).status).toBe(401);
    expect((await t.api('GET', `/api/v1/documents/collections?tenant_id=${T}`, { key: null })).status).toBe(401);
    const readOnly = await t.key(T, { trust: 0 });
    expect((await write({ collection: 'notes', doc_id: 'ro', data: {} }, readOnly)).status).toBe(403);
    expect((await query({ collection: 'notes' }, readOnly)).status).toBe(200);
  });

  it('documents every route in the OpenAPI description', async () => {
    const doc = (await t.api('GET', '/api/openapi.json')).body;
    const paths = Object.keys(doc.paths).filter((p) => p.startsWith('/api/v1/documents'));
    expect(paths.sort()).toEqual([
      '/api/v1/documents', '/api/v1/documents/collections', '/api/v1/documents/query', '/api/v1/documents/search',
      '/api/v1/documents/{collection}/{doc_id}',
    ]);
    const post = doc.paths['/api/v1/documents'].post;
    expect(post.tags).toEqual(['documents']);
    expect(Object.keys(post.responses)).toEqual(expect.arrayContaining(['200', '201', '403', '413', '422']));
  });
});
