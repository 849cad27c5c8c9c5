// One agent learns nothing of another agent's scope_agent memories, through any door: search
// diagnostics, duplicate answers, bulk attempt ids, ingest runs. Two agent-bound keys of one
// tenant, through HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';

const T = 'iso';

describe('two agents of one tenant', () => {
  let t: TestApp;
  let alice: string;
  let bob: string;
  let tenantKey: string;

  beforeAll(async () => {
    t = await startTestApp();
    alice = await t.key(T, { agent: 'alice' });
    bob = await t.key(T, { agent: 'bob' });
    tenantKey = await t.key(T);
  });
  afterAll(async () => t?.close());

  const write = (key: string, body: Record<string, unknown>) =>
    t.api('POST', '/api/v1/memories', { key, body: { tenant_id: T, ...body } });
  const leaks = (res: { text: string }, ...secrets: string[]) => secrets.filter((s) => res.text.includes(s));

  it('search diagnostics name only entities of memories the caller could find', async () => {
    const secret = await write(alice, { agent_id: 'alice', content: 'Zephyrine Quillfeather negotiates with Obsidian Lantern Works.', visibility: 'scope_agent' });
    expect(secret.status).toBe(201);
    const shared = await write(alice, { agent_id: 'alice', content: 'Obsidian Lantern Works ships lanterns to Tallinn.' });
    expect(shared.status).toBe(201);
    const query = { tenant_id: T, query: 'Zephyrine Quillfeather and Obsidian Lantern Works', diagnostic: true };
    const asBob = await t.api('POST', '/api/v1/search', { key: bob, body: query });
    expect(asBob.status).toBe(200);
    const names = asBob.body.diagnostic.entities.map((e: any) => e.name.toLowerCase());
    expect(names.some((n: string) => n.includes('zephyrine'))).toBe(false);
    expect(leaks(asBob, 'Zephyrine Quillfeather', secret.body.id)).toEqual([]);
    // The shared entity is named, counting only the mention bob can see.
    const org = asBob.body.diagnostic.entities.find((e: any) => /obsidian/i.test(e.name));
    expect(org?.mention_count).toBe(1);
    const asAlice = await t.api('POST', '/api/v1/search', { key: alice, body: query });
    expect(asAlice.body.diagnostic.entities.map((e: any) => e.name.toLowerCase()).some((n: string) => n.includes('zephyrine'))).toBe(true);
  });

  it('duplicates are per writer, and no answer names a memory the caller cannot read', async () => {
    const content = 'The vault combination changes every Tuesday.';
    const mine = await write(alice, { agent_id: 'alice', content, visibility: 'scope_agent' });
    expect(mine.status).toBe(201);
    // The same content from another agent is stored: no 409 that would reveal alice's private memory.
    const theirs = await write(bob, { agent_id: 'bob', content });
    expect(theirs.status).toBe(201);
    expect(theirs.body.id).not.toBe(mine.body.id);
    expect(leaks(theirs, mine.body.id)).toEqual([]);
    // Its own writer gets the 409, naming its own memory.
    const again = await write(alice, { agent_id: 'alice', content });
    expect(again.status).toBe(409);
    expect(again.body.existing_id).toBe(mine.body.id);

    // Bulk: duplicate_of names the caller's own memory only.
    const bulk = await t.api('POST', '/api/v1/memories/bulk', {
      key: bob, headers: { 'x-bulk-attempt-id': 'dup-check' },
      body: { tenant_id: T, agent_id: 'bob', items: [{ content }, { content: 'Only bob says this.' }] },
    });
    expect(bulk.body.results.map((r: any) => [r.status, r.duplicate_of])).toEqual([['duplicate_content', theirs.body.id], ['created', null]]);
    expect(leaks(bulk, mine.body.id)).toEqual([]);

    // An update by bob of alice's team memory onto content only her private memory holds: 409 without the id.
    const team = await write(alice, { agent_id: 'alice', content: 'The vault is in the basement.' });
    const patch = await t.api('PATCH', `/api/v1/memories/${team.body.id}?tenant_id=${T}`, { key: bob, body: { content } });
    expect(patch.status).toBe(409);
    expect(patch.body.existing_id).toBeNull();
    expect(leaks(patch, mine.body.id)).toEqual([]);
  });

  it('bulk attempt ids belong to the key: another key\'s attempt id neither reveals its rows nor drops items', async () => {
    const headers = { 'x-bulk-attempt-id': 'nightly-sync' };
    const a = await t.api('POST', '/api/v1/memories/bulk', {
      key: alice, headers, body: { tenant_id: T, agent_id: 'alice', items: [{ content: 'Alice keeps the spare key under the mat.', visibility: 'scope_agent' }] },
    });
    expect(a.body.results[0].status).toBe('created');
    const b = await t.api('POST', '/api/v1/memories/bulk', {
      key: bob, headers, body: { tenant_id: T, agent_id: 'bob', items: [{ content: 'Bob waters the plants on Fridays.' }] },
    });
    expect(b.status).toBe(200);
    expect(b.body.results[0]).toMatchObject({ status: 'created', client_request_id: 'nightly-sync:0' });
    expect(b.body.results[0].id).not.toBe(a.body.results[0].id);
    expect(leaks(b, a.body.results[0].id)).toEqual([]);
    // Each key's retry still resolves to its own rows.
    const retry = await t.api('POST', '/api/v1/memories/bulk', {
      key: bob, headers, body: { tenant_id: T, agent_id: 'bob', items: [{ content: 'Bob waters the plants on Fridays.' }] },
    });
    expect(retry.body.results[0]).toMatchObject({ status: 'duplicate_attempt', id: b.body.results[0].id });
  });

  it('ingest: another agent can neither undo nor take over a run', async () => {
    const commit = (key: string, run_id: string, content: string) => t.api('POST', '/api/v1/ingest/commit', {
      key, body: { tenant_id: T, run_id, facts: [{ content }] },
    });
    const undo = (key: string, run: string) => t.api('POST', `/api/v1/ingest/undo/${run}?tenant_id=${T}`, { key });
    const doc = () => t.api('GET', `/api/v1/documents/ingest-sources/run-alice?tenant_id=${T}`, { key: tenantKey });
    expect((await commit(alice, 'run-alice', 'Alice ingested the onboarding guide.')).body.memories_created).toBe(1);

    const byBob = await undo(bob, 'run-alice');
    expect(byBob.body).toEqual({ deleted: 0, run_id: 'run-alice', document_deleted: false });
    expect((await doc()).status).toBe(200);
    // Reusing alice's run id would replace her run's document.
    const takeover = await commit(bob, 'run-alice', 'Bob rewrites the onboarding guide.');
    expect(takeover.status).toBe(409);
    expect((await doc()).body.data.agent_id).toBe('alice');

    const byAlice = await undo(alice, 'run-alice');
    expect(byAlice.body).toEqual({ deleted: 1, run_id: 'run-alice', document_deleted: true });
    expect((await doc()).status).toBe(404);
  });
});
