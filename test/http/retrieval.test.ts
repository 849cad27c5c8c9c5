// Retrieval over HTTP: BM25 ranking of the keyword leg, passages of long memories, the
// in-context units the service writes after each memory, and exact duplicates refused before
// anything is embedded.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { searchMemories, writeMemory } from '../helpers/memory-api.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ LOCI_SEARCH_CONFIG: JSON.stringify({ keyword: { statsMaxAgeMs: 0 } }) });
});
afterAll(async () => t?.close());

const write = (tenant: string, content: string, extra: Record<string, unknown> = {}) => writeMemory(t, tenant, content, extra);

const search = async (tenant: string, query: string, extra: Record<string, unknown> = {}) =>
  (await searchMemories(t, { tenant_id: tenant, query, top_k: 10, diagnostic: true, ...extra })).items;

/** Until every written memory's passages and in-context units are stored. */
async function indexed() {
  await t.services.bus.drain();
  await t.services.passages.settled();
}

// Two ways to BM25: a large tenant walks the index in score order; a small one (its share of the
// rows, from the planner statistics, under scanMinShare) has its matches scored one by one.
describe.each([
  { mode: 'a large tenant walks the index', scored: false },
  { mode: 'a small tenant scores its matches', scored: true },
])('keyword leg ranks like BM25: $mode', ({ scored }) => {
  const T = scored ? 'bm25-small' : 'bm25';
  let app: TestApp;
  let short: any;
  let long: any;
  let rare: any;
  const put = (content: string) => writeMemory(app, T, content);
  const find = async (query: string) => (await searchMemories(app, { tenant_id: T, query, top_k: 10, diagnostic: true })).items;
  beforeAll(async () => {
    // scanMinShare 1: only a tenant holding every row walks; unanalysed, every tenant counts as one.
    app = scored ? await startTestApp({ LOCI_SEARCH_CONFIG: JSON.stringify({ keyword: { statsMaxAgeMs: 0, scanMinShare: 1 } }) }) : t;
    expect(app.services.search.keywordRanking ?? await app.services.search.keywordRank()).toBe('bm25');
    short = await put('Marisol tuned the cello before the recital.');
    long = await put('Marisol spent the afternoon cleaning the garage, sorting old magazines, repairing a bicycle ' +
      'wheel, watering the tomatoes and answering letters, and at some point she mentioned the cello in passing.');
    rare = await put('The quokka enclosure at the zoo reopened after the storm.');
    for (let i = 0; i < 6; i++) await put(`The recital program number ${i} lists pieces for the orchestra and the choir.`);
    if (scored) {
      await writeMemory(app, 'bm25-other', 'Another tenant tuned a cello for a recital.');
      await app.services.db.query('ANALYZE memories');
    }
  });
  afterAll(async () => { if (scored) await app?.close(); });

  it('a match in a short memory ranks above the same match in a long one (length normalisation)', async () => {
    const items = await find('cello');
    const rank = (id: string) => items.find((i) => i.id === id)?.diagnostic.ranks.keyword;
    expect(rank(short.id)).toBe(1);
    expect(rank(long.id)).toBe(2);
    expect(items.filter((i) => i.diagnostic.ranks.keyword !== null)).toHaveLength(2);
  });

  it('a rare word outweighs a common one (idf)', async () => {
    const items = await find('recital quokka');
    expect(items.find((i) => i.diagnostic.ranks.keyword === 1)?.id).toBe(rare.id);
  });
});

/** A long memory: 14 paragraphs on different things; the fact asked about is in the middle. */
function longDiary(fact: string): string {
  const topics = [
    'The ferry left the harbour at dawn and the gulls followed it for an hour while the deck crew coiled ropes.',
    'Breakfast on board was porridge with lingonberries, strong coffee and a slice of brown cheese.',
    'A retired geologist explained how the fjord walls were carved by glaciers over many ice ages.',
    'We counted eleven waterfalls on the western side, some of them thin as threads of silk.',
    'The guide warned that the mountain road closes when snow arrives, sometimes as early as October.',
    'At the market in the old town a fisherman sold dried cod stacked like firewood.',
    fact,
    'Dinner was reindeer stew in a wooden hall lit by candles and a crackling stove.',
    'A choir rehearsed in the cathedral and we listened from the back pews for half an hour.',
    'The museum of polar exploration displayed sledges, skis and a tattered canvas tent.',
    'Late at night the northern lights appeared as a green curtain moving over the bay.',
    'The hotel receptionist recommended a bakery that opens at six for cinnamon buns.',
    'On the last morning the train climbed through tunnels and across a high plateau of lakes.',
    'We arrived home tired, with a suitcase full of wool socks and smoked salmon.',
  ];
  return topics.map((s) => `${s} ${s.replace(/\.$/, '')} — that stayed with us for the rest of the day.`).join('\n\n');
}

describe('passages of long memories', () => {
  const T = 'passages';
  let target: any;
  beforeAll(async () => {
    target = await write(T, longDiary('The lighthouse keeper in Tromsø painted his front door teal to match the boats in the harbour.'));
    expect(target.content.length).toBeGreaterThan(3000);
    await write(T, longDiary('My cousin collects antique compasses and keeps them in a glass cabinet.'), { agent_id: 'a2' });
    await write(T, longDiary('The rental car had a flat tyre outside a petrol station near Alta.'), { agent_id: 'a3' });
    await write(T, 'The lighthouse in our town is open to visitors on Sundays.');
    await write(T, 'Harbour fees went up this year for every boat owner.');
    await indexed();
  });

  it('stores sentence-aligned passages of a memory over 500 characters, short closing sentences repeated', async () => {
    const { rows } = await t.services.db.query<{ ord: number; content: string }>(
      `SELECT ord, content FROM memory_passages WHERE memory_id = $1 AND kind = 'passage' ORDER BY ord`, [target.id]);
    expect(rows.length).toBeGreaterThanOrEqual(8);
    for (const r of rows) expect(r.content.length).toBeLessThanOrEqual(520);
    expect(rows.filter((r) => r.content.includes('painted his front door teal')).length).toBeGreaterThanOrEqual(1);
    // Overlap: a passage opens with the sentence that closed the one before when that one is short.
    const lastSentence = (s: string) => s.split(/(?<=[.!?])\s+/).pop()!;
    for (let i = 1; i < rows.length; i++) {
      const last = lastSentence(rows[i - 1].content);
      expect(rows[i].content.startsWith(last)).toBe(last.length <= 125);
    }
    // The model reads only a text's start: the first passage takes the memory's own vector instead
    // of a second embedding; every later passage has its own.
    const { rows: sims } = await t.services.db.query<{ ord: number; s: number }>(
      `SELECT u.ord, 1 - (u.embedding <=> m.embedding) AS s FROM memory_passages u JOIN memories m ON m.id = u.memory_id
       WHERE u.memory_id = $1 AND u.kind = 'passage' ORDER BY u.ord`, [target.id]);
    expect(Number(sims[0].s)).toBeGreaterThan(0.9999);
    expect(sims.slice(1).every((r) => Number(r.s) < 0.99)).toBe(true);
  });

  it('finds a long memory by a question about its middle, ranked first', async () => {
    const items = await search(T, 'What colour did the lighthouse keeper paint his door?');
    expect(items[0].id).toBe(target.id);
    // The vector leg reaches it through its passage: the best unit is closer than the whole memory.
    const { rows: [whole] } = await t.services.db.query<{ s: number }>(
      `SELECT 1 - (m.embedding <=> (SELECT embedding FROM memory_passages WHERE memory_id = $1 AND content LIKE '%front door teal%' LIMIT 1)) AS s
       FROM memories m WHERE m.id = $1`, [target.id]);
    expect(Number(whole.s)).toBeLessThan(0.95);
    expect(items[0].diagnostic.ranks.vector).toBe(1);
  });

  it('a short memory gets no passages; deleting a memory removes its units', async () => {
    const short = await write(T, 'A short note about nothing much.');
    await indexed();
    const count = async (id: string) => Number((await t.services.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM memory_passages WHERE memory_id = $1 AND kind = 'passage'`, [id])).rows[0].n);
    expect(await count(short.id)).toBe(0);
    const doomed = await write(T, longDiary('A throwaway sentence about a yellow kayak.'), { agent_id: 'a4' });
    await indexed();
    expect(await count(doomed.id)).toBeGreaterThan(0);
    const del = await t.api('DELETE', `/api/v1/memories/${doomed.id}?tenant_id=${T}&agent_id=a4`);
    expect(del.status).toBeLessThan(300);
    const items = await search(T, 'yellow kayak');
    expect(items.map((i) => i.id)).not.toContain(doomed.id);
  });
});

describe('sentences of a short memory', () => {
  const T = 'sentences';
  it('are embedded one by one, so a question about one of them finds the memory by it', async () => {
    const turn = await write(T, 'Melanie: Wow, Caroline, that is such great news about the adoption agency! I just signed up for a pottery class yesterday. It is like therapy for me.');
    const single = await write(T, 'Melanie: I had a quiet weekend at home with the kids.');
    await indexed();
    const units = async (id: string) => (await t.services.db.query<{ content: string }>(
      `SELECT content FROM memory_passages WHERE memory_id = $1 AND kind = 'sentence' ORDER BY ord`, [id])).rows.map((r) => r.content);
    expect(await units(turn.id)).toEqual([
      'Melanie: Wow, Caroline, that is such great news about the adoption agency!',
      'Melanie: I just signed up for a pottery class yesterday.',
      'Melanie: It is like therapy for me.',
    ]);
    expect(await units(single.id)).toEqual([]);
    const q = 'What class did Melanie sign up for?';
    const [item] = await search(T, q);
    expect(item.id).toBe(turn.id);
    // Its similarity is its pottery sentence's, well above the whole turn's.
    const [v] = await t.services.embedder.embed([q]);
    const { rows: [whole] } = await t.services.db.query<{ s: number }>(
      'SELECT 1 - (embedding <=> $2::vector) AS s FROM memories WHERE id = $1', [turn.id, `[${[...v].join(',')}]`]);
    expect(item.similarity).toBeGreaterThan(Number(whole.s) + 0.05);
  });
});

describe('context written by the service', () => {
  const T = 'context';
  it('a terse reply is found through the turns its writer wrote just before it in the same run', async () => {
    const run = { run_id: 'chat-7', ts_valid_start: '2024-05-08T13:56:00Z' };
    for (let i = 0; i < 4; i++) await write(T, `Unrelated note ${i}: the printer on floor ${i + 2} needs toner.`);
    // The same run a day earlier: outside the window, so not part of the reply's context.
    await write(T, 'Caroline: Did you book the ferry to the island?', { run_id: 'chat-7', ts_valid_start: '2024-05-07T09:00:00Z' });
    await write(T, 'Caroline: Have you been back to the bouldering gym since your shoulder healed?', run);
    const reply = await write(T, 'Melanie: Yes, twice last month!', run);
    const alone = await write(T, 'Melanie: Yes, twice last month!', { agent_id: 'a9', run_id: 'chat-8' }); // no predecessors: no context
    await indexed();
    const { rows } = await t.services.db.query<{ content: string }>(
      `SELECT content FROM memory_passages WHERE memory_id = $1 AND kind = 'context'`, [reply.id]);
    expect(rows).toHaveLength(1);
    expect(rows[0].content).toContain('bouldering gym');
    expect(rows[0].content).not.toContain('ferry');
    // The same words without their context rank below the reply (the question itself may rank first).
    const items = await search(T, 'How often did Melanie go to the bouldering gym?');
    const rank = (id: string) => items.findIndex((i) => i.id === id);
    expect(rank(reply.id)).toBeGreaterThanOrEqual(0);
    expect(rank(reply.id)).toBeLessThanOrEqual(1);
    expect(rank(reply.id)).toBeLessThan(rank(alone.id));
    expect(items[rank(reply.id)].diagnostic.ranks.vector).toBeLessThan(items[rank(alone.id)].diagnostic.ranks.vector);
  });

  it('without a run, lines of one dialogue are read in context; notes are not', async () => {
    const T = 'context-plain';
    const units = async (id: string) => (await t.services.db.query<{ content: string }>(
      `SELECT content FROM memory_passages WHERE memory_id = $1 AND kind = 'context'`, [id])).rows;
    for (const line of ['Caroline: Hi Mel!', 'Melanie: Hey Caroline, good to see you.', 'Caroline: Have you been back to the bouldering gym since your shoulder healed?']) {
      await write(T, line, { agent_id: 'p1' });
    }
    const reply = await write(T, 'Melanie: Yes, twice last month!', { agent_id: 'p1' });
    const notes = [];
    for (const note of ['Owner: Alice Martin', 'Region: eu-west-3', 'Database: Postgres 16']) notes.push(await write(T, note, { agent_id: 'p2' }));
    await indexed();
    const [unit] = await units(reply.id);
    expect(unit.content).toContain('bouldering gym');
    expect(unit.content).not.toContain('Hi Mel');
    for (const n of notes) expect(await units(n.id)).toEqual([]);
    const items = await search(T, 'How often did Melanie go to the bouldering gym?', { agent_id: 'p1' });
    expect(items.slice(0, 2).map((i) => i.id)).toContain(reply.id);
  });
});

describe('exact duplicates', () => {
  it('are answered 409 before any embedding is computed', async () => {
    const first = await write('dups', 'The staging cluster runs in eu-west-3.');
    const spy = vi.spyOn(t.services.embedder, 'embed');
    try {
      const dup = await t.api('POST', '/api/v1/memories', { body: { tenant_id: 'dups', agent_id: 'a1', content: '  The staging cluster runs in eu-west-3. ' } });
      expect(dup.status).toBe(409);
      expect(dup.body.existing_id).toBe(first.id);
      expect(spy).not.toHaveBeenCalled();
      const fresh = await t.api('POST', '/api/v1/memories', { body: { tenant_id: 'dups', agent_id: 'a1', content: 'The staging cluster moved to eu-north-1.' } });
      expect(fresh.status).toBe(201);
      expect(spy).toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });
});
