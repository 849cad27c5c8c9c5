// Ingest over HTTP from text: preview writes nothing, commit tags and counts, undo restores the
// counts (a second undo deletes 0), tenants and agents stay apart, limits and validation hold.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { runContents, storedCounts } from '../helpers/ingest.js';

const T = 'default';

const ARTICLE = `# Orion migration notes

The Orion cluster was moved from Frankfurt to Dublin in March 2024 after a two-week freeze.
The team decided to keep PostgreSQL 16 as the primary database.
Ana prefers written runbooks over verbal handovers.

## Next steps

Future migrations will start with a written rollback plan.
Copyright 2024 Example Corp. All rights reserved.
`;

describe('ingest', () => {
  let t: TestApp;
  const preview = (body: Record<string, unknown>, key?: string) =>
    t.api('POST', '/api/v1/ingest/preview', { body: { tenant_id: T, ...body }, key });
  const commit = (body: Record<string, unknown>, key?: string, headers?: Record<string, string>) =>
    t.api('POST', '/api/v1/ingest/commit', { body: { tenant_id: T, ...body }, key, headers });
  const undo = (runId: string, tenant = T, key?: string) =>
    t.api('POST', `/api/v1/ingest/undo/${encodeURIComponent(runId)}?tenant_id=${tenant}`, { key });

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  it('previews facts from text and writes nothing, not even a document', async () => {
    const before = await storedCounts(t);
    const r = await preview({ content: ARTICLE, source_uri: 'notes://orion' });
    expect(r.status).toBe(200);
    const contents = r.body.facts.map((f: { content: string }) => f.content);
    expect(contents).toContain('The Orion cluster was moved from Frankfurt to Dublin in March 2024 after a two-week freeze.');
    expect(contents).toContain('Ana prefers written runbooks over verbal handovers.');
    // Boilerplate and headings are not facts.
    expect(contents.join('\n')).not.toMatch(/All rights reserved|Orion migration notes$/m);
    const byContent = Object.fromEntries(r.body.facts.map((f: { content: string }) => [f.content, f]));
    expect(byContent['The team decided to keep PostgreSQL 16 as the primary database.'].suggested_type).toBe('decision');
    expect(byContent['Ana prefers written runbooks over verbal handovers.'].suggested_type).toBe('preference');
    for (const f of r.body.facts) {
      expect(f.source_uri).toBe('notes://orion');
      expect(f.salience).toBeGreaterThanOrEqual(0);
      expect(f.salience).toBeLessThanOrEqual(1);
    }
    expect(r.body).toMatchObject({ url: null, sections: 2, format: 'txt', extractor: 'rules', title: null, content_length: ARTICLE.trim().length });
    expect(r.body.doc_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(r.body).not.toHaveProperty('content');
    // The same text with other line ends hashes the same.
    expect((await preview({ content: ARTICLE.replace(/\n/g, '\r\n') })).body.doc_hash).toBe(r.body.doc_hash);
    expect((await preview({ content: ARTICLE, include_content: true })).body.content).toBe(ARTICLE.trim());
    expect(await storedCounts(t)).toEqual(before);
  });

  it('ranks facts that mention the focus first and caps their number', async () => {
    const r = await preview({ content: ARTICLE, focus: 'database', max_facts: 1 });
    expect(r.status).toBe(200);
    expect(r.body.facts.map((f: { content: string }) => f.content)).toEqual(['The team decided to keep PostgreSQL 16 as the primary database.']);
  });

  it('commits facts as tagged memories with a parent document, and undo puts the counts back', async () => {
    const before = await storedCounts(t);
    const p = (await preview({ content: ARTICLE, include_content: true, source_uri: 'notes://orion' })).body;
    const c = await commit({ facts: p.facts, doc_hash: p.doc_hash, content: p.content, title: 'Orion notes' });
    expect(c.status).toBe(200);
    expect(c.body).toMatchObject({ facts_extracted: p.facts.length, memories_created: p.facts.length, skipped_duplicates: 0, errored: 0, errors: [] });
    expect(c.body.run_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number.isInteger(c.body.ingest_ms)).toBe(true);
    const runId = c.body.run_id as string;

    const list = await t.api('GET', `/api/v1/memories?tenant_id=${T}&run_id=${runId}&limit=500`);
    expect(list.body.items).toHaveLength(p.facts.length);
    for (const m of list.body.items) {
      expect(m).toMatchObject({ run_id: runId, agent_id: 'ingest-agent', source_uri: 'notes://orion', metadata: { source: 'ingest', doc_hash: p.doc_hash } });
    }
    const decision = list.body.items.find((m: { content: string }) => m.content.includes('PostgreSQL 16'));
    expect(decision.memory_type).toBe('decision');
    expect(decision.weight).toBe(p.facts.find((f: { content: string }) => f.content.includes('PostgreSQL 16')).salience);

    const doc = await t.api('GET', `/api/v1/documents/ingest-sources/${runId}?tenant_id=${T}`);
    expect(doc.status).toBe(200);
    expect(doc.body.data).toMatchObject({ run_id: runId, content: ARTICLE.trim(), content_source: 'request', doc_hash: p.doc_hash, title: 'Orion notes', agent_id: 'ingest-agent' });
    // The source is searchable like any document.
    const found = await t.api('POST', '/api/v1/documents/search', { body: { tenant_id: T, query: 'Orion cluster Dublin', collection: 'ingest-sources' } });
    expect(found.body.items.map((i: { doc_id: string }) => i.doc_id)).toContain(runId);

    const after = await storedCounts(t);
    expect(after).toEqual({ memories: before.memories + p.facts.length, documents: before.documents + 1 });

    const u = await undo(runId);
    expect(u.status).toBe(200);
    expect(u.body).toEqual({ deleted: p.facts.length, run_id: runId, document_deleted: true });
    expect(await storedCounts(t)).toEqual(before);
    expect((await t.api('GET', `/api/v1/documents/ingest-sources/${runId}?tenant_id=${T}`)).status).toBe(404);
    // Soft-deleted, not gone.
    const deleted = await t.api('GET', `/api/v1/memories?tenant_id=${T}&run_id=${runId}&include_deleted=true&limit=500`);
    expect(deleted.body.items).toHaveLength(p.facts.length);
    expect(deleted.body.items.every((m: { deleted_at: string | null }) => m.deleted_at !== null)).toBe(true);

    const again = await undo(runId);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ deleted: 0, run_id: runId, document_deleted: false });
    expect(await storedCounts(t)).toEqual(before);
  });

  it('skips exact duplicates and counts facts that cannot be written', async () => {
    const facts = [
      { content: 'The staging database is rebuilt every Sunday night.', suggested_type: 'fact', salience: 0.6 },
      { content: 'The staging database is rebuilt every Sunday night.' },
      { content: '   ' },
      { content: 'x'.repeat(10_001) },
      { content: 'Deploys are frozen during the last week of December.', memory_type: 'task', title: 'Freeze' },
    ];
    const first = await commit({ facts, run_id: 'run-dupes-1' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ facts_extracted: 5, memories_created: 2, skipped_duplicates: 1, errored: 2, run_id: 'run-dupes-1' });
    expect(first.body.errors.map((e: { index: number; status: number }) => [e.index, e.status])).toEqual([[2, 422], [3, 422]]);
    const stored = await t.api('GET', `/api/v1/memories?tenant_id=${T}&run_id=run-dupes-1`);
    const freeze = stored.body.items.find((m: { title: string | null }) => m.title === 'Freeze');
    expect(freeze.memory_type).toBe('task');
    // No content: the parent document keeps the committed facts.
    const doc = await t.api('GET', `/api/v1/documents/ingest-sources/run-dupes-1?tenant_id=${T}`);
    expect(doc.body.data.content_source).toBe('facts');
    expect(doc.body.data.content).toContain('rebuilt every Sunday night');

    const second = await commit({ facts: facts.slice(0, 1).concat(facts.slice(4)), run_id: 'run-dupes-2' });
    expect(second.body).toMatchObject({ memories_created: 0, skipped_duplicates: 2, errored: 0 });
    expect((await undo('run-dupes-2')).body.deleted).toBe(0);
    expect((await undo('run-dupes-1')).body.deleted).toBe(2);
  });

  it('undoes only memories marked as ingested', async () => {
    const own = await t.api('POST', '/api/v1/memories', {
      body: { tenant_id: T, agent_id: 'writer', content: 'A hand-written memory that reuses a run id.', run_id: 'run-mixed' },
    });
    expect(own.status).toBe(201);
    const c = await commit({ facts: [{ content: 'An ingested memory of the mixed run.' }], run_id: 'run-mixed' });
    expect(c.body.memories_created).toBe(1);
    expect((await undo('run-mixed')).body.deleted).toBe(1);
    expect((await t.api('GET', `/api/v1/memories/${own.body.id}?tenant_id=${T}`)).status).toBe(200);
  });

  it('keeps runs to their tenant', async () => {
    const other = await t.key('acme');
    const c = await commit({ facts: [{ content: 'Default tenant secret: the launch moves to May.' }], run_id: 'run-private' });
    expect(c.body.memories_created).toBe(1);
    const before = await storedCounts(t);

    // Naming the tenant is refused; undoing "the same run" in its own tenant touches nothing.
    expect((await undo('run-private', T, other)).status).toBe(403);
    const ownTenant = await undo('run-private', 'acme', other);
    expect(ownTenant.status).toBe(200);
    expect(ownTenant.body).toEqual({ deleted: 0, run_id: 'run-private', document_deleted: false });
    expect(await storedCounts(t)).toEqual(before);

    // The run cannot be seen either.
    expect((await t.api('GET', `/api/v1/memories?tenant_id=${T}&run_id=run-private`, { key: other })).status).toBe(403);
    expect((await t.api('GET', '/api/v1/memories?tenant_id=acme&run_id=run-private', { key: other })).body.items).toEqual([]);
    expect((await t.api('GET', `/api/v1/documents/ingest-sources/run-private?tenant_id=${T}`, { key: other })).status).toBe(403);
    expect((await t.api('GET', '/api/v1/documents/ingest-sources/run-private?tenant_id=acme', { key: other })).status).toBe(404);
    const search = await t.api('POST', '/api/v1/documents/search', { key: other, body: { tenant_id: 'acme', query: 'launch moves to May' } });
    expect(search.body.items).toEqual([]);

    // Preview and commit into another tenant are refused too, and write nothing.
    expect((await preview({ content: ARTICLE }, other)).status).toBe(403);
    expect((await commit({ facts: [{ content: 'Sneaky write into the default tenant.' }] }, other)).status).toBe(403);
    expect(await storedCounts(t)).toEqual(before);

    // A commit in its own tenant lands there.
    const theirs = await t.api('POST', '/api/v1/ingest/commit', { key: other, body: { tenant_id: 'acme', facts: [{ content: 'Acme ships anvils on Tuesdays.' }] } });
    expect(theirs.status).toBe(200);
    expect((await t.api('GET', `/api/v1/memories?tenant_id=acme&run_id=${theirs.body.run_id}`, { key: other })).body.items).toHaveLength(1);
    expect((await undo(theirs.body.run_id, T)).body.deleted).toBe(0);
    expect((await undo('run-private')).body.deleted).toBe(1);
  });

  it('writes as the key\'s agent and refuses to act as another', async () => {
    const agentKey = await t.key(T, { agent: 'reader-bot' });
    const before = await storedCounts(t);
    const refused = await commit({ facts: [{ content: 'Written under a borrowed name.' }], agent_id: 'someone-else' }, agentKey);
    expect(refused.status).toBe(403);
    expect(await storedCounts(t)).toEqual(before);

    const c = await commit({ facts: [{ content: 'The reader bot summarised the quarterly report.' }] }, agentKey);
    expect(c.status).toBe(200);
    const items = (await t.api('GET', `/api/v1/memories?tenant_id=${T}&run_id=${c.body.run_id}`)).body.items;
    expect(items.map((m: { agent_id: string }) => m.agent_id)).toEqual(['reader-bot']);
    const named = await commit({ facts: [{ content: 'A fact written by a named importer.' }], agent_id: 'importer' });
    expect((await t.api('GET', `/api/v1/memories?tenant_id=${T}&run_id=${named.body.run_id}`)).body.items[0].agent_id).toBe('importer');
    expect((await undo(c.body.run_id, T, agentKey)).body.deleted).toBe(1);
    expect((await undo(named.body.run_id)).body.deleted).toBe(1);
  });

  it('replays a commit sent again with the same Idempotency-Key', async () => {
    const body = { facts: [{ content: 'Idempotent ingest writes this exactly once.' }] };
    const first = await commit(body, undefined, { 'idempotency-key': 'ingest-once' });
    const second = await commit(body, undefined, { 'idempotency-key': 'ingest-once' });
    expect(second.status).toBe(200);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body).toEqual(first.body);
    expect((await undo(first.body.run_id)).body.deleted).toBe(1);
  });

  it('refuses bad input with 422 and writes nothing', async () => {
    const before = await storedCounts(t);
    const neither = await preview({});
    expect(neither.status).toBe(422);
    expect(neither.body.detail.map((d: { loc: string[] }) => d.loc)).toEqual([['body', 'url'], ['body', 'content']]);
    expect((await preview({ url: 'https://example.com/', content: 'x' })).body.detail[0].loc).toEqual(['body', 'content']);
    for (const body of [{ content: '' }, { content: 5 }, { content: 'x', max_facts: 0 }, { content: 'x', focus: 'f'.repeat(1001) }]) {
      expect((await preview(body)).status, JSON.stringify(body)).toBe(422);
    }
    const extra = await preview({ content: 'x', surprise: 1 });
    expect(extra.status).toBe(422);
    expect(extra.body.detail[0].loc).toEqual(['body', 'surprise']);

    const hash = createHash('sha256').update('something else').digest('hex');
    const mismatch = await commit({ facts: [{ content: 'Fact with the wrong hash.' }], content: 'The real source.', doc_hash: hash });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.detail[0].loc).toEqual(['body', 'doc_hash']);
    for (const body of [
      { facts: [] },
      { facts: [{ content: '' }] },
      { facts: [{ content: 'ok fact here', memory_type: 'insight' }] },
      { facts: [{ content: 'ok fact here', salience: 2 }] },
      { facts: [{ content: 'ok fact here' }], run_id: 'Not A Slug' },
      { facts: [{ content: 'ok fact here' }], doc_hash: 'abc' },
      { facts: Array.from({ length: 1001 }, (_, i) => ({ content: `fact ${i}` })) },
      { facts: 'none' },
    ]) {
      const r = await commit(body);
      expect(r.status, JSON.stringify(body).slice(0, 80)).toBe(422);
    }
    // Without tenant_id the key's tenant is meant: nothing of that run there.
    expect((await t.api('POST', '/api/v1/ingest/undo/some-run', {})).body).toMatchObject({ deleted: 0 });
    expect(await storedCounts(t)).toEqual(before);
  });

  it('caps bodies at 3 MB with 413 and writes nothing', async () => {
    const before = await storedCounts(t);
    const cap = t.config.ingestMaxBytes;
    const over = await preview({ content: 'a'.repeat(cap + 1) });
    expect(over.status).toBe(413);
    expect(over.headers.get('content-type')).toContain('application/problem+json');
    const huge = await preview({ content: 'a'.repeat(cap + 100 * 1024) });
    expect(huge.status).toBe(413);
    const commitOver = await commit({ facts: [{ content: 'A fact with a huge source.' }], content: 'b'.repeat(cap + 1) });
    expect(commitOver.status).toBe(413);
    expect(await storedCounts(t)).toEqual(before);
  });

  it('needs a key that may write', async () => {
    expect((await t.api('POST', '/api/v1/ingest/preview', { key: null, body: { tenant_id: T, content: 'x' } })).status).toBe(401);
    expect((await t.api('POST', `/api/v1/ingest/undo/x?tenant_id=${T}`, { key: null })).status).toBe(401);
    const readOnly = await t.key(T, { trust: 0 });
    expect((await preview({ content: ARTICLE }, readOnly)).status).toBe(403);
    expect((await commit({ facts: [{ content: 'Read-only keys do not ingest.' }] }, readOnly)).status).toBe(403);
    expect((await undo('anything', T, readOnly)).status).toBe(403);
  });

  it('documents the ingest routes in the OpenAPI description', async () => {
    const doc = (await t.api('GET', '/api/openapi.json')).body;
    const paths = Object.keys(doc.paths).filter((p) => p.startsWith('/api/v1/ingest')).sort();
    expect(paths).toEqual(['/api/v1/ingest/commit', '/api/v1/ingest/file', '/api/v1/ingest/preview', '/api/v1/ingest/undo/{run_id}']);
    const file = doc.paths['/api/v1/ingest/file'].post;
    expect(Object.keys(file.requestBody.content)).toEqual(['multipart/form-data']);
    expect(file.requestBody.content['multipart/form-data'].schema.properties.file).toMatchObject({ type: 'string', format: 'binary' });
    expect(Object.keys(file.responses)).toEqual(expect.arrayContaining(['200', '401', '403', '413', '415', '422']));
    expect(Object.keys(doc.paths['/api/v1/ingest/preview'].post.responses)).toEqual(expect.arrayContaining(['200', '413', '415', '422', '502', '504']));
    const undoOp = doc.paths['/api/v1/ingest/undo/{run_id}'].post;
    expect(undoOp.parameters.map((p: { name: string }) => p.name).sort()).toEqual(['run_id', 'tenant_id']);
  });

  it('lists the memories of a run by run_id', async () => {
    const c = await commit({ facts: [{ content: 'First kept fact of the ordering run.' }, { content: 'Second kept fact of the ordering run.' }] });
    expect((await runContents(t, c.body.run_id)).sort()).toEqual(['First kept fact of the ordering run.', 'Second kept fact of the ordering run.']);
    expect((await undo(c.body.run_id)).body.deleted).toBe(2);
  });
});
