// Contradiction detection end to end: writes over HTTP, the detector on the bus, statuses,
// supersedes links, the write response's pre-check and GET …/contradictions from both sides.
// Runs over the in-process bus with the memory cache, and over NATS JetStream with Redis when
// LOCI_TEST_NATS_URL and LOCI_TEST_REDIS_URL are set.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { cleanupNats, cleanupRedis, natsRedisEnv } from '../helpers/infra.js';

const NATS_URL = process.env.LOCI_TEST_NATS_URL;
const REDIS_URL = process.env.LOCI_TEST_REDIS_URL;
const run = randomBytes(4).toString('hex');

const variants: Array<{ name: string; env: () => Record<string, string> }> = [{ name: 'in-process bus, memory cache', env: () => ({}) }];
if (NATS_URL && REDIS_URL) variants.push({ name: 'NATS bus, Redis cache', env: () => natsRedisEnv(`CONTRA_${run}`) });

describe.each(variants)('contradiction detection ($name)', ({ env }) => {
  let t: TestApp;
  let n = 0;
  const tenant = () => `contra-${run}-${++n}`;

  beforeAll(async () => {
    t = await startTestApp(env());
  });
  afterAll(async () => {
    const cfg = t?.config;
    await t?.close();
    if (cfg?.natsUrl) await cleanupNats(cfg.natsStream);
    if (cfg?.redisUrl) await cleanupRedis(cfg.cachePrefix);
  });

  async function write(tenantId: string, body: Record<string, unknown>, key?: string) {
    const r = await t.api('POST', '/api/v1/memories', { key, body: { tenant_id: tenantId, agent_id: 'agent-a', ...body } });
    expect(r.status, r.text).toBe(201);
    return r.body;
  }
  const drain = () => t.services.bus.drain(30_000);
  async function get(tenantId: string, id: string) {
    const r = await t.api('GET', `/api/v1/memories/${id}?tenant_id=${tenantId}`);
    expect(r.status, r.text).toBe(200);
    return r.body;
  }
  async function findings(tenantId: string, id: string, key?: string) {
    const r = await t.api('GET', `/api/v1/memories/${id}/contradictions?tenant_id=${tenantId}`, { key });
    expect(r.status, r.text).toBe(200);
    return r.body;
  }

  /** Writes older then newer, drains the bus, and returns both rows as they are now. */
  async function pair(older: string | Record<string, unknown>, newer: string | Record<string, unknown>, tenantId = tenant()) {
    const o = await write(tenantId, typeof older === 'string' ? { content: older } : older);
    const w = await write(tenantId, typeof newer === 'string' ? { content: newer } : newer);
    await drain();
    return { tenantId, o: await get(tenantId, o.id), n: await get(tenantId, w.id), written: w };
  }

  /** Both sides of a finding, through the endpoint. */
  async function expectLinked(tenantId: string, older: any, newer: any, reason: 'rdf_conflict' | 'semantic_conflict') {
    const fromOld = await findings(tenantId, older.id);
    expect(fromOld.detection_status).toBe('completed');
    expect(fromOld.contradictions).toEqual([{
      id: newer.id, status: newer.status, reason, content_preview: newer.content, direction: 'superseded_by', created_at: newer.created_at,
    }]);
    expect(fromOld.superseded_by).toEqual([{ id: newer.id, status: newer.status, reason, content_preview: newer.content, created_at: newer.created_at }]);
    expect(fromOld.superseded_memories).toEqual([]);
    const fromNew = await findings(tenantId, newer.id);
    expect(fromNew.detection_status).toBe('completed');
    expect(fromNew.contradictions).toEqual([{
      id: older.id, status: older.status, reason, content_preview: older.content, direction: 'supersedes', created_at: older.created_at,
    }]);
    expect(fromNew.superseded_by).toEqual([]);
    expect(fromNew.superseded_memories).toEqual([{ id: older.id, status: older.status, reason, content_preview: older.content, created_at: older.created_at }]);
  }

  async function expectUntouched(tenantId: string, ...rows: any[]) {
    for (const r of rows) {
      const now = await get(tenantId, r.id);
      expect(now.status).toBe('active');
      expect(now.supersedes_id).toBeNull();
      const f = await findings(tenantId, r.id);
      expect(f).toEqual({ detection_status: 'pending', contradictions: [], superseded_by: [], superseded_memories: [] });
    }
  }

  it('a writer-given triple: the older row becomes outdated, the write response already says so', async () => {
    const subject = randomUUID();
    const tenantId = tenant();
    const o = await write(tenantId, { content: 'Moving house again.', subject_entity_id: subject, predicate: 'lives_in', object_value: 'Berlin' });
    expect(o.superseded_by).toEqual([]);
    const w = await write(tenantId, { content: 'Settled in at the new flat.', subject_entity_id: subject, predicate: 'lives_in', object_value: 'Leipzig' });
    expect(w.superseded_by).toEqual([{ old_memory_id: o.id, old_status: 'outdated', reason: 'rdf_conflict', old_content_preview: 'Moving house again.' }]);
    await drain();
    const older = await get(tenantId, o.id);
    const newer = await get(tenantId, w.id);
    expect(older.status).toBe('outdated');
    expect(older.supersedes_id).toBeNull();
    expect(older.content).toBe('Moving house again.');
    expect(newer.status).toBe('active');
    expect(newer.supersedes_id).toBe(o.id);
    await expectLinked(tenantId, older, newer, 'rdf_conflict');
  });

  it('a writer-given triple with the same value, or a multi-valued predicate, supersedes nothing', async () => {
    const subject = randomUUID();
    const same = await pair(
      { content: 'Status update for Orion.', subject_entity_id: subject, predicate: 'status', object_value: 'In Progress' },
      { content: 'Orion update.', subject_entity_id: subject, predicate: 'status', object_value: 'in progress' });
    expect(same.written.superseded_by).toEqual([]);
    await expectUntouched(same.tenantId, same.o, same.n);
    const likes = await pair(
      { content: 'Food preferences noted.', subject_entity_id: subject, predicate: 'likes', object_value: 'sushi' },
      { content: 'More food preferences.', subject_entity_id: subject, predicate: 'likes', object_value: 'ramen' });
    expect(likes.written.superseded_by).toEqual([]);
    await expectUntouched(likes.tenantId, likes.o, likes.n);
  });

  it('a triple extracted from the content: the older row becomes outdated', async () => {
    const { tenantId, o, n, written } = await pair('Alice lives in Berlin.', 'Alice moved to Munich.');
    // Only the writer-given triples are pre-checked; the detector finds this one after the write.
    expect(written.superseded_by).toEqual([]);
    expect(o.status).toBe('outdated');
    expect(n.status).toBe('active');
    expect(n.supersedes_id).toBe(o.id);
    await expectLinked(tenantId, o, n, 'rdf_conflict');
  });

  it('a semantic conflict: the older row becomes conflicted', async () => {
    const { tenantId, o, n } = await pair('The Q2 revenue was $1.2M.', 'The Q2 revenue was $1.5M.');
    expect(o.status).toBe('conflicted');
    expect(n.status).toBe('active');
    expect(n.supersedes_id).toBe(o.id);
    await expectLinked(tenantId, o, n, 'semantic_conflict');
    const flip = await pair('Dave is allergic to peanuts.', 'Dave is not allergic to peanuts.');
    expect(flip.o.status).toBe('conflicted');
    expect(flip.n.supersedes_id).toBe(flip.o.id);
  });

  it('look-alikes change nothing: different subjects, compatible facts, paraphrases', async () => {
    for (const [older, newer] of [
      ['Alice lives in Berlin.', 'Bob lives in Munich.'],
      ['Bob likes jazz.', 'Bob likes classical music.'],
      ['Dave works at Google.', 'Dave works at Google on the Maps team.'],
      ['Frank moved to Munich.', 'Frank lives in Munich.'],
      ['The Pro plan costs $20 per month.', 'The Pro plan costs $200 per year.'],
      ['Alice bought a new car in March.', 'Alice sold her old car in March.'],
    ]) {
      const { tenantId, o, n } = await pair(older, newer);
      await expectUntouched(tenantId, o, n);
    }
  });

  it('code and markup are no statements: snippets sharing code lines stay active, a change beside code is found', async () => {
    const snippets = await pair("Handler signature in our router:\nfunction handler (req, res, params) {\n  res.end('hello')\n}",
      "Handlers can be arrows too:\nconst handler = (req, res, params) => {\n  res.end('ok')\n}");
    await expectUntouched(snippets.tenantId, snippets.o, snippets.n);
    const { tenantId, o, n } = await pair('Deploy notes\n```\nnpm run build\n```\nThe API is hosted on Heroku.',
      'Deploy notes\n```\nnpm run build\n```\nWe moved the API from Heroku to Fly.io.');
    expect(o.status).toBe('outdated');
    await expectLinked(tenantId, o, n, 'rdf_conflict');
  });

  it('chat turns of two speakers, written as "Speaker: text", leave every memory active', async () => {
    // Turns of one chat over two days: greetings, vocatives, feelings, news. "I" is a different
    // person on each side, and a turn is not a `key: value` note whose key is its speaker.
    const turns = [
      'Priya: Morning Tomas! Did you get any sleep after the late shift?',
      'Tomas: Barely, Priya. The ward was chaos until 3. How was the climbing gym?',
      'Priya: So good! I finally topped the orange route I kept falling off. My forearms are toast.',
      'Tomas: Ha, congrats! I keep meaning to try bouldering. Maybe after exams.',
      'Priya: You should, it clears my head like nothing else. Are you still doing the night rotation?',
      'Tomas: Two more weeks of nights, then days again. I miss seeing the sun honestly.',
      'Priya: Hey Tomas! Quick one: my sister is visiting this weekend, any brunch spots you like?',
      'Tomas: Hi Priya! The place by the canal does great pancakes. Tell her I said hi!',
      'Priya: Thanks! We went yesterday and it was lovely. She wants to move here now, haha.',
      'Tomas: Wow, that would be fun for you both. Anything else new with you?',
      'Priya: I started a pottery class on Thursdays. My first bowl looks like a hat.',
      'Tomas: A hat bowl is still a bowl! I am proud of you. Show me next time.',
    ];
    const tenantId = tenant();
    const r = await t.api('POST', '/api/v1/memories/bulk', {
      body: { tenant_id: tenantId, agent_id: 'agent-a', items: turns.map((content) => ({ content })) }, headers: { 'x-bulk-attempt-id': `chat-${tenantId}` },
    });
    expect(r.status, r.text).toBe(200);
    await drain();
    const list = await t.api('GET', `/api/v1/memories?tenant_id=${tenantId}&limit=50`);
    expect(list.status, list.text).toBe(200);
    expect(list.body.items).toHaveLength(turns.length);
    expect(list.body.items.filter((m: any) => m.status !== 'active' || m.supersedes_id).map((m: any) => m.content)).toEqual([]);
  });

  it("in chat, a speaker's own update outdates what they said before; another speaker's does not", async () => {
    const moved = await pair('Nadia: I live in Leeds with my two cats.', 'Nadia: Big news, I moved to York last month! Loving it so far.');
    expect(moved.o.status).toBe('outdated');
    await expectLinked(moved.tenantId, moved.o, moved.n, 'rdf_conflict');
    const named = await pair('Nadia lives in Leeds.', 'Nadia: I moved to York last month!');
    expect(named.o.status).toBe('outdated');
    for (const [older, newer] of [
      ['Nadia: I live in Leeds with my two cats.', 'Omar: Big news, I moved to York last month! Loving it so far.'],
      ['Jon: Thanks! I will not quit on my dreams. Your words really motivate me.', "Jon: Thanks! I won't quit, no matter what. Your encouragement keeps me going."],
    ]) {
      const { tenantId, o, n } = await pair(older, newer);
      await expectUntouched(tenantId, o, n);
    }
  });

  it('a transcript or a long text stays searchable: an update of one of its sentences marks it conflicted, never outdated', async () => {
    const older = 'Nadia: Hi Omar! Long time no talk!\nOmar: Hey Nadia, that\'s awesome to hear from you.\n' +
      'Nadia: I live in Leeds with my two cats and I work at the library.\nOmar: Sounds like an incredible life!';
    const newer = 'Nadia: Big news, I moved to York last month! Loving it so far.\nOmar: Wow, way to go!';
    const { tenantId, o, n } = await pair(older, newer);
    expect(o.status).toBe('conflicted');
    expect(n.supersedes_id).toBe(o.id);
    await expectLinked(tenantId, o, n, 'semantic_conflict');
    const found = await t.api('POST', '/api/v1/search', { body: { tenant_id: tenantId, query: 'Nadia works at the library', top_k: 5 } });
    expect(found.status, found.text).toBe(200);
    expect(found.body.items.map((x: any) => x.id)).toContain(o.id);
    // A note (one writer, no dialogue) is still replaced outright.
    const note = await pair('Nadia: I live in Leeds with my two cats.', 'Nadia: Big news, I moved to York last month! Loving it so far.');
    expect(note.o.status).toBe('outdated');
    // A long text of many facts is contradicted in one of them, not replaced.
    const long = 'Nadia lives in Leeds with her two cats, Pip and Mango. She works at the central library on weekdays ' +
      'and volunteers at the food bank on Saturday mornings. Her sister Lena studies medicine in Glasgow and visits ' +
      'every other month. Nadia is learning Portuguese for a trip to Lisbon next spring, takes a pottery class on ' +
      'Thursday evenings, and swims twice a week at the leisure centre. She prefers tea to coffee and is vegetarian. ' +
      'Her favourite author is Ursula Le Guin, and she is rereading The Dispossessed. She runs a small book club.';
    const longPair = await pair(long, 'Nadia moved to York last month.');
    expect(longPair.o.status).toBe('conflicted');
    expect(longPair.n.supersedes_id).toBe(longPair.o.id);
    // A writer-given triple says what its memory is about, however long: replaced outright, as the write response says.
    const subject = randomUUID();
    const triple = await pair({ content: long, subject_entity_id: subject, predicate: 'lives_in', object_value: 'Leeds' },
      { content: 'Nadia moved to York last month.', subject_entity_id: subject, predicate: 'lives_in', object_value: 'York' });
    expect(triple.written.superseded_by.map((x: any) => [x.old_memory_id, x.old_status])).toEqual([[triple.o.id, 'outdated']]);
    expect(triple.o.status).toBe('outdated');
  });

  it('a chain of updates links each row to the one it replaced', async () => {
    const tenantId = tenant();
    const a = await write(tenantId, { content: 'Grace lives in Lyon.' });
    await drain();
    const b = await write(tenantId, { content: 'Grace moved to Nantes.' });
    await drain();
    const c = await write(tenantId, { content: 'Grace moved to Lille.' });
    await drain();
    const [ra, rb, rc] = [await get(tenantId, a.id), await get(tenantId, b.id), await get(tenantId, c.id)];
    expect([ra.status, rb.status, rc.status]).toEqual(['outdated', 'outdated', 'active']);
    expect([ra.supersedes_id, rb.supersedes_id, rc.supersedes_id]).toEqual([null, a.id, b.id]);
    const fb = await findings(tenantId, b.id);
    expect(fb.contradictions.map((x: any) => [x.id, x.direction])).toEqual([[c.id, 'superseded_by'], [a.id, 'supersedes']]);
  });

  it('a duplicate delivery is idempotent, also when both copies arrive at once', async () => {
    const { tenantId, o, n } = await pair('Carol has two children.', 'Carol has three children.');
    expect(o.status).toBe('conflicted');
    const event = (id: string) => ({
      id: randomUUID(), type: 'memory.written', version: 1, tenant_id: tenantId, occurred_at: new Date().toISOString(),
      data: { memory_id: id, op: 'create' },
    });
    await Promise.all([t.services.bus.publish(event(n.id)), t.services.bus.publish(event(n.id)), t.services.bus.publish(event(o.id))]);
    await drain();
    // Nothing changed, not even updated_at.
    expect(await get(tenantId, o.id)).toEqual(o);
    expect(await get(tenantId, n.id)).toEqual(n);
  });

  it('finds the pair from the older side when its event is handled last', async () => {
    const { tenantId, o, n } = await pair('Heidi works at Initech.', 'Heidi joined Globex last month.');
    expect(o.status).toBe('outdated');
    // Undo the findings, then run detection for the older memory only: it must find the newer one.
    await t.services.db.query(`UPDATE memories SET status = 'active', supersedes_id = NULL WHERE tenant_id = $1`, [tenantId]);
    const result = await t.services.detector.detect(tenantId, o.id);
    expect(result.findings).toMatchObject([{ older_id: o.id, newer_id: n.id, verdict: 'rdf_conflict' }]);
    expect((await get(tenantId, o.id)).status).toBe('outdated');
    expect((await get(tenantId, n.id)).supersedes_id).toBe(o.id);
  });

  it('a content update that now contradicts an older memory is detected', async () => {
    const tenantId = tenant();
    const o = await write(tenantId, { content: 'Ivan lives in Oslo.' });
    const w = await write(tenantId, { content: 'Ivan enjoys long walks.' });
    await drain();
    expect((await get(tenantId, o.id)).status).toBe('active');
    const r = await t.api('PATCH', `/api/v1/memories/${w.id}?tenant_id=${tenantId}`, { body: { content: 'Ivan moved to Bergen.' } });
    expect(r.status, r.text).toBe(200);
    await drain();
    expect((await get(tenantId, o.id)).status).toBe('outdated');
    expect((await get(tenantId, w.id)).supersedes_id).toBe(o.id);
  });

  it("compares only memories the writer can see: another agent's private memory is never touched", async () => {
    const tenantId = tenant();
    const subject = randomUUID();
    const keyA = await t.key(tenantId, { agent: 'agent-a' });
    const keyB = await t.key(tenantId, { agent: 'agent-b' });
    const privA = await write(tenantId, { content: 'Nadia lives in Leeds.', agent_id: 'agent-a', visibility: 'scope_agent' }, keyA);
    const privTriple = await write(tenantId, {
      content: 'Private note on the office.', agent_id: 'agent-a', visibility: 'scope_agent',
      subject_entity_id: subject, predicate: 'located_in', object_value: 'Leeds',
    }, keyA);
    await drain();
    // agent-b states the opposite, in text and as a structured fact.
    const b1 = await write(tenantId, { content: 'Nadia moved to York.', agent_id: 'agent-b' }, keyB);
    const b2 = await write(tenantId, {
      content: 'The office is elsewhere now.', agent_id: 'agent-b', subject_entity_id: subject, predicate: 'located_in', object_value: 'York',
    }, keyB);
    expect(b2.superseded_by).toEqual([]);
    await drain();
    for (const id of [privA.id, privTriple.id]) expect((await get(tenantId, id)).status).toBe('active');
    for (const id of [b1.id, b2.id]) expect((await get(tenantId, id)).supersedes_id).toBeNull();
    // agent-b's own private memory is not compared with agent-a's shared one either.
    const shared = await write(tenantId, { content: 'Omar reports to Petra.', agent_id: 'agent-a' }, keyA);
    await drain();
    const privB = await write(tenantId, { content: 'Omar reports to Quentin.', agent_id: 'agent-b', visibility: 'scope_agent' }, keyB);
    await drain();
    expect((await get(tenantId, shared.id)).status).toBe('active');
    expect((await t.api('GET', `/api/v1/memories/${privB.id}?tenant_id=${tenantId}`, { key: keyB })).body.supersedes_id).toBeNull();
    // The same agent's private memories do compare with each other.
    const a2 = await write(tenantId, { content: 'Nadia moved to Hull.', agent_id: 'agent-a', visibility: 'scope_agent' }, keyA);
    await drain();
    expect((await get(tenantId, privA.id)).status).toBe('outdated');
    expect((await get(tenantId, a2.id)).supersedes_id).toBe(privA.id);
    const asA = await findings(tenantId, a2.id, keyA);
    expect(asA.contradictions.map((x: any) => [x.id, x.direction, x.reason])).toEqual([[privA.id, 'supersedes', 'rdf_conflict']]);
    expect((await t.api('GET', `/api/v1/memories/${privA.id}/contradictions?tenant_id=${tenantId}`, { key: keyB })).status).toBe(404);
  });

  it('only memories of the same fleet compare (no fleet with no fleet)', async () => {
    const tenantId = tenant();
    const f1 = await write(tenantId, { content: 'Rosa lives in Turin.', fleet_id: 'fleet-1' });
    await drain();
    const f2 = await write(tenantId, { content: 'Rosa moved to Bari.', fleet_id: 'fleet-2' });
    await drain();
    expect((await get(tenantId, f1.id)).status).toBe('active');
    expect((await get(tenantId, f2.id)).supersedes_id).toBeNull();
    const none = await write(tenantId, { content: 'Rosa moved to Genoa.' });
    await drain();
    expect((await get(tenantId, f2.id)).status).toBe('active');
    expect((await get(tenantId, none.id)).supersedes_id).toBeNull();
    const f2b = await write(tenantId, { content: 'Rosa moved to Lecce.', fleet_id: 'fleet-2' });
    await drain();
    expect((await get(tenantId, f2.id)).status).toBe('outdated');
    expect((await get(tenantId, f2b.id)).supersedes_id).toBe(f2.id);
  });

  it('never takes candidates from another tenant, and the endpoint refuses other tenants', async () => {
    const ta = tenant();
    const tb = tenant();
    const a = await write(ta, { content: 'Judy lives in Porto.' });
    await drain();
    const b = await write(tb, { content: 'Judy moved to Faro.' });
    const subject = randomUUID();
    await write(ta, { content: 'Plan price noted.', subject_entity_id: subject, predicate: 'price', object_value: '$10' });
    const wb = await write(tb, { content: 'Plan price changed.', subject_entity_id: subject, predicate: 'price', object_value: '$12' });
    expect(wb.superseded_by).toEqual([]);
    await drain();
    expect((await get(ta, a.id)).status).toBe('active');
    expect((await get(tb, b.id)).supersedes_id).toBeNull();
    expect((await get(tb, wb.id)).supersedes_id).toBeNull();

    const keyB = await t.key(tb);
    expect((await t.api('GET', `/api/v1/memories/${a.id}/contradictions?tenant_id=${ta}`, { key: keyB })).status).toBe(403);
    expect((await t.api('GET', `/api/v1/memories/${a.id}/contradictions?tenant_id=${tb}`, { key: keyB })).status).toBe(404);
    expect((await t.api('GET', `/api/v1/memories/${b.id}/contradictions?tenant_id=${tb}`, { key: keyB })).status).toBe(200);
  });

  it('the endpoint validates its input and has no side effects', async () => {
    const { tenantId, o } = await pair('Ken reports to Laura.', 'Ken reports to Mike.');
    expect(o.status).toBe('outdated');
    const before = await get(tenantId, o.id);
    for (let i = 0; i < 2; i++) await findings(tenantId, o.id);
    expect(await get(tenantId, o.id)).toEqual(before);

    const bad = await t.api('GET', `/api/v1/memories/not-a-uuid/contradictions?tenant_id=${tenantId}`);
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['path', 'memory_id']);
    // Without tenant_id the key's own tenant is meant, which does not hold this memory.
    expect((await t.api('GET', `/api/v1/memories/${o.id}/contradictions`)).status).toBe(404);
    expect((await t.api('GET', `/api/v1/memories/${randomUUID()}/contradictions?tenant_id=${tenantId}`)).status).toBe(404);
    expect((await t.api('GET', `/api/v1/memories/${o.id}/contradictions?tenant_id=${tenantId}`, { key: null })).status).toBe(401);
    const del = await t.api('DELETE', `/api/v1/memories/${o.id}?tenant_id=${tenantId}`);
    expect(del.status).toBe(204);
    expect((await t.api('GET', `/api/v1/memories/${o.id}/contradictions?tenant_id=${tenantId}`)).status).toBe(404);
  });

  it('is described in the OpenAPI document', async () => {
    const doc = (await t.api('GET', '/api/openapi.json', { key: null })).body;
    const op = doc.paths['/api/v1/memories/{memory_id}/contradictions'].get;
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '401', '403', '404', '422']));
    expect(Object.keys(op.responses['200'].content['application/json'].schema.properties).sort())
      .toEqual(['contradictions', 'detection_status', 'superseded_by', 'superseded_memories']);
  });
});
