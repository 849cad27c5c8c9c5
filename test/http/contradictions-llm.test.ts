// The LLM judge of the contradiction detector, against a fake OpenAI-compatible server on
// loopback: it confirms or rejects pairs above the similarity threshold, finds what the rules
// miss, and on any failure the rule verdict stands.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { chatReply, startFakeOpenAI, type FakeOpenAI } from '../helpers/fake-openai.js';

const run = randomBytes(4).toString('hex');

describe('contradiction detection with an LLM judge', () => {
  let t: TestApp;
  let fake: FakeOpenAI;
  let n = 0;
  // Reply per newer memory: a verdict, an HTTP failure, or a reply that is not the expected JSON.
  const replies = new Map<string, { verdict?: string; status?: number; text?: string }>();

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    fake.onChat((req) => {
      const user: string = req.body?.messages?.[1]?.content ?? '';
      const entry = [...replies].find(([newer]) => user.endsWith(newer))?.[1];
      if (!entry) return { body: chatReply('{"verdict": "none"}') };
      if (entry.status) return { status: entry.status, body: { error: 'down' } };
      return { body: chatReply(entry.text ?? JSON.stringify({ verdict: entry.verdict })) };
    });
    t = await startTestApp({
      LOCI_LLM_URL: fake.url, LOCI_LLM_MODEL: 'judge-test', LOCI_LLM_TIMEOUT_MS: '3000',
      // The judge's requests only: writes are enriched by the rules here (docs/enrichment.md).
      LOCI_ENRICH: 'rules',
    });
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  async function pair(older: string | Record<string, unknown>, newer: string | Record<string, unknown>) {
    const tenantId = `llm-${run}-${++n}`;
    const body = (x: string | Record<string, unknown>) => ({ tenant_id: tenantId, agent_id: 'a', ...(typeof x === 'string' ? { content: x } : x) });
    const o = await t.api('POST', '/api/v1/memories', { body: body(older) });
    const w = await t.api('POST', '/api/v1/memories', { body: body(newer) });
    expect([o.status, w.status]).toEqual([201, 201]);
    await t.services.bus.drain(30_000);
    const get = async (id: string) => (await t.api('GET', `/api/v1/memories/${id}?tenant_id=${tenantId}`)).body;
    return { tenantId, o: await get(o.body.id), n: await get(w.body.id) };
  }
  const asked = (text: string) => fake.requests.filter((r) => JSON.stringify(r.body).includes(text));

  it('finds a contradiction the rules miss', async () => {
    replies.set('The parking garage is closed at night.', { verdict: 'contradiction' });
    const { tenantId, o, n: w } = await pair('The parking garage is open 24 hours.', 'The parking garage is closed at night.');
    expect(o.status).toBe('conflicted');
    expect(w.supersedes_id).toBe(o.id);
    const f = (await t.api('GET', `/api/v1/memories/${w.id}/contradictions?tenant_id=${tenantId}`)).body;
    expect(f.contradictions).toMatchObject([{ id: o.id, direction: 'supersedes', reason: 'semantic_conflict' }]);
    const req = asked('The parking garage is closed at night.')[0];
    expect(req.body.model).toBe('judge-test');
    expect(req.body.response_format).toEqual({ type: 'json_object' });
    expect(req.body.messages[1].content).toBe('Older memory:\nThe parking garage is open 24 hours.\n\nNewer memory:\nThe parking garage is closed at night.');
  });

  it('an "update" verdict makes the older row outdated', async () => {
    replies.set('The event takes place in Hall B.', { verdict: 'update' });
    const { o, n: w } = await pair('The event takes place in Hall A.', 'The event takes place in Hall B.');
    expect(o.status).toBe('outdated');
    expect(w.supersedes_id).toBe(o.id);
  });

  it('rejects a pair the rules would flag', async () => {
    replies.set('The Q3 revenue was $2.5M.', { verdict: 'none' });
    const { o, n: w } = await pair('The Q3 revenue was $2.1M.', 'The Q3 revenue was $2.5M.');
    expect(asked('The Q3 revenue was $2.5M.')).toHaveLength(1);
    expect(o.status).toBe('active');
    expect(w.supersedes_id).toBeNull();
  });

  it('keeps the rule verdict when the LLM fails or answers nonsense', async () => {
    replies.set('Carol has three children.', { status: 500 });
    const failed = await pair('Carol has two children.', 'Carol has three children.');
    expect(asked('Carol has three children.').length).toBeGreaterThan(0);
    expect(failed.o.status).toBe('conflicted');
    expect(failed.n.supersedes_id).toBe(failed.o.id);

    replies.set('Dave is not allergic to peanuts.', { text: 'I think they contradict.' });
    const garbled = await pair('Dave is allergic to peanuts.', 'Dave is not allergic to peanuts.');
    expect(asked('Dave is not allergic to peanuts.')).toHaveLength(1);
    expect(garbled.o.status).toBe('conflicted');
  });

  it('does not ask about writer-given triples or pairs below the threshold', async () => {
    const subject = randomUUID();
    const structured = await pair(
      { content: 'Office move planned.', subject_entity_id: subject, predicate: 'located_in', object_value: 'Leeds' },
      { content: 'Office move done.', subject_entity_id: subject, predicate: 'located_in', object_value: 'York' });
    expect(structured.o.status).toBe('outdated');
    expect(asked('Office move done.')).toEqual([]);

    const unrelated = await pair('Alice lives in Berlin.', 'The nightly build passes on the main branch.');
    expect(asked('The nightly build passes on the main branch.')).toEqual([]);
    expect(unrelated.o.status).toBe('active');
  });
});
