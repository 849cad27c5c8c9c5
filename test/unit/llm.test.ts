// The OpenAI-compatible chat client against a fake endpoint on loopback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatEndpoint, LlmError, OpenAIChatClient } from '../../src/providers/llm/index.js';
import { createLlm } from '../../src/providers/llm/index.js';
import { loadConfig } from '../../src/config.js';
import { chatReply, startFakeOpenAI, type FakeOpenAI } from '../helpers/fake-openai.js';

let fake: FakeOpenAI;
beforeAll(async () => { fake = await startFakeOpenAI(); });
afterAll(async () => { await fake.close(); });

describe('OpenAI-compatible chat client', () => {
  it('resolves the endpoint from the base URL forms users write', () => {
    expect(chatEndpoint('http://h:1')).toBe('http://h:1/v1/chat/completions');
    expect(chatEndpoint('http://h:1/v1/')).toBe('http://h:1/v1/chat/completions');
    expect(chatEndpoint('http://h:1/v1/chat/completions')).toBe('http://h:1/v1/chat/completions');
  });

  it('sends model, messages, key and json mode, and returns the reply text', async () => {
    fake.onChat(() => ({ body: chatReply('  {"a":1}  ') }));
    const llm = new OpenAIChatClient({ url: fake.url, model: 'm1', key: 'sekret' });
    const out = await llm.complete([{ role: 'user', content: 'hi' }], { json: true, maxTokens: 50 });
    expect(out).toBe('{"a":1}');
    const req = fake.requests.at(-1)!;
    expect(req.headers.authorization).toBe('Bearer sekret');
    expect(req.body).toMatchObject({ model: 'm1', messages: [{ role: 'user', content: 'hi' }], max_tokens: 50, response_format: { type: 'json_object' } });
  });

  it('retries a 5xx within the deadline', async () => {
    let n = 0;
    fake.onChat(() => (++n === 1 ? { status: 503, body: {} } : { body: chatReply('second') }));
    const llm = new OpenAIChatClient({ url: fake.url, model: 'm', retryBaseMs: 1 });
    expect(await llm.complete([{ role: 'user', content: 'x' }])).toBe('second');
    expect(n).toBe(2);
  });

  it('gives up at the deadline with a timeout error', async () => {
    fake.onChat(() => ({ delayMs: 2_000, body: chatReply('late') }));
    const llm = new OpenAIChatClient({ url: fake.url, model: 'm' });
    const t = Date.now();
    const err = await llm.complete([{ role: 'user', content: 'x' }], { timeoutMs: 200 }).catch((e) => e);
    expect(err).toBeInstanceOf(LlmError);
    expect(err.code).toBe('timeout');
    expect(Date.now() - t).toBeLessThan(1_500);
  });

  it('does not retry a 400 and reports an empty reply as bad_reply', async () => {
    let n = 0;
    fake.onChat(() => { n++; return { status: 400, body: {} }; });
    const llm = new OpenAIChatClient({ url: fake.url, model: 'm', retryBaseMs: 1 });
    expect((await llm.complete([{ role: 'user', content: 'x' }]).catch((e) => e)).status).toBe(400);
    expect(n).toBe(1);
    fake.onChat(() => ({ body: chatReply('   ') }));
    expect((await llm.complete([{ role: 'user', content: 'x' }]).catch((e) => e)).code).toBe('bad_reply');
  });

  it('is absent unless configured, and a URL needs a model', () => {
    expect(createLlm(loadConfig({}))).toBeNull();
    expect(createLlm(loadConfig({ LOCI_LLM_URL: fake.url, LOCI_LLM_MODEL: 'm' }))?.modelId).toBe('openai:m');
    expect(() => loadConfig({ LOCI_LLM_URL: fake.url })).toThrow(/LOCI_LLM_MODEL/);
  });
});
