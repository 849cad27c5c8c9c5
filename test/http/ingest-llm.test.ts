// Ingest with an OpenAI-compatible LLM configured (a fake one on loopback): the model's facts
// are used, checked like client input, and any failure falls back to the rule-based extractor.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { chatReply, startFakeOpenAI, type FakeOpenAI } from '../helpers/fake-openai.js';
import { storedCounts, upload } from '../helpers/ingest.js';
import { makeDocx } from '../fixtures/make-fixtures.js';

const TEXT = `The Lisbon office opens at eight thirty on weekdays.
She moved the weekly sync to Thursdays because of the time zones.`;

describe('ingest with an LLM', () => {
  let t: TestApp;
  let fake: FakeOpenAI;
  const preview = (body: Record<string, unknown>) => t.api('POST', '/api/v1/ingest/preview', { body: { tenant_id: 'default', ...body } });

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    t = await startTestApp({ LOCI_LLM_URL: fake.url, LOCI_LLM_MODEL: 'fake-extractor', LOCI_LLM_TIMEOUT_MS: '1500' });
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });
  beforeEach(() => {
    fake.requests.length = 0;
  });

  it('uses the facts the model extracts, checked and deduplicated', async () => {
    fake.onChat(() => ({
      body: chatReply('```json\n' + JSON.stringify({
        facts: [
          { content: 'The Lisbon office opens at 8:30 on weekdays.', type: 'fact', salience: 0.7 },
          { content: 'Maria moved the weekly sync to Thursdays because of time zones.', type: 'decision', salience: 1.7 },
          { content: 'Maria moved the weekly sync to Thursdays because of the time zones.', type: 'decision', salience: 0.2 },
          { content: 'Ana prefers written handovers.', type: 'no-such-type' },
          { content: 'short' },
          { text: 'wrong shape' },
          'Visitors sign in at the front desk of the Lisbon office.',
        ],
      }) + '\n```'),
    }));
    const before = await storedCounts(t);
    const r = await preview({ content: TEXT, focus: 'office hours', source_uri: 'notes://lisbon' });
    expect(r.status).toBe(200);
    expect(r.body.extractor).toBe('llm');
    const llmFact = (content: string, type: string, salience: unknown) =>
      ({ content, suggested_type: type, source_uri: 'notes://lisbon', salience, title: expect.any(String), section: null, enriched_by: 'llm' });
    expect(r.body.facts).toEqual([
      llmFact('The Lisbon office opens at 8:30 on weekdays.', 'fact', 0.7),
      llmFact('Maria moved the weekly sync to Thursdays because of time zones.', 'decision', 1),
      llmFact('Ana prefers written handovers.', 'preference', expect.any(Number)),
      llmFact('Visitors sign in at the front desk of the Lisbon office.', 'fact', expect.any(Number)),
    ]);
    expect(r.body.facts.every((f: { title: string }) => f.title.length > 0 && f.title.length <= 80)).toBe(true);
    expect(await storedCounts(t)).toEqual(before);

    const req = fake.requests.at(-1)!;
    expect(req.body.model).toBe('fake-extractor');
    expect(req.body.response_format).toEqual({ type: 'json_object' });
    expect(req.body.messages[0].role).toBe('system');
    expect(req.body.messages[0].content).toContain('office hours');
    expect(req.body.messages[1]).toEqual({ role: 'user', content: TEXT });

    // The model's facts commit like any others.
    const c = await t.api('POST', '/api/v1/ingest/commit', { body: { tenant_id: 'default', facts: r.body.facts } });
    expect(c.body).toMatchObject({ memories_created: 4, errored: 0 });
    expect((await t.api('POST', `/api/v1/ingest/undo/${c.body.run_id}?tenant_id=default`)).body.deleted).toBe(4);
  });

  it('extracts from uploaded files too', async () => {
    fake.onChat((req) => ({
      body: chatReply(JSON.stringify({ facts: [{ content: `From the file: ${req.body.messages[1].content.split('\n')[0]}`, type: 'fact' }] })),
    }));
    const r = await upload(t, { data: makeDocx(['Parking permits renew every January.']), type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', filename: 'p.docx' }, { tenant_id: 'default' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ extractor: 'llm', format: 'docx', facts: [{ content: 'From the file: Parking permits renew every January.' }] });
  });

  it('falls back to the rule-based extractor when the model fails', async () => {
    const failures: Array<() => { status?: number; body?: unknown; delayMs?: number }> = [
      () => ({ status: 500, body: { error: 'down' } }),
      () => ({ body: chatReply('I could not find any facts, sorry.') }),
      () => ({ body: chatReply('{"facts": "none"}') }),
      () => ({ body: chatReply('{"facts": []}') }),
      () => ({ body: chatReply('{"facts": [') }),
      () => ({ delayMs: 3000, body: chatReply('{"facts": [{"content": "Too late to matter at all."}]}') }),
    ];
    for (const fail of failures) {
      fake.onChat(fail);
      const r = await preview({ content: TEXT });
      expect(r.status).toBe(200);
      expect(r.body.extractor).toBe('rules');
      expect(r.body.facts.map((f: { content: string }) => f.content)).toContain('The Lisbon office opens at eight thirty on weekdays.');
    }
  });

  it('sends a long document in chunks, and one past the LLM budget to the rules', async () => {
    let calls = 0;
    fake.onChat((req) => {
      calls++;
      const first = (req.body.messages[1].content as string).split('\n')[0];
      return { body: chatReply(JSON.stringify({ facts: [{ content: `Chunk ${calls} begins: ${first.slice(0, 60)}`, type: 'fact' }] })) };
    });
    const para = (i: number) => `Paragraph ${i} explains how the depot number ${i} schedules its deliveries every week.`;
    const long = Array.from({ length: 300 }, (_, i) => para(i)).join('\n\n'); // ≈ 27,000 characters
    const r = await preview({ content: long });
    expect(r.body.extractor).toBe('llm');
    expect(calls).toBe(3);
    expect(r.body.facts).toHaveLength(3);

    calls = 0;
    const huge = Array.from({ length: 800 }, (_, i) => para(i)).join('\n\n'); // > 60,000 characters
    const h = await preview({ content: huge });
    expect(h.body.extractor).toBe('rules');
    expect(calls).toBe(0);
  });
});
