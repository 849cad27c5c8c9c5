// Recall over HTTP: the search result plus a context summary, extractive without an LLM, and
// written by an OpenAI-compatible chat model when one is configured (a fake one on loopback),
// falling back to extractive on timeout or error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { chatReply, startFakeOpenAI, type FakeOpenAI } from '../helpers/fake-openai.js';

async function write(t: TestApp, tenant: string, content: string, extra: Record<string, unknown> = {}) {
  const r = await t.api('POST', '/api/v1/memories', { body: { tenant_id: tenant, agent_id: 'a1', content, ...extra } });
  if (r.status !== 201) throw new Error(`write failed: ${r.status} ${r.text}`);
  return r.body;
}

const recall = (t: TestApp, body: Record<string, unknown>) => t.api('POST', '/api/v1/recall', { body });

describe('recall without an LLM (extractive summary)', () => {
  let t: TestApp;
  const T = 'rx';
  const m: Record<string, any> = {};
  beforeAll(async () => {
    t = await startTestApp();
    m.lead = await write(t, T, 'Marta Kowalski leads the Oslo office.');
    m.lang = await write(t, T, 'Marta Kowalski prefers written status updates over meetings.');
    m.dupA = await write(t, T, 'The Oslo office moved to the harbour building in March.');
    m.dupB = await write(t, T, 'The Oslo office moved to the harbour building in March 2024.');
    m.conflict = await write(t, T, 'Marta Kowalski starts her sabbatical in June.');
    m.outdated = await write(t, T, 'Marta Kowalski leads the Bergen office.');
    await t.services.db.query(`UPDATE memories SET status = 'conflicted' WHERE id = $1`, [m.conflict.id]);
    await t.services.db.query(`UPDATE memories SET status = 'outdated' WHERE id = $1`, [m.outdated.id]);
  });
  afterAll(async () => t?.close());

  it('answers the search result and a summary grouped by subject, citing every fact by id', async () => {
    const r = await recall(t, { tenant_id: T, query: 'What do we know about Marta Kowalski and the Oslo office?', top_k: 10 });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['items', 'memories', 'memory_count', 'query', 'recall_ms', 'summary', 'summary_source']);
    expect(r.body).toMatchObject({ query: 'What do we know about Marta Kowalski and the Oslo office?', summary_source: 'extractive', memory_count: 5 });
    expect(r.body.items).toEqual(r.body.memories);
    expect(typeof r.body.recall_ms).toBe('number');
    const summary: string = r.body.summary;
    // Outdated rows drop out; the others are cited.
    expect(r.body.items.map((i: any) => i.id)).not.toContain(m.outdated.id);
    expect(summary).not.toContain(m.outdated.id);
    for (const k of ['lead', 'lang', 'conflict']) expect(summary).toContain(`[${m[k].id}]`);
    expect(summary).toMatch(/^Marta Kowalski:\n- /m);
    expect(summary).toMatch(/^Oslo:\n- /m);
    // The conflicted fact is flagged next to its id.
    expect(summary).toContain(`sabbatical in June. (conflicted) [${m.conflict.id}]`);
    expect(r.body.items.find((i: any) => i.id === m.conflict.id).status).toBe('conflicted');
  });

  it('keeps only one of two near-duplicate facts in the summary (both stay in the items)', async () => {
    const r = await recall(t, { tenant_id: T, query: 'When did the Oslo office move to the harbour building?', top_k: 10 });
    const cited = [m.dupA.id, m.dupB.id].filter((id) => r.body.summary.includes(id));
    expect(cited).toHaveLength(1);
    expect(r.body.items.map((i: any) => i.id)).toEqual(expect.arrayContaining([m.dupA.id, m.dupB.id]));
  });

  it('says so when nothing is found', async () => {
    const r = await recall(t, { tenant_id: 'rx-empty', query: 'anything at all' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ summary: 'No relevant context found.', summary_source: 'extractive', memory_count: 0, memories: [], items: [] });
  });

  it('passes diagnostic through', async () => {
    const r = await recall(t, { tenant_id: T, query: 'Marta Kowalski', diagnostic: true });
    expect(r.body.diagnostic.timings_ms.total).toBeGreaterThan(0);
    expect(r.body.items[0].diagnostic.ranks).toHaveProperty('entity');
  });
});

describe('recall with an LLM', () => {
  let t: TestApp;
  let llm: FakeOpenAI;
  const T = 'rl';
  const m: Record<string, any> = {};
  beforeAll(async () => {
    llm = await startFakeOpenAI();
    t = await startTestApp({ LOCI_LLM_URL: llm.url, LOCI_LLM_MODEL: 'fake-model', LOCI_LLM_TIMEOUT_MS: '400' });
    m.a = await write(t, T, 'Tomasz Brandt owns the billing service.');
    m.b = await write(t, T, 'Tomasz Brandt is on call this week.');
    await t.services.db.query(`UPDATE memories SET status = 'conflicted' WHERE id = $1`, [m.b.id]);
  });
  afterAll(async () => {
    await t?.close();
    await llm?.close();
  });

  it('the LLM writes the summary from a prompt holding the query and the memories with their ids', async () => {
    llm.onChat(() => ({ body: chatReply(`Tomasz Brandt owns billing [${m.a.id}] and is on call (conflicted) [${m.b.id}].`) }));
    const before = llm.requests.length;
    const r = await recall(t, { tenant_id: T, query: 'Who owns billing?' });
    expect(r.status).toBe(200);
    expect(r.body.summary_source).toBe('llm');
    expect(r.body.summary).toBe(`Tomasz Brandt owns billing [${m.a.id}] and is on call (conflicted) [${m.b.id}].`);
    const sent = llm.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0].body.model).toBe('fake-model');
    const prompt = sent[0].body.messages.map((x: any) => x.content).join('\n');
    expect(prompt).toContain('Who owns billing?');
    expect(prompt).toContain(`[${m.a.id}]`);
    expect(prompt).toContain(`(conflicted) [${m.b.id}]`);
  });

  it('names a conflicted memory the LLM reply left out', async () => {
    llm.onChat(() => ({ body: chatReply('Tomasz Brandt owns billing.') }));
    const r = await recall(t, { tenant_id: T, query: 'Who owns billing?' });
    expect(r.body.summary_source).toBe('llm');
    expect(r.body.summary).toMatch(/^Tomasz Brandt owns billing\./);
    expect(r.body.summary).toContain(`Conflicted memories (contested by another memory): [${m.b.id}]`);
  });

  it('falls back to the extractive summary when the LLM times out', async () => {
    llm.onChat(() => ({ delayMs: 3_000, body: chatReply('too late') }));
    const r = await recall(t, { tenant_id: T, query: 'Who owns billing?' });
    expect(r.status).toBe(200);
    expect(r.body.summary_source).toBe('extractive');
    expect(r.body.summary).not.toContain('too late');
    expect(r.body.summary).toContain(`[${m.a.id}]`);
  });

  it('falls back to the extractive summary when the LLM answers an error or nothing usable', async () => {
    for (const reply of [{ status: 500, body: { error: 'boom' } }, { body: { choices: [] } }, { body: chatReply('   ') }]) {
      llm.onChat(() => reply);
      const r = await recall(t, { tenant_id: T, query: 'Who owns billing?' });
      expect(r.status, JSON.stringify(reply)).toBe(200);
      expect(r.body.summary_source).toBe('extractive');
      expect(r.body.summary).toContain(`(conflicted) [${m.b.id}]`);
    }
  });

  it('does not call the LLM when nothing is found', async () => {
    llm.onChat(() => ({ body: chatReply('should not be used') }));
    const before = llm.requests.length;
    const r = await recall(t, { tenant_id: 'rl-empty', query: 'Who owns billing?' });
    expect(r.body).toMatchObject({ summary: 'No relevant context found.', summary_source: 'extractive' });
    expect(llm.requests.length).toBe(before);
  });
});
