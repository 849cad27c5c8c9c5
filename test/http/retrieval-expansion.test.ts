// Query expansion over HTTP: a memory linked to the query's entity only through a neighbour in the
// graph is found (graph expansion), a query naming a time ranks memories valid then first
// (temporal cues), and a query naming a speaker ranks that speaker's lines first (speakers).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { searchMemories, writeMemory } from '../helpers/memory-api.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({
    LOCI_SEARCH_CONFIG: JSON.stringify({ vector: { enabled: false }, keyword: { statsMaxAgeMs: 0 }, graph: { enabled: true, minShared: 1 }, temporal: { enabled: true, boost: 0.5 } }),
  });
});
afterAll(async () => t?.close());

const write = (tenant: string, content: string, extra: Record<string, unknown> = {}) => writeMemory(t, tenant, content, extra);

const search = async (tenant: string, query: string, extra: Record<string, unknown> = {}) =>
  (await searchMemories(t, { tenant_id: tenant, query, top_k: 10, ...extra })).items;

describe('graph expansion', () => {
  it('a query naming a person finds a memory that names only someone tied to them', async () => {
    const T = 'graph-expansion';
    const together = await write(T, 'Priya Raman met Tomasz Kowalczyk at the Helios office in Lisbon.');
    const onlyNeighbour = await write(T, 'Tomasz Kowalczyk signed the lease for the new pottery workshop.');
    const unrelated = await write(T, 'Oskar Lindqvist repaired the sailing boat over the weekend.');
    await t.services.bus.drain();
    const links = await t.api('GET', `/api/v1/memories/${onlyNeighbour.id}?tenant_id=${T}`);
    expect(JSON.stringify(links.body)).toMatch(/Tomasz/);
    // The vector leg (off here) would bring every memory of this small tenant: only the keyword,
    // entity and neighbour rankings run, so the second memory can come only through Tomasz.
    const ids = (await search(T, 'Priya Raman', { diagnostic: false })).map((i) => i.id);
    expect(ids).toContain(together.id);
    expect(ids).toContain(onlyNeighbour.id);
    expect(ids).not.toContain(unrelated.id);
  });

  it("another agent's private memory makes no neighbours for a search that cannot read it", async () => {
    const T = 'graph-expansion-private';
    await write(T, 'Priya Raman met Tomasz Kowalczyk at the Helios office in Lisbon.', { agent_id: 'a2', visibility: 'scope_agent' });
    const onlyNeighbour = await write(T, 'Tomasz Kowalczyk signed the lease for the new pottery workshop.');
    await t.services.bus.drain();
    const key = await t.key(T, { agent: 'a1' });
    const asA1 = async () => (await searchMemories(t, { query: 'Priya Raman', top_k: 10 }, key)).items.map((i) => i.id);
    expect(await asA1()).not.toContain(onlyNeighbour.id);
    // Once a1 may read a memory tying them, the neighbour is found: the test above would see it.
    await write(T, 'Priya Raman and Tomasz Kowalczyk share the Helios desk.');
    await t.services.bus.drain();
    expect(await asA1()).toContain(onlyNeighbour.id);
  });
});

describe('temporal cues', () => {
  it('a query naming a month ranks the memory valid in it above a closer wording from another month', async () => {
    const T = 'temporal-cues';
    const may = await write(T, 'Went to the dentist.', { ts_valid_start: '2025-05-12T10:00:00Z' });
    const january = await write(T, 'Dentist appointment at the clinic: a cleaning.', { ts_valid_start: '2025-01-12T10:00:00Z' });
    const plain = (await search(T, 'dentist appointment')).map((i) => i.id);
    expect(plain.indexOf(january.id)).toBeLessThan(plain.indexOf(may.id));
    const dated = (await search(T, 'dentist appointment in May 2025')).map((i) => i.id);
    expect(dated[0]).toBe(may.id);
  });
});

describe('speakers', () => {
  it("a query naming someone ranks their own line above a line addressed to them", async () => {
    const T = 'speaker-lines';
    const addressed = await write(T, 'Caroline: Melanie, your pottery is lovely, Melanie! You should take a pottery class.');
    const own = await write(T, 'Melanie: I signed up for a class yesterday, I love it.');
    const other = await write(T, 'Caroline: I took a pottery class last year.');
    await t.services.bus.drain();
    const ids = (await search(T, 'Melanie pottery class')).map((i) => i.id);
    expect(ids[0]).toBe(own.id);
    // Without a speaker in the query, the order is the legs' own: the lines with most matches first.
    const plain = (await search(T, 'pottery class')).map((i) => i.id);
    expect(plain.indexOf(own.id)).toBeGreaterThan(plain.indexOf(addressed.id));
    expect(plain.indexOf(own.id)).toBeGreaterThan(plain.indexOf(other.id));
  });
});
