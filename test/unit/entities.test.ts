import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractSync } from '../../src/providers/entities/nlp.js';
import { normalizeEntityName } from '../../src/providers/entities/normalize.js';
import { createEntityExtractor, NlpEntityExtractor } from '../../src/providers/entities/index.js';
import type { EntityType, Extraction } from '../../src/providers/entities/types.js';

const typeOf = (x: Extraction, normalized: string): EntityType | undefined => x.entities.find((e) => e.normalized === normalized)?.type;
const rel = (x: Extraction) => x.relations.filter((r) => r.predicate !== 'co_occurs').map((r) => `${r.subject} ${r.predicate} ${r.object}`);

describe('normalizeEntityName', () => {
  it('lowercases and strips honorifics, possessives and surrounding punctuation', () => {
    expect(normalizeEntityName('Dr. Ada Lovelace')).toBe('ada lovelace');
    expect(normalizeEntityName('Mrs.  Jane   Doe')).toBe('jane doe');
    expect(normalizeEntityName("Alice's")).toBe('alice');
    expect(normalizeEntityName('Alice’s')).toBe('alice');
    expect(normalizeEntityName('"Acme Corp."')).toBe('acme corp');
    expect(normalizeEntityName('(Paris)')).toBe('paris');
    expect(normalizeEntityName("James'")).toBe('james');
  });
  it('keeps what belongs to a name', () => {
    expect(normalizeEntityName('C++')).toBe('c++');
    expect(normalizeEntityName('C#')).toBe('c#');
    expect(normalizeEntityName('Node.js')).toBe('node.js');
    expect(normalizeEntityName('.NET')).toBe('.net');
    expect(normalizeEntityName("Mr. O'Brien")).toBe("o'brien");
    expect(normalizeEntityName('Dr')).toBe('dr');
  });
});

describe('extractSync: entities', () => {
  it('finds and types people, organisations, places and dates', () => {
    const x = extractSync('Dr. Ada Lovelace met Charles Babbage in London on 5 June 1833.');
    expect(x.entities).toEqual([
      { name: 'Dr. Ada Lovelace', normalized: 'ada lovelace', type: 'person' },
      { name: 'Charles Babbage', normalized: 'charles babbage', type: 'person' },
      { name: 'London', normalized: 'london', type: 'place' },
      { name: '5 June 1833', normalized: '1833-06-05', type: 'date' },
    ]);
    const y = extractSync('Sarah Connor is the CEO of Cyberdyne Systems. She moved to Los Angeles in March 2024.');
    expect(typeOf(y, 'sarah connor')).toBe('person');
    expect(typeOf(y, 'cyberdyne systems')).toBe('organization');
    expect(typeOf(y, 'los angeles')).toBe('place');
    expect(typeOf(y, '2024-03')).toBe('date');
    const z = extractSync('Prof. Maria Garcia from Stanford University published a paper with IBM in 2021.');
    expect(typeOf(z, 'maria garcia')).toBe('person');
    expect(typeOf(z, 'stanford university')).toBe('organization');
    expect(typeOf(z, 'ibm')).toBe('organization');
    expect(typeOf(z, '2021')).toBe('date');
  });

  it('marks products only on strong evidence, other proper nouns as other', () => {
    const x = extractSync('We migrated from MySQL to Postgres; Spotify and the iPhone 15 Pro were mentioned by Tim Cook of Apple. I use Node.js and C++ with Redis 7.');
    for (const p of ['mysql', 'postgres', 'spotify', 'iphone 15 pro', 'node.js', 'c++', 'redis 7']) expect(typeOf(x, p), p).toBe('product');
    expect(typeOf(x, 'tim cook')).toBe('person');
    expect(typeOf(x, 'apple')).toBeDefined();
    expect(typeOf(x, 'apple')).not.toBe('product');
    const y = extractSync('Acme was acquired by Initech. Mr. McDonald visited.');
    expect(typeOf(y, 'acme')).toBe('other');
    expect(typeOf(y, 'initech')).toBe('other');
    expect(typeOf(y, 'mcdonald')).toBe('person');
  });

  it('trims spans to the name', () => {
    const x = extractSync("John's sister Mary joined Google in New York. Austin, Texas is warm.");
    const names = x.entities.map((e) => e.name);
    expect(names).toEqual(expect.arrayContaining(['John', 'Mary', 'Google', 'New York', 'Austin', 'Texas']));
    expect(names.some((n) => /sister|'s|,|\.$/.test(n))).toBe(false);
  });

  it('drops pronouns, role words, sentence-initial common words and relative dates', () => {
    const x = extractSync('She told him that they would meet us there. It was fine. I think We should go.');
    expect(x.entities).toEqual([]);
    const y = extractSync('Budget review went fine yesterday. The CEO called on Tuesday. Lunch with Tom tomorrow.');
    expect(y.entities.map((e) => e.normalized)).toEqual(['tom']);
    // A duration, a clock time or a bare day of the month is no calendar date: as a key it would
    // link every memory that says "in 3 weeks".
    const z = extractSync('Sam will visit in 3 weeks, at 5pm, on the 1st. We shipped on 12/03/2024.');
    expect(z.entities.map((e) => [e.normalized, e.type])).toEqual([['sam', 'person'], ['2024-12-03', 'date']]);
  });

  it('dedupes by normalized name, keeping the specific type', () => {
    const x = extractSync('Dr. Ada Lovelace wrote notes. Later, Ada Lovelace published them. Ada Lovelace’s notes survive.');
    expect(x.entities.filter((e) => e.normalized === 'ada lovelace')).toHaveLength(1);
    expect(typeOf(x, 'ada lovelace')).toBe('person');
  });

  it('handles empty and odd input', () => {
    expect(extractSync('')).toEqual({ entities: [], relations: [] });
    expect(extractSync('   \n ')).toEqual({ entities: [], relations: [] });
    expect(extractSync('!!! ??? 123').entities.every((e) => e.normalized.length > 0)).toBe(true);
    const x = extractSync('Zoë moved to Zürich — café Olé.');
    expect(typeOf(x, 'zürich')).toBe('place');
  });
});

describe('extractSync: relations', () => {
  it('reads subject–verb–object statements as verb + preposition', () => {
    expect(rel(extractSync('Alice works at Acme Corp. Bob lives in Paris.'))).toEqual(['alice works_at acme corp', 'bob lives_in paris']);
    expect(rel(extractSync('Sarah Connor is the CEO of Cyberdyne Systems.'))).toEqual(['sarah connor is_ceo_of cyberdyne systems']);
    expect(rel(extractSync('Google was founded by Larry Page in 1998.'))).toEqual(['google founded_by larry page']);
    expect(rel(extractSync('Bob has been living in Berlin since 2019. Carol grew up in Texas.'))).toEqual([
      'bob lives_in berlin',
      'carol grows_up_in texas',
    ]);
    expect(rel(extractSync('Mary joined Google last year.'))).toEqual(['mary joins google']);
  });

  it('gives literal objects when the object is not an entity', () => {
    const x = extractSync('Bob likes green tea. Alice works as an engineer at Initech.');
    expect(x.relations).toEqual(
      expect.arrayContaining([
        { subject: 'bob', predicate: 'likes', object: 'green tea', objectIsEntity: false },
        { subject: 'alice', predicate: 'works_as', object: 'engineer', objectIsEntity: false },
      ]),
    );
  });

  it('does not state what the text does not assert', () => {
    expect(rel(extractSync('Tom does not work at Globex.'))).toEqual([]);
    expect(rel(extractSync('Zoe will move to Rome.'))).toEqual([]);
    expect(rel(extractSync('Alice said Bob works at Acme.'))).toEqual(['bob works_at acme']);
    expect(rel(extractSync('The CEO of Acme met Bob.'))).toEqual([]);
    expect(rel(extractSync("Acme hired Mr. Smith's son."))).toEqual([]);
  });

  it('links entities that share a sentence with co_occurs', () => {
    const x = extractSync('Alice works at Acme Corp. Tom, Lisa and Raj visited Madrid.');
    const co = x.relations.filter((r) => r.predicate === 'co_occurs').map((r) => `${r.subject}|${r.object}`);
    expect(co).toEqual(expect.arrayContaining(['tom|lisa', 'tom|raj', 'lisa|raj', 'tom|madrid']));
    // A pair already related by a verb is not repeated as co_occurs.
    expect(co).not.toContain('alice|acme corp');
    expect(co.some((p) => p.includes('alice') && (p.includes('tom') || p.includes('madrid')))).toBe(false);
    for (const r of x.relations) expect(r.objectIsEntity).toBe(true);
  });
});

describe('NlpEntityExtractor (worker thread)', () => {
  let ex: NlpEntityExtractor;
  beforeAll(async () => {
    ex = createEntityExtractor();
    await ex.init();
  });
  afterAll(() => ex.close());

  it('extracts off the main thread, same result as in-process', async () => {
    const text = 'Alice works at Acme Corp. Bob lives in Paris.';
    expect(await ex.extract(text)).toEqual(extractSync(text));
    expect(await ex.extract('')).toEqual({ entities: [], relations: [] });
  });

  it('answers concurrent callers in order', async () => {
    const names = ['Alice', 'Bob', 'Carol', 'Dave', 'Erin', 'Frank', 'Grace', 'Heidi', 'Ivan', 'Judy', 'Mallory', 'Oscar'];
    const results = await Promise.all(names.map((n) => ex.extract(`${n} lives in Paris.`)));
    results.forEach((r, i) => expect(r.relations[0]).toEqual({ subject: names[i].toLowerCase(), predicate: 'lives_in', object: 'paris', objectIsEntity: true }));
    const many = await ex.extractMany(['Tom met Ann.', 'Rome is old.']);
    expect(many.map((m) => m.entities.map((e) => e.normalized))).toEqual([['tom', 'ann'], ['rome']]);
  });
});
