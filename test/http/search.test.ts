// Hybrid search over HTTP: the three legs, their filters, fusion diagnostics, recall counts and validation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { searchMemories, writeMemory } from '../helpers/memory-api.js';
import { SearchService } from '../../src/core/search/service.js';
import { resolveSearchConfig } from '../../src/core/search/config.js';

let t: TestApp;
beforeAll(async () => {
  // Word frequencies re-read on every search, so a test can ANALYZE and see the effect at once;
  // the entity extractor reads the query too (off by default), so its date reading is tested.
  t = await startTestApp({ LOCI_SEARCH_CONFIG: JSON.stringify({ keyword: { statsMaxAgeMs: 0 }, entity: { useExtractor: true } }) });
});
afterAll(async () => t?.close());

const write = (tenant: string, content: string, extra: Record<string, unknown> = {}, key?: string) => writeMemory(t, tenant, content, extra, key);
const search = (body: Record<string, unknown>, key?: string) => searchMemories(t, { top_k: 50, diagnostic: true, ...body }, key);

const ids = (items: any[]) => items.map((i) => i.id);
const item = (items: any[], id: string) => items.find((i) => i.id === id);

/** Unrelated memories, so every leg has something to rank against. */
const DISTRACTORS = [
  'The quarterly budget review is scheduled for the first Monday of the month.',
  'Our deployment pipeline runs the integration tests before every release.',
  'The office kitchen is restocked with coffee beans on Thursdays.',
  'Customer churn dropped after the onboarding emails were rewritten.',
  'The staging database is refreshed from production every night.',
];

describe('the legs', () => {
  const T = 'legs';
  let cat: any;
  let invoice: any;
  let err: any;
  let priya: any;
  beforeAll(async () => {
    for (const d of DISTRACTORS) await write(T, d);
    cat = await write(T, 'My feline companion naps beside the radiator.');
    invoice = await write(T, 'Payment for INV-2023-0042 arrived from the wholesaler.');
    await write(T, 'Payment for INV-2023-0041 arrived from the wholesaler.');
    await write(T, 'Payment for INV-2024-0042 is still outstanding.');
    err = await write(T, 'Checkout failed with ERR-4471 during the flash sale.');
    priya = await write(T, 'Priya Raman approved the hiring plan for the data team.');
  });

  it('finds a semantic match that shares no word with the query (vector leg only)', async () => {
    const { items } = await search({ tenant_id: T, query: 'Where does our cat sleep?' });
    expect(items[0].id).toBe(cat.id);
    expect(items[0].diagnostic.ranks).toMatchObject({ vector: 1, keyword: null, entity: null });
    expect(items[0].similarity).toBeGreaterThan(0.3);
    expect(items[0].similarity).toBeGreaterThan(items[1].similarity);
  });

  it('finds an identifier by keyword, the exact code above its near variants', async () => {
    const { items } = await search({ tenant_id: T, query: 'INV-2023-0042' });
    expect(items[0].id).toBe(invoice.id);
    expect(items[0].diagnostic.ranks.keyword).toBe(1);
    const e = await search({ tenant_id: T, query: 'what happened with ERR-4471?' });
    expect(e.items[0].id).toBe(err.id);
    expect(e.items[0].diagnostic.ranks.keyword).toBe(1);
  });

  it('a natural question finds memories sharing only some of its words (any-term keyword match)', async () => {
    const { items } = await search({ tenant_id: T, query: 'who approved the plan for hiring engineers last spring?' });
    expect(item(items, priya.id).diagnostic.ranks.keyword).toBe(1);
  });

  it('an entity named in the query pulls its memories in, by full name or one word of it', async () => {
    for (const query of ['Tell me about Priya Raman', 'what does priya work on?']) {
      const { items, diagnostic } = await search({ tenant_id: T, query });
      expect(diagnostic.entities.map((e: any) => e.name)).toContain('Priya Raman');
      expect(item(items, priya.id).diagnostic.ranks.entity).toBe(1);
      // Only memories linked to the entity come from the entity leg.
      expect(items.filter((i) => i.diagnostic.ranks.entity !== null).map((i) => i.id)).toEqual([priya.id]);
      expect(diagnostic.candidates.entity).toBe(1);
    }
  });

  it('a date in the query finds memories naming that date however it is written (entity extractor)', async () => {
    const audit = await write(T, 'The vendor audit happened on May 3, 2023 in the Lisbon office.');
    const { items, diagnostic } = await search({ tenant_id: T, query: 'what was going on 3rd of May 2023?' });
    expect(diagnostic.entities.map((e: any) => e.name)).toContain('May 3, 2023');
    expect(item(items, audit.id).diagnostic.ranks.entity).toBe(1);
  });

  it('returns memory records with similarity, fused in score order, top_k respected', async () => {
    const { items, diagnostic } = await search({ tenant_id: T, query: 'payment from the wholesaler', top_k: 3 });
    expect(items).toHaveLength(3);
    for (const i of items) {
      expect(i).toMatchObject({ tenant_id: T, status: 'active' });
      expect(typeof i.similarity).toBe('number');
      expect(Array.isArray(i.entity_links)).toBe(true);
    }
    const scores = items.map((i) => i.diagnostic.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(Object.keys(diagnostic.timings_ms).sort()).toEqual(['analyze', 'embed', 'entity', 'fuse', 'hydrate', 'keyword', 'total', 'vector']);
    // Without diagnostic the extra fields are absent.
    const plain = await t.api('POST', '/api/v1/search', { body: { tenant_id: T, query: 'payment' } });
    expect(plain.status).toBe(200);
    expect(plain.body.items).toHaveLength(5);
    expect(plain.body.diagnostic).toBeUndefined();
    expect(plain.body.items[0].diagnostic).toBeUndefined();
  });
});

describe('visibility, tenant and deletion hold in every leg', () => {
  const T = 'iso';
  const Q = 'Zephyrine Okafor keeps the ZX-9981 launch codes in the vault';
  let hidden: any;
  let visible: any;
  beforeAll(async () => {
    for (const d of DISTRACTORS) await write(T, d);
    visible = await write(T, 'Zephyrine Okafor locked the ZX-9981 launch codes in the vault.');
    // Another agent's private memory matching every leg as well as the visible one does.
    hidden = await write(T, 'Zephyrine Okafor keeps the ZX-9981 launch codes in the vault.', { agent_id: 'a2', visibility: 'scope_agent' });
    // Another tenant with the same memories.
    await write('iso-other', 'Zephyrine Okafor keeps the ZX-9981 launch codes in the vault.');
    await write('iso-other', 'Zephyrine Okafor locked the ZX-9981 launch codes in the vault.');
  });

  it('the owner finds the private memory through all three legs', async () => {
    const { items } = await search({ tenant_id: T, query: Q, agent_id: 'a2' }, await t.key(T, { agent: 'a2' }));
    const h = item(items, hidden.id);
    expect(h.diagnostic.ranks.vector).not.toBeNull();
    expect(h.diagnostic.ranks.keyword).not.toBeNull();
    expect(h.diagnostic.ranks.entity).not.toBeNull();
  });

  it('no other caller sees it in any leg (an admin key sees every visibility, as in the list)', async () => {
    const owner = await search({ tenant_id: T, query: Q, agent_id: 'a2' }, await t.key(T));
    expect(ids((await search({ tenant_id: T, query: Q })).items)).toContain(hidden.id);
    const tenantKey = await t.key(T);
    const agentKey = await t.key(T, { agent: 'a1' });
    for (const [body, key] of [[{ agent_id: 'a1' }, tenantKey], [{}, tenantKey], [{}, agentKey]] as const) {
      const r = await search({ tenant_id: T, query: Q, ...body }, key);
      expect(ids(r.items)).not.toContain(hidden.id);
      expect(ids(r.items)).toContain(visible.id);
      // Each leg brought exactly one candidate fewer than for the owner: the hidden row.
      for (const leg of ['vector', 'keyword', 'entity']) {
        expect(r.diagnostic.candidates[leg], leg).toBe(owner.diagnostic.candidates[leg] - 1);
      }
    }
  });

  it('never returns another tenant\'s rows, and another tenant\'s key gets 403 naming the tenant', async () => {
    const r = await search({ tenant_id: T, query: Q, agent_id: 'a2' });
    expect(r.items.every((i) => i.tenant_id === T)).toBe(true);
    expect(r.items).toHaveLength(DISTRACTORS.length + 2);
    const other = await t.key('iso-other');
    for (const path of ['/api/v1/search', '/api/v1/recall']) {
      const denied = await t.api('POST', path, { key: other, body: { tenant_id: T, query: Q } });
      expect(denied.status, path).toBe(403);
      expect(denied.body.detail).toContain(`"${T}"`);
    }
    const own = await search({ tenant_id: 'iso-other', query: Q }, other);
    expect(own.items.map((i) => i.tenant_id)).toEqual(['iso-other', 'iso-other']);
    // A key granted read access to the tenant may search it.
    const reader = await t.key('iso-other', { readable: [T] });
    expect((await search({ tenant_id: T, query: Q }, reader)).items.length).toBe(DISTRACTORS.length + 1);
  });

  it('a deleted memory drops out of every leg unless include_deleted', async () => {
    const tmp = await write(T, 'Zephyrine Okafor moved the ZX-9981 launch codes out of the vault.');
    const before = await search({ tenant_id: T, query: Q });
    expect(ids(before.items)).toContain(tmp.id);
    expect((await t.api('DELETE', `/api/v1/memories/${tmp.id}?tenant_id=${T}`)).status).toBe(204);
    const after = await search({ tenant_id: T, query: Q });
    expect(ids(after.items)).not.toContain(tmp.id);
    for (const leg of ['vector', 'keyword', 'entity']) expect(after.diagnostic.candidates[leg], leg).toBe(before.diagnostic.candidates[leg] - 1);
    const withDeleted = await search({ tenant_id: T, query: Q, include_deleted: true });
    const d = item(withDeleted.items, tmp.id);
    expect(d.deleted_at).not.toBeNull();
    expect(d.diagnostic.ranks.entity).not.toBeNull();
  });
});

describe('filters and default exclusions', () => {
  const T = 'filters';
  const Q = 'notes about the Falcon rollout';
  const m: Record<string, any> = {};
  beforeAll(async () => {
    m.f1 = await write(T, 'Falcon rollout note one: canary in region west.', { fleet_id: 'f1', memory_type: 'decision' });
    m.f2 = await write(T, 'Falcon rollout note two: canary in region east.', { fleet_id: 'f2', memory_type: 'task', agent_id: 'a2' });
    m.f3 = await write(T, 'Falcon rollout note three: full traffic shift.', { fleet_id: 'f3', status: 'confirmed' });
    m.old = await write(T, 'Falcon rollout note four: valid during 2023 only.', { ts_valid_start: '2023-01-01T00:00:00Z', ts_valid_end: '2024-01-01T00:00:00Z' });
    m.expired = await write(T, 'Falcon rollout note five: temporary freeze.', { expires_at: '2020-01-01T00:00:00Z' });
    m.outdated = await write(T, 'Falcon rollout note six: superseded plan.');
    m.conflicted = await write(T, 'Falcon rollout note seven: disputed schedule.');
    // The contradiction detector sets these statuses; clients cannot.
    await t.services.db.query(`UPDATE memories SET status = 'outdated' WHERE id = $1`, [m.outdated.id]);
    await t.services.db.query(`UPDATE memories SET status = 'conflicted' WHERE id = $1`, [m.conflicted.id]);
  });
  const found = async (body: Record<string, unknown>) => ids((await search({ tenant_id: T, query: Q, ...body })).items).sort();
  const of = (...names: string[]) => names.map((n) => m[n].id).sort();

  it('leaves out outdated and expired rows by default and returns conflicted ones with their status', async () => {
    const { items } = await search({ tenant_id: T, query: Q });
    expect(ids(items).sort()).toEqual(of('f1', 'f2', 'f3', 'old', 'conflicted'));
    expect(item(items, m.conflicted.id).status).toBe('conflicted');
    expect(await found({ include_outdated: true })).toEqual(of('f1', 'f2', 'f3', 'old', 'conflicted', 'outdated'));
    expect(await found({ include_expired: true })).toEqual(of('f1', 'f2', 'f3', 'old', 'conflicted', 'expired'));
    expect(await found({ status: 'outdated' })).toEqual(of('outdated'));
  });

  it('filters by fleet(s), type(s), status, author and validity instant', async () => {
    expect(await found({ fleet_id: 'f1' })).toEqual(of('f1'));
    expect(await found({ fleet_ids: ['f2', 'f3'] })).toEqual(of('f2', 'f3'));
    expect(await found({ fleet_id: 'f1', fleet_ids: ['f3'] })).toEqual(of('f1', 'f3'));
    expect(await found({ memory_type: 'decision' })).toEqual(of('f1'));
    expect(await found({ memory_types: ['decision', 'task'] })).toEqual(of('f1', 'f2'));
    expect(await found({ status: 'confirmed' })).toEqual(of('f3'));
    expect(await found({ filter_agent_id: 'a2' })).toEqual(of('f2'));
    expect(await found({ valid_at: '2023-06-01T00:00:00Z' })).toEqual(of('f1', 'f2', 'f3', 'old', 'conflicted'));
    expect(await found({ valid_at: '2024-01-01T00:00:00Z' })).toEqual(of('f1', 'f2', 'f3', 'conflicted'));
  });

  it('min_similarity drops results less similar to the query', async () => {
    const all = (await search({ tenant_id: T, query: 'canary in region west' })).items;
    const cut = (all[0].similarity + all[all.length - 1].similarity) / 2;
    const some = (await search({ tenant_id: T, query: 'canary in region west', min_similarity: cut })).items;
    expect(some.length).toBeGreaterThan(0);
    expect(some.length).toBeLessThan(all.length);
    expect(some.every((i) => i.similarity >= cut)).toBe(true);
    expect(ids(some)).toEqual(ids(all).filter((id) => item(all, id).similarity >= cut));
  });
});

describe('similarity of memories the vector leg did not rank', () => {
  it('is that of the memory itself, as when the vector leg ranks it', async () => {
    const T = 'own-similarity';
    const texts = ['Invoice INV-7781 for the Kestrel lamps was paid on Tuesday.', 'INV-7781 was filed under office lighting.'];
    const query = 'Was invoice INV-7781 paid?';
    for (const d of DISTRACTORS) await write(T, d);
    for (const x of texts) await write(T, x);
    const all = (await search({ tenant_id: T, query })).items;
    const similarity = new Map(all.map((i: any) => [i.content, i.similarity]));
    expect(texts.every((x) => all.find((i: any) => i.content === x)?.diagnostic.ranks.vector)).toBe(true);
    // A vector leg of one memory (and no units): the keyword leg finds the other one.
    const app = await startTestApp({ LOCI_SEARCH_CONFIG: JSON.stringify({ vector: { k: 1 }, passages: { enabled: false } }) });
    try {
      for (const d of DISTRACTORS) await writeMemory(app, T, d);
      for (const x of texts) await writeMemory(app, T, x);
      const { items } = await searchMemories(app, { tenant_id: T, query, top_k: 50, diagnostic: true });
      const unranked = items.filter((i: any) => i.diagnostic.ranks.vector === null);
      expect(unranked.length).toBeGreaterThan(0);
      for (const i of items) expect(i.similarity).toBeCloseTo(similarity.get(i.content), 3);
      // With a min_similarity cut, every candidate's similarity is known before the cut.
      const cut = Math.min(...items.map((i: any) => i.similarity)) - 0.01;
      const kept = await searchMemories(app, { tenant_id: T, query, top_k: 50, min_similarity: cut });
      expect(ids(kept.items).sort()).toEqual(ids(items).sort());
      const none = await searchMemories(app, { tenant_id: T, query, top_k: 50, min_similarity: Math.max(...items.map((i: any) => i.similarity)) + 0.01 });
      expect(none.items).toEqual([]);
    } finally {
      await app.close();
    }
  });
});

describe('keyword leg and word statistics', () => {
  it('a small tenant searches its informative words only, once ANALYZE has counted them, and still finds by the rest', async () => {
    // scanMinShare 1: before ANALYZE the tenant counts as the whole table and BM25 walks its index
    // (every memory holding a query word is a candidate); after it, the tenant's share is under 1
    // and its matches of the planned words are scored.
    const app = await startTestApp({ LOCI_SEARCH_CONFIG: JSON.stringify({ keyword: { statsMaxAgeMs: 0, scanMinShare: 1 } }) });
    try {
      const T = 'stats';
      for (let i = 0; i < 60; i++) await writeMemory(app, T, `Meeting ${i} of the reading group covered chapter ${i}.`);
      const target = await writeMemory(app, T, 'The meeting about the Quokka budget moved to Friday.');
      await writeMemory(app, 'stats-other', 'Another tenant.');
      const q = { tenant_id: T, query: 'meeting about the Quokka budget', top_k: 50, diagnostic: true };
      const before = await searchMemories(app, q);
      expect(before.diagnostic.keyword_terms).toContain('meet');
      expect(before.items[0].id).toBe(target.id);
      expect(before.diagnostic.candidates.keyword).toBe(50);
      await app.services.db.query('ANALYZE memories');
      const after = await searchMemories(app, q);
      expect(after.diagnostic.keyword_terms).not.toContain('meet');
      expect(after.diagnostic.keyword_terms).toEqual(expect.arrayContaining(['quokka', 'budget']));
      expect(after.items[0].id).toBe(target.id);
      expect(after.items[0].diagnostic.ranks.keyword).toBe(1);
      // Only the memory holding the informative words is a keyword candidate now.
      expect(after.diagnostic.candidates.keyword).toBe(1);
    } finally {
      await app.close();
    }
  });

  it('a title word counts less than a content word (keyword.titleWeight, ts_rank rankings); BM25 ranks content and the vector leg reads titles', async () => {
    const T = 'title-weight';
    for (const d of DISTRACTORS) await write(T, d);
    // Same word, in the title of a short memory and in the content of a longer one: with equal
    // weights the shorter one would rank first (length normalisation).
    const inTitle = await write(T, 'Zoo notes.', { title: 'Wombat' });
    const inContent = await write(T, 'The wombat enclosure at the city zoo needs new fencing before the winter notes.');
    const app = await startTestApp({ LOCI_SEARCH_CONFIG: JSON.stringify({ keyword: { rank: 'idf' } }) });
    try {
      for (const d of DISTRACTORS) await writeMemory(app, T, d);
      const idfTitle = await writeMemory(app, T, 'Zoo notes.', { title: 'Wombat' });
      const idfContent = await writeMemory(app, T, 'The wombat enclosure at the city zoo needs new fencing before the winter notes.');
      const { items } = await searchMemories(app, { tenant_id: T, query: 'wombat', top_k: 50, diagnostic: true });
      expect(item(items, idfContent.id).diagnostic.ranks.keyword).toBe(1);
      expect(item(items, idfTitle.id).diagnostic.ranks.keyword).toBe(2);
    } finally {
      await app.close();
    }
    const { items } = await search({ tenant_id: T, query: 'wombat' });
    expect(item(items, inContent.id).diagnostic.ranks.keyword).toBe(1);
    expect(item(items, inTitle.id).diagnostic.ranks.keyword).toBeNull();
    expect(item(items, inTitle.id).diagnostic.ranks.vector).toBeLessThanOrEqual(3);
  });

});

describe('vector leg', () => {
  it('a filtered search returns its full top k, however many closer rows the filter drops (iterative scan)', async () => {
    const blend = (n: number, visibility: string, a: string, b: string) => t.services.db.query(
      `INSERT INTO memories (id, tenant_id, agent_id, visibility, content, content_hash, embedding, embedding_model)
       SELECT gen_random_uuid(), 'crowd', 'x', $1, $1 || ' note ' || g, md5($1 || g),
              l2_normalize(a.embedding * array_fill((0.3 + (g % 37) / 60.0)::real, ARRAY[512])::vector
                           + b.embedding * array_fill((0.2 + (g % 11) / 20.0)::real, ARRAY[512])::vector), a.embedding_model
       FROM generate_series(1, $2::int) AS g, memories a, memories b WHERE a.id = $3 AND b.id = $4`, [visibility, n, a, b]);
    // Rows are added in SQL, as blends of real memories' vectors: the HNSW graph is what is under test.
    // Near the query: 2,000 private memories of agent x. Far from it: 300 the whole team sees.
    const c1 = await write('crowd', 'The database migration needs a rollback plan before Friday.', { agent_id: 'x', visibility: 'scope_agent' });
    const c2 = await write('crowd', 'We rehearsed the schema migration rollback on staging.', { agent_id: 'x', visibility: 'scope_agent' });
    await blend(2000, 'scope_agent', c1.id, c2.id);
    const f1 = await write('crowd', 'Lunch is at noon on the rooftop terrace.');
    const f2 = await write('crowd', 'Parking passes renew in May.');
    await blend(300, 'scope_team', f1.id, f2.id);
    // At this size the planner would sort the few visible rows exactly; at scale it walks the HNSW
    // index, which is what this test is about. The test database has one session: nudge it there.
    await t.services.db.query('SET enable_seqscan = off');
    await t.services.db.query('SET enable_sort = off');
    const q = { tenant_id: 'crowd', query: 'database migration rollback plan', top_k: 10, diagnostic: true };
    const caller = { tenantId: 'crowd', agentId: null, trust: 1, source: 'api_key' as const, readableTenants: [], authenticated: true };

    let full, short;
    const off = new SearchService({
      db: t.services.db, embedder: t.services.embedder, entities: t.services.entities, llm: null, llmTimeoutMs: 1000,
      config: resolveSearchConfig({ vector: { iterativeScan: 'off', efSearchMin: 10, efSearchFactor: 0.1 }, keyword: { enabled: false }, entity: { enabled: false } }),
    });
    try {
      full = await t.services.search.search(caller, q);
      short = await off.search(caller, q);
    } finally {
      await t.services.db.query('RESET enable_seqscan');
      await t.services.db.query('RESET enable_sort');
    }
    expect(full.diagnostic!.candidates.vector).toBe(t.services.search.config.vector.k);
    expect(full.items.every((i) => i.visibility === 'scope_team')).toBe(true);
    // The same search with iterative scan off and a short candidate list comes back short: the
    // nearest rows are invisible to the caller. The per-transaction setting is what keeps it full.
    expect(short.diagnostic!.candidates.vector).toBeLessThan(10);
  });
});

describe('content changes', () => {
  it('PATCHing content re-embeds and re-extracts: search finds the new text by meaning and entity, not the old', async () => {
    const T = 'patch';
    for (const d of DISTRACTORS) await write(T, d);
    const m = await write(T, 'Ingrid Castellanos filed the quarterly tax forms in the blue cabinet.');
    const before = await search({ tenant_id: T, query: 'Ingrid Castellanos' });
    expect(item(before.items, m.id).diagnostic.ranks.entity).toBe(1);

    const r = await t.api('PATCH', `/api/v1/memories/${m.id}?tenant_id=${T}`, { body: { content: 'Helga Vossberg adopted a golden retriever puppy.' } });
    expect(r.status).toBe(200);

    const byMeaning = await search({ tenant_id: T, query: 'Who got a new dog?' });
    expect(byMeaning.items[0].id).toBe(m.id);
    expect(byMeaning.items[0].diagnostic.ranks.vector).toBe(1);
    const byEntity = await search({ tenant_id: T, query: 'Helga Vossberg' });
    expect(item(byEntity.items, m.id).diagnostic.ranks.entity).toBe(1);
    const old = await search({ tenant_id: T, query: 'Ingrid Castellanos tax forms blue cabinet' });
    expect(old.diagnostic.entities.map((e: any) => e.name)).not.toContain('Ingrid Castellanos');
    const o = item(old.items, m.id);
    expect(o.diagnostic.ranks).toMatchObject({ keyword: null, entity: null });
    expect(o.diagnostic.ranks.vector).toBeGreaterThan(1);
  });
});

describe('recall counts', () => {
  it('search and recall increment recall_count and set last_recalled_at of the returned rows only', async () => {
    const T = 'counts';
    const hit = await write(T, 'The backup generator is tested every Friday at noon.');
    const miss = await write(T, 'Penguins huddle together to survive the Antarctic winter.');
    const s1 = await t.api('POST', '/api/v1/search', { body: { tenant_id: T, query: 'backup generator test schedule', top_k: 1 } });
    expect(s1.body.items.map((i: any) => i.id)).toEqual([hit.id]);
    expect(s1.body.items[0].recall_count).toBe(1);
    const at = s1.body.items[0].last_recalled_at;
    expect(Date.parse(at)).toBeGreaterThan(Date.now() - 60_000);
    await t.services.search.settled();
    const stored = (await t.api('GET', `/api/v1/memories/${hit.id}?tenant_id=${T}`)).body;
    expect(stored).toMatchObject({ recall_count: 1, last_recalled_at: at });

    const rc = await t.api('POST', '/api/v1/recall', { body: { tenant_id: T, query: 'backup generator test schedule', top_k: 1 } });
    expect(rc.body.items[0].recall_count).toBe(2);
    await t.services.search.settled();
    expect((await t.api('GET', `/api/v1/memories/${hit.id}?tenant_id=${T}`)).body.recall_count).toBe(2);
    const untouched = (await t.api('GET', `/api/v1/memories/${miss.id}?tenant_id=${T}`)).body;
    expect(untouched).toMatchObject({ recall_count: 0, last_recalled_at: null });
  });
});

describe('validation', () => {
  it('answers 422 naming each bad field, and changes nothing', async () => {
    const cases: [Record<string, unknown>, (string | number)[]][] = [
      [{ tenant_id: 'v', query: 'x', surprise: 1 }, ['body', 'surprise']],
      [{ tenant_id: 'v' }, ['body', 'query']],
      [{ tenant_id: 'v', query: '' }, ['body', 'query']],
      [{ tenant_id: 'v', query: '   ' }, ['body', 'query']],
      [{ tenant_id: 'v', query: 'x'.repeat(5001) }, ['body', 'query']],
      [{ tenant_id: 'v', query: 5 }, ['body', 'query']],
      [{ tenant_id: 'v', query: 'x', top_k: 0 }, ['body', 'top_k']],
      [{ tenant_id: 'v', query: 'x', top_k: 51 }, ['body', 'top_k']],
      [{ tenant_id: 'v', query: 'x', top_k: '5' }, ['body', 'top_k']],
      [{ tenant_id: 'v', query: 'x', top_k: 2.5 }, ['body', 'top_k']],
      [{ tenant_id: 'v', query: 'x', min_similarity: 1.5 }, ['body', 'min_similarity']],
      [{ tenant_id: 'v', query: 'x', memory_type: 'gossip' }, ['body', 'memory_type']],
      [{ tenant_id: 'v', query: 'x', memory_types: ['fact', 'gossip'] }, ['body', 'memory_types', 1]],
      [{ tenant_id: 'v', query: 'x', status: 'deleted' }, ['body', 'status']],
      [{ tenant_id: 'v', query: 'x', valid_at: 'yesterday' }, ['body', 'valid_at']],
      [{ tenant_id: 'v', query: 'x', fleet_ids: 'f1' }, ['body', 'fleet_ids']],
      [{ tenant_id: 'v', query: 'x', fleet_ids: [] }, ['body', 'fleet_ids']],
      [{ tenant_id: 'v', query: 'x', include_deleted: 'yes' }, ['body', 'include_deleted']],
      [{ tenant_id: 'v', query: 'x', diagnostic: 1 }, ['body', 'diagnostic']],
    ];
    const m = await write('v', 'A memory that must not be counted by a refused search.');
    for (const path of ['/api/v1/search', '/api/v1/recall']) {
      for (const [body, loc] of cases) {
        const r = await t.api('POST', path, { body });
        expect(r.status, `${path} ${JSON.stringify(body).slice(0, 80)}`).toBe(422);
        expect(r.body.detail.map((d: any) => d.loc), JSON.stringify(body).slice(0, 80)).toContainEqual(loc);
      }
      const bad = await t.api('POST', path, { body: { tenant_id: 'v', query: 'x', top_k: 0, min_similarity: 9 } });
      expect(bad.body.detail.map((d: any) => d.loc)).toEqual(expect.arrayContaining([['body', 'top_k'], ['body', 'min_similarity']]));
      expect((await t.api('POST', path, { raw: '{"tenant_id": "v", "query": ' })).status).toBeGreaterThanOrEqual(400);
      expect((await t.api('POST', path, { key: null, body: { tenant_id: 'v', query: 'x' } })).status).toBe(401);
    }
    await t.services.search.settled();
    expect((await t.api('GET', `/api/v1/memories/${m.id}?tenant_id=v`)).body.recall_count).toBe(0);
  });

  it('is in the OpenAPI document with its schemas', async () => {
    const doc = (await t.api('GET', '/api/openapi.json')).body;
    for (const path of ['/api/v1/search', '/api/v1/recall']) {
      const op = doc.paths[path].post;
      expect(op.requestBody.content['application/json'].schema.required.sort()).toEqual(['query']);
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '401', '403', '422']));
    }
  });
});
