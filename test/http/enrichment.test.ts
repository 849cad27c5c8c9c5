// Write-time enrichment over HTTP: type, title and tags a client leaves out are inferred and
// marked, the client's own values win, bulk writes get the same, an edit of the content infers
// again what was inferred, and with a chat model configured (a fake OpenAI-compatible server)
// the model answers — within its time limit, else the rules do. LOCI_ENRICH=off infers nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { chatReply, startFakeOpenAI, type FakeOpenAI } from '../helpers/fake-openai.js';

async function write(t: TestApp, body: Record<string, unknown>) {
  const r = await t.api('POST', '/api/v1/memories', { body: { tenant_id: 'default', agent_id: 'a1', ...body } });
  expect(r.status, r.text).toBe(201);
  return r.body;
}

describe('enrichment by rules', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  it('infers the type, a title and tags, and marks them', async () => {
    const m = await write(t, { content: 'We decided to move the Lisbon launch to May because the audit slipped.' });
    expect(m).toMatchObject({
      memory_type: 'decision',
      title: 'We decided to move the Lisbon launch to May because the audit slipped',
      metadata: { enriched_by: 'rules', enriched_fields: ['memory_type', 'title', 'tags'] },
    });
    expect(m.metadata.tags).toEqual(expect.arrayContaining(['lisbon']));
    expect(m.metadata.tags.length).toBeLessThanOrEqual(5);
    const types = await Promise.all([
      write(t, { content: 'Ana prefers window seats on long flights.' }),
      write(t, { content: 'I promise to send you the signed contract by Friday.' }),
      write(t, { content: 'The offsite in Porto was cancelled because of the storm.' }),
      write(t, { content: 'Need to renew the TLS certificate before the end of the month.' }),
      write(t, { content: 'The billing service runs on three nodes in Frankfurt.' }),
    ]);
    expect(types.map((x) => x.memory_type)).toEqual(['preference', 'commitment', 'cancellation', 'task', 'fact']);
  });

  it("keeps the client's own values and marks only what it inferred", async () => {
    const own = await write(t, {
      content: 'Marta reviewed the quarterly numbers with the board.', memory_type: 'episode', title: 'Board review', metadata: { tags: ['board'] },
    });
    expect(own).toMatchObject({ memory_type: 'episode', title: 'Board review', metadata: { tags: ['board'] } });
    expect(own.metadata).not.toHaveProperty('enriched_by');

    const partial = await write(t, { content: 'The team chose Vitest over Jest for speed.', memory_type: 'fact', metadata: { enriched_by: 'me' } });
    expect(partial.memory_type).toBe('fact');
    expect(partial.title).toBe('The team chose Vitest over Jest for speed');
    expect(partial.metadata).toMatchObject({ enriched_by: 'me', enriched_fields: ['title', 'tags'] });
  });

  it('never infers a server-produced type', async () => {
    const m = await write(t, { content: 'Always rotate the keys; never store them in the repository.' });
    expect(['outcome', 'rule', 'insight']).not.toContain(m.memory_type);
  });

  it('enriches bulk items the same way', async () => {
    const r = await t.api('POST', '/api/v1/memories/bulk', {
      headers: { 'x-bulk-attempt-id': 'enrich-bulk-1' },
      body: {
        tenant_id: 'default', agent_id: 'a1',
        items: [{ content: 'Priya plans to visit the Osaka office next month.' }, { content: 'Tom likes green tea.', memory_type: 'fact', title: 'Tea' }],
      },
    });
    expect(r.status).toBe(200);
    const [a, b] = await Promise.all(r.body.results.map((x: { id: string }) => t.api('GET', `/api/v1/memories/${x.id}?tenant_id=default`)));
    expect(a.body).toMatchObject({ memory_type: 'plan', title: 'Priya plans to visit the Osaka office next month', metadata: { enriched_by: 'rules' } });
    expect(b.body).toMatchObject({ memory_type: 'fact', title: 'Tea', metadata: { enriched_fields: ['tags'] } });
  });

  it('infers again what was inferred when the content changes; a field the client sets is its own from then on', async () => {
    const m = await write(t, { content: 'Ana prefers tea over coffee.' });
    const path = `/api/v1/memories/${m.id}?tenant_id=default`;
    const edited = await t.api('PATCH', path, { body: { content: 'Ana decided to quit coffee after the doctor visit.' } });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({
      memory_type: 'decision', title: 'Ana decided to quit coffee after the doctor visit', metadata: { enriched_by: 'rules' },
    });
    const titled = await t.api('PATCH', path, { body: { title: 'Coffee' } });
    expect(titled.body.metadata.enriched_fields).not.toContain('title');
    const again = await t.api('PATCH', path, { body: { content: 'Ana wants to learn Portuguese next year.' } });
    expect(again.body).toMatchObject({ title: 'Coffee', memory_type: 'intention' });
    // The inferred title is not part of what the memory is found by: only the client's is.
    const replaced = await t.api('PATCH', path, { body: { metadata: { k: 1 }, metadata_mode: 'replace' } });
    expect(replaced.body.metadata).toEqual({ k: 1 });
  });
});

describe('enrichment by a chat model', () => {
  let t: TestApp;
  let fake: FakeOpenAI;
  beforeAll(async () => {
    fake = await startFakeOpenAI();
    t = await startTestApp({ LOCI_LLM_URL: fake.url, LOCI_LLM_MODEL: 'fake-enricher', LOCI_ENRICH_LLM_TIMEOUT_MS: '800' });
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it("uses the model's type, title and tags, checked, and marks them llm", async () => {
    fake.onChat(() => ({ body: chatReply('```json\n{"memory_type": "plan", "title": "Move to Porto", "tags": ["Porto Office", "move", "move"]}\n```') }));
    const m = await write(t, { content: 'We are moving the support team to the Porto office in spring.' });
    expect(m).toMatchObject({ memory_type: 'plan', title: 'Move to Porto', metadata: { enriched_by: 'llm', tags: ['porto-office', 'move'] } });
    const req = fake.requests.at(-1)!;
    expect(req.body.messages.at(-1).content).toBe('We are moving the support team to the Porto office in spring.');
    expect(req.body.response_format).toEqual({ type: 'json_object' });
  });

  it('falls back to the rules for what the model gets wrong, and never takes a server-produced type', async () => {
    fake.onChat(() => ({ body: chatReply('{"memory_type": "insight", "title": 42}') }));
    const m = await write(t, { content: 'Ana prefers aisle seats on short flights.' });
    expect(m).toMatchObject({ memory_type: 'preference', title: 'Ana prefers aisle seats on short flights' });
    fake.onChat(() => ({ status: 500, body: { error: 'down' } }));
    const down = await write(t, { content: 'Need to renew the domain before June.' });
    expect(down).toMatchObject({ memory_type: 'task', metadata: { enriched_by: 'rules' } });
  });

  it('waits for the model no longer than LOCI_ENRICH_LLM_TIMEOUT_MS', async () => {
    fake.onChat(() => ({ delayMs: 5_000, body: chatReply('{"memory_type": "fact", "title": "late"}') }));
    const started = Date.now();
    const m = await write(t, { content: 'The Oslo office closes at six on Fridays.' });
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(m.title).not.toBe('late');
    expect(m.metadata.enriched_by).toBe('rules');
  });

  it('asks nothing when the client gave type and title', async () => {
    const before = fake.requests.length;
    await write(t, { content: 'Tom runs the Friday demo.', memory_type: 'fact', title: 'Demo' });
    expect(fake.requests.length).toBe(before);
  });
});

describe('LOCI_ENRICH=off', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ LOCI_ENRICH: 'off' });
  });
  afterAll(async () => t?.close());

  it('infers nothing: fact, no title, no marks', async () => {
    const m = await write(t, { content: 'We decided to move the launch to May.' });
    expect(m).toMatchObject({ memory_type: 'fact', title: null, metadata: {} });
  });
});
