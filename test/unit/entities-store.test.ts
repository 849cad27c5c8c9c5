// recordExtractions (one batch) leaves the graph exactly as recording the same memories one by
// one does: mention counts, aliases (capped), links, relations and their capped evidence.
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { PgliteDb } from '../../src/store/pglite.js';
import { recordExtraction, recordExtractions } from '../../src/core/entities/store.js';
import type { Extraction } from '../../src/providers/entities/types.js';

let one: PgliteDb;
let batch: PgliteDb;
beforeAll(() => {
  const template = readFileSync(inject('pgliteTemplate'));
  one = new PgliteDb(undefined, template);
  batch = new PgliteDb(undefined, template);
});
afterAll(async () => {
  await one?.close();
  await batch?.close();
});

/** Memory i: Acme under one of 25 spellings, Alice, a repeated entity relation and a literal one. */
function extraction(i: number): Extraction {
  return {
    entities: [
      { name: `Acme${i % 25}`, normalized: 'acme', type: 'organization' },
      { name: 'Alice', normalized: 'alice', type: 'person' },
      ...(i % 7 === 0 ? [{ name: 'Paris', normalized: 'paris', type: 'place' as const }] : []),
    ],
    relations: [
      { subject: 'alice', predicate: 'works_at', object: 'acme', objectIsEntity: true },
      { subject: 'alice', predicate: 'works_at', object: 'acme', objectIsEntity: true },
      { subject: 'alice', predicate: 'likes', object: `tea ${i % 3}`, objectIsEntity: false },
      // An object that is not among the entities becomes an untyped entity.
      { subject: 'alice', predicate: 'met', object: `bob${i % 2}`, objectIsEntity: true },
    ],
  };
}

async function addMemories(db: PgliteDb, ids: string[]) {
  await db.query(
    `INSERT INTO memories (id, tenant_id, agent_id, content, content_hash)
     SELECT x, 'g', 'a', x::text, x::text FROM unnest($1::uuid[]) AS x`, [ids]);
}

async function graph(db: PgliteDb) {
  const { rows: entities } = await db.query(
    `SELECT name, normalized_name, entity_type, aliases, mention_count FROM entities WHERE tenant_id = 'g' ORDER BY entity_type, normalized_name`);
  const { rows: links } = await db.query(
    `SELECT l.memory_id, e.normalized_name, e.entity_type, l.role, l.mention FROM entity_links l JOIN entities e ON e.id = l.entity_id
     WHERE l.tenant_id = 'g' ORDER BY 1, 2, 3`);
  const { rows: relations } = await db.query(
    `SELECT s.normalized_name AS s, r.predicate, o.normalized_name AS o, r.object_value, r.evidence_memory_ids::text[] AS evidence, r.mention_count
     FROM relations r JOIN entities s ON s.id = r.subject_entity_id LEFT JOIN entities o ON o.id = r.object_entity_id
     WHERE r.tenant_id = 'g' ORDER BY 1, 2, 3, 4`);
  return { entities, links, relations };
}

describe('recordExtractions', () => {
  it('matches one-by-one recording, onto an existing graph, past the alias and evidence caps', async () => {
    const ids = Array.from({ length: 120 }, () => randomUUID());
    await addMemories(one, ids);
    await addMemories(batch, ids);
    // The first ten are already in both graphs.
    for (let i = 0; i < 10; i++) {
      await one.tx((q) => recordExtraction(q, 'g', ids[i], extraction(i)));
      await batch.tx((q) => recordExtraction(q, 'g', ids[i], extraction(i)));
    }
    const singles = [];
    for (let i = 10; i < 120; i++) singles.push(await one.tx((q) => recordExtraction(q, 'g', ids[i], extraction(i))));
    const batched = await batch.tx((q) => recordExtractions(q, 'g', ids.slice(10).map((memoryId, j) => ({ memoryId, extraction: extraction(j + 10) }))));

    const a = await graph(one);
    const b = await graph(batch);
    expect(b.entities).toEqual(a.entities);
    expect(b.links).toEqual(a.links);
    expect(b.relations).toEqual(a.relations);
    // The caps were reached, so the comparison covered them.
    const acme = a.entities.find((e) => e.normalized_name === 'acme')!;
    expect(acme.aliases).toHaveLength(20);
    expect(acme.mention_count).toBe(120);
    const worksAt = a.relations.find((r) => r.predicate === 'works_at')!;
    expect(worksAt.evidence).toHaveLength(100);
    expect(worksAt.evidence[99]).toBe(ids[119]);
    expect(worksAt.mention_count).toBe(120);
    // Links returned per memory, in input order, name the stored entities.
    const strip = (ls: { name: string; entity_type: string; role: string }[]) => ls.map((l) => [l.name, l.entity_type, l.role]);
    expect(batched.map(strip)).toEqual(singles.map(strip));
  });

  it('returns an empty list per memory when nothing was extracted', async () => {
    const out = await batch.tx((q) => recordExtractions(q, 'g', [
      { memoryId: randomUUID(), extraction: { entities: [], relations: [] } },
      { memoryId: randomUUID(), extraction: { entities: [], relations: [] } },
    ]));
    expect(out).toEqual([[], []]);
  });
});
