import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  canonicalPredicate,
  compareObjects,
  isSingleValued,
  normalizeObject,
  parseMoney,
  slotOf,
} from '../../src/core/contradictions/predicates.js';
import { extractTriple, extractTriples, normalizeSubject, splitSentences } from '../../src/core/contradictions/triples.js';
import { diff, judgePair, SEMANTIC_SIMILARITY_THRESHOLD, tokenize } from '../../src/core/contradictions/detect.js';
import { lexicalSimilarity, scorePairs, type LabelledPair } from '../../src/core/contradictions/score.js';

const load = (name: string) =>
  JSON.parse(readFileSync(fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url)), 'utf8')) as LabelledPair[];

describe('predicates', () => {
  it('maps synonyms to canonical predicates', () => {
    expect(canonicalPredicate('moved to')).toBe('lives_in');
    expect(canonicalPredicate('relocated to')).toBe('lives_in');
    expect(canonicalPredicate('Lives In')).toBe('lives_in');
    expect(canonicalPredicate('works for')).toBe('works_at');
    expect(canonicalPredicate('joined')).toBe('works_at');
    expect(canonicalPredicate('is employed by')).toBe('works_at');
    expect(canonicalPredicate('manager')).toBe('reports_to');
    expect(canonicalPredicate('job title')).toBe('role');
    expect(canonicalPredicate('favourite colour')).toBe('favorite_color');
    expect(canonicalPredicate('something_else')).toBe('something_else');
    expect(canonicalPredicate('')).toBeNull();
  });

  it('knows which predicates are single-valued', () => {
    for (const p of ['lives_in', 'works_at', 'status', 'price', 'version', 'reports_to', 'married_to', 'age', 'role', 'ceo', 'located_in']) {
      expect(isSingleValued(p), p).toBe(true);
    }
    expect(isSingleValued('moved to')).toBe(true);
    expect(isSingleValued('favorite_food')).toBe(true);
    for (const p of ['likes', 'visited', 'speaks', 'uses', 'has', 'unknown_thing', null, undefined]) {
      expect(isSingleValued(p as string), String(p)).toBe(false);
    }
    expect(slotOf('located_in')).toBe(slotOf('lives_in'));
  });

  it('normalises object values', () => {
    expect(normalizeObject('  The Berlin. ', 'lives_in')).toBe('berlin');
    expect(normalizeObject('Busan now', 'lives_in')).toBe('busan');
    expect(normalizeObject('Microsoft last month', 'works_at')).toBe('microsoft');
    expect(normalizeObject('Acme Inc.', 'works_at')).toBe('acme');
    expect(normalizeObject('NYC', 'lives_in')).toBe('new york');
    expect(normalizeObject('$1,200 per month', 'price')).toBe('usd 1200 per month');
    expect(normalizeObject('$9 a month', 'price')).toBe('usd 9 per month');
    expect(normalizeObject('20 euros', 'price')).toBe('eur 20');
    expect(normalizeObject('version 4.0', 'version')).toBe('4');
    expect(normalizeObject('v15.4', 'version')).toBe('15.4');
    expect(normalizeObject('blocked on the security review', 'status')).toBe('blocked');
    expect(normalizeObject('Completed', 'status')).toBe('done');
    expect(normalizeObject('September 30th', 'deadline')).toBe('09-30');
    expect(normalizeObject('+1 (555) 010-0100', 'phone')).toBe('15550100100');
    expect(normalizeObject('Noah@Example.COM.', 'email')).toBe('noah@example.com');
  });

  it('parses money with scale and period', () => {
    expect(parseMoney('$1.2M')).toEqual({ currency: 'usd', amount: 1_200_000, period: undefined });
    expect(parseMoney('€49/mo')).toEqual({ currency: 'eur', amount: 49, period: 'month' });
    expect(parseMoney('no money here')).toBeNull();
  });

  it('compares values, treating refinements as the same and other periods as unknown', () => {
    expect(compareObjects('Berlin', 'Berlin, Germany', 'lives_in')).toBe('same');
    expect(compareObjects('IBM', 'IBM Research', 'works_at')).toBe('same');
    expect(compareObjects('Berlin', 'Munich', 'lives_in')).toBe('different');
    expect(compareObjects('15', '15.4', 'version')).toBe('same');
    expect(compareObjects('1.27', '1.29', 'version')).toBe('different');
    expect(compareObjects('$20 per month', '$200 per year', 'price')).toBe('unknown');
    expect(compareObjects('$20 per month', '$25 per month', 'price')).toBe('different');
    expect(compareObjects('$20/month', '$20 a month', 'price')).toBe('same');
  });
});

describe('triples', () => {
  const cases: Array<[string, [string, string, string, boolean?] | null]> = [
    ['Alice lives in Berlin.', ['alice', 'lives_in', 'berlin']],
    ['Alice moved to Munich.', ['alice', 'lives_in', 'munich']],
    ['Henry relocated to Dublin in May.', ['henry', 'lives_in', 'dublin']],
    ['Bob joined Microsoft last month.', ['bob', 'works_at', 'microsoft']],
    ['Ivy is employed by Shopify.', ['ivy', 'works_at', 'shopify']],
    ['The price of the Pro plan is $20 per month.', ['pro plan', 'price', 'usd 20 per month']],
    ['The Pro plan now costs $25 per month.', ['pro plan', 'price', 'usd 25 per month']],
    ['Project X status is blocked.', ['project x', 'status', 'blocked']],
    ['Project Borealis status: in progress.', ['project borealis', 'status', 'in_progress']],
    ['We use Postgres version 15.', ['postgres', 'version', '15']],
    ['We upgraded Postgres to version 16.', ['postgres', 'version', '16']],
    ['Bob reports to Carol.', ['bob', 'reports_to', 'carol']],
    ["Grace's manager is Heidi.", ['grace', 'reports_to', 'heidi']],
    ['Carol is 34 years old.', ['carol', 'age', '34']],
    ['Jane Doe is the CEO of Acme.', ['acme', 'ceo', 'jane doe']],
    ['The CEO of Acme is John Smith.', ['acme', 'ceo', 'john smith']],
    ["Jack's favourite colour is green.", ['jack', 'favorite_color', 'green']],
    ['Alice does not live in Berlin.', ['alice', 'lives_in', 'berlin', true]],
    ['Alice no longer lives in Berlin.', ['alice', 'lives_in', 'berlin', true]],
    ['Carlos used to work at Oracle.', ['carlos', 'works_at', 'oracle', true]],
    ['Olivia worked at Amazon before joining Netflix.', ['olivia', 'works_at', 'netflix']],
    ["Bob doesn't like jazz.", ['bob', 'likes', 'jazz', true]],
    ["Ivy's husband works at Shopify.", ['ivy husband', 'works_at', 'shopify']],
    // Unsure: no triple.
    ['He moved to Lisbon.', null],
    ['Tom said he has moved to Lisbon.', null],
    ['Alice and Bob live in Berlin.', null],
    ['Alice joined the meeting late.', null],
    ['The weather was nice.', null],
    ['', null],
  ];
  it.each(cases)('%s', (text, expected) => {
    const t = extractTriple(text);
    if (expected === null) {
      expect(t).toBeNull();
      return;
    }
    expect(t).not.toBeNull();
    expect([t!.subject, t!.predicate, t!.object_norm, t!.negated]).toEqual([expected[0], expected[1], expected[2], expected[3] ?? false]);
  });

  it('normalises subjects', () => {
    expect(normalizeSubject("  The Alice's ")).toBe('alice');
    expect(normalizeSubject('Our Kubernetes')).toBe('kubernetes');
    expect(normalizeSubject('Project  X')).toBe('project x');
  });

  it('splits sentences without breaking abbreviations, decimals or e-mails', () => {
    expect(splitSentences("Wendy is a doctor at St. Mary's. She moved to Oslo.")).toEqual(["Wendy is a doctor at St. Mary's.", 'She moved to Oslo.']);
    expect(splitSentences('Version 3.2 shipped. Mail noah@x.io today; Bob lives in Rome')).toHaveLength(3);
  });

  it('finds one triple per sentence', () => {
    const ts = extractTriples('Met with the team. Alice lives in Berlin. Bob works at Google.');
    expect(ts.map((t) => t.predicate)).toEqual(['lives_in', 'works_at']);
  });
});

describe('judgePair', () => {
  const m = (content: string) => ({ content });

  it('flags an update of a single-valued predicate as rdf_conflict, without needing similarity', () => {
    const j = judgePair(m('Alice moved to Munich.'), m('Alice lives in Berlin.'));
    expect(j.verdict).toBe('rdf_conflict');
    expect(j.reason).toBe('different_object');
    expect(j.newer_triple?.object_norm).toBe('munich');
    expect(j.older_triple?.object_norm).toBe('berlin');
  });

  it('uses writer-given triples over the text', () => {
    const j = judgePair(
      { content: 'Settled in.', subject: 'Alice', predicate: 'moved to', object_value: 'Leipzig' },
      { content: 'Flat hunting.', subject: 'alice', predicate: 'lives_in', object_value: 'Berlin' },
    );
    expect(j.verdict).toBe('rdf_conflict');
  });

  it('never flags different subjects, multi-valued predicates or refinements', () => {
    expect(judgePair(m('Bob lives in Munich.'), m('Alice lives in Berlin.'), { similarity: 0.9 }).verdict).toBe('none');
    expect(judgePair(m('Bob likes tea.'), m('Bob likes coffee.'), { similarity: 0.9 }).verdict).toBe('none');
    expect(judgePair(m('Carol visited Rome in 2021.'), m('Carol visited Rome in 2019.'), { similarity: 0.95 }).verdict).toBe('none');
    expect(judgePair(m('Alice lives in Berlin, Germany.'), m('Alice lives in Berlin.'), { similarity: 0.95 }).verdict).toBe('none');
    expect(judgePair(m('The printer on floor 4 is broken.'), m('The printer on floor 3 is broken.'), { similarity: 0.97 }).verdict).toBe('none');
  });

  it('does not treat high similarity alone as a contradiction', () => {
    for (const [older, newer] of [
      ['Alice bought a car.', 'Alice sold her car.'],
      ['Uma likes hiking.', 'Uma loves hiking.'],
      ['The meeting is on Tuesday.', 'The meeting is on Tuesday at 3 pm.'],
      ['Revenue grew 10% in Q1.', 'Revenue grew 15% in Q2.'],
    ]) {
      expect(judgePair(m(newer), m(older), { similarity: 0.99 }).verdict, `${older} / ${newer}`).toBe('none');
    }
  });

  it('finds negation flips, antonyms and different values when the texts are about the same thing', () => {
    const sim = 0.9;
    expect(judgePair(m('Alice is not vegetarian.'), m('Alice is vegetarian.'), { similarity: sim })).toMatchObject({ verdict: 'semantic_conflict', reason: 'negation_flip' });
    expect(judgePair(m("Bob doesn't like jazz."), m('Bob likes jazz.'), { similarity: sim })).toMatchObject({ verdict: 'semantic_conflict', reason: 'negation_flip' });
    expect(judgePair(m('The office is closed on Saturdays.'), m('The office is open on Saturdays.'), { similarity: sim })).toMatchObject({ verdict: 'semantic_conflict', reason: 'antonym' });
    expect(judgePair(m('The release went out on March 7.'), m('The release went out on March 5.'), { similarity: sim })).toMatchObject({ verdict: 'semantic_conflict', reason: 'different_value' });
    expect(judgePair(m('Carol has three children.'), m('Carol has two children.'), { similarity: sim })).toMatchObject({ verdict: 'semantic_conflict', reason: 'different_value' });
    expect(judgePair(m('The API returns XML by default.'), m('The API returns JSON by default.'), { similarity: sim })).toMatchObject({ verdict: 'semantic_conflict', reason: 'different_named_value' });
    expect(judgePair(m('Sara left Google in June.'), m('Sara works at Google.'), { similarity: sim })).toMatchObject({ verdict: 'semantic_conflict', reason: 'negation_flip' });
  });

  it('finds the one changed sentence among many of two long memories, a figure run or a short name swap', () => {
    const others = 'We talked about the garden for a while. The tomatoes did well this year despite the heat. ' +
      'My neighbour lent me a ladder for the gutters. Everyone was tired after the long drive home.';
    const older = `${others} The server runs 4 workers. Nothing else changed.`;
    const newer = `Some notes from the weekend follow here. ${others} The server runs 8 workers.`;
    expect(judgePair(m(newer), m(older), { similarity: 0.9 })).toMatchObject({ verdict: 'semantic_conflict', reason: 'different_value' });
    expect(judgePair(m(`${others} The API returns JSON by default.`), m(`${others} The API returns XML by default.`), { similarity: 0.9 }))
      .toMatchObject({ verdict: 'semantic_conflict', reason: 'different_named_value' });
    // Four words changed that are no figures: no single-value signal.
    expect(judgePair(m(`${others} The API returns pretty printed nested documents by default.`), m(`${others} The API returns XML by default.`), { similarity: 0.9 }).verdict)
      .toBe('none');
  });

  it('treats equal values in other notations as the same', () => {
    expect(judgePair(m('The cafeteria opens at 8:00 am.'), m('The cafeteria opens at 8.'), { similarity: 0.95 }).verdict).toBe('none');
    expect(judgePair(m('The dev team has twelve engineers.'), m('The dev team has 12 engineers.'), { similarity: 0.95 }).verdict).toBe('none');
    expect(judgePair(m('The upload limit is 10,240 KB.'), m('The upload limit is 10 MB.'), { similarity: 0.95 }).verdict).toBe('none');
  });

  it('needs similarity at or above the gate for semantic findings', () => {
    const newer = m('Alice is not vegetarian.');
    const older = m('Alice is vegetarian.');
    expect(judgePair(newer, older, { similarity: SEMANTIC_SIMILARITY_THRESHOLD - 0.01 })).toMatchObject({ verdict: 'none', reason: 'below_similarity' });
    expect(judgePair(newer, older, { similarity: SEMANTIC_SIMILARITY_THRESHOLD }).verdict).toBe('semantic_conflict');
    expect(judgePair(newer, older)).toMatchObject({ verdict: 'none', reason: 'no_similarity' });
    // The similarity may come with the candidate row instead of the options.
    expect(judgePair(newer, { ...older, similarity: 0.9 }).verdict).toBe('semantic_conflict');
  });
});

describe('labelled pairs', () => {
  const fixture = load('contradictions.json');
  const holdout = load('contradictions-holdout.json');

  it('has enough well-formed pairs covering every class', () => {
    expect(fixture.length).toBeGreaterThanOrEqual(60);
    for (const p of [...fixture, ...holdout]) {
      expect(['rdf_conflict', 'semantic_conflict', 'none']).toContain(p.expected);
      expect(typeof p.older === 'string' || typeof p.older.content === 'string').toBe(true);
    }
    for (const cls of ['rdf_conflict', 'semantic_conflict', 'none']) {
      expect(fixture.filter((p) => p.expected === cls).length, cls).toBeGreaterThanOrEqual(15);
    }
  });

  // Lexical similarity stands in for the embedder here; bench/contradictions.ts uses USE-Lite.
  it('meets precision ≥ 0.9 and recall ≥ 0.7 on the fixture', async () => {
    const r = await scorePairs(fixture);
    expect(r.similarity_source).toBe('lexical');
    expect(r.conflict_vs_none.precision).toBeGreaterThanOrEqual(0.9);
    expect(r.conflict_vs_none.recall).toBeGreaterThanOrEqual(0.7);
  });

  it('keeps precision on the held-out pairs', async () => {
    const r = await scorePairs(holdout, { threshold: 0 });
    expect(r.conflict_vs_none.precision).toBeGreaterThanOrEqual(0.9);
    expect(r.conflict_vs_none.recall).toBeGreaterThanOrEqual(0.6);
  });

  it('scores with any embedder passed in', async () => {
    // A stand-in embedder: every text maps to the same vector (similarity 1).
    const flat = { modelId: 'flat', embed: async (texts: string[]) => texts.map(() => Float32Array.from([1, 0])) };
    const r = await scorePairs(fixture.slice(0, 10), { embedder: flat });
    expect(r.similarity_source).toBe('embedder:flat');
    expect(r.results.every((x) => x.similarity === 1)).toBe(true);
  });

  it('lexical similarity is a cosine in [0, 1]', () => {
    expect(lexicalSimilarity('a b c', 'a b c')).toBeCloseTo(1);
    expect(lexicalSimilarity('alpha', 'beta')).toBe(0);
  });
});

describe('sentence diff', () => {
  const words = (ts: { orig: string }[]) => ts.map((t) => t.orig).join(' ');
  const hunks = (a: string, b: string) => diff(tokenize(a), tokenize(b)).map((h) => [words(h.a), words(h.b)]);

  it('finds the replaced span, fillers dropped, also right after a larger pair (its table is reused)', () => {
    const long = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');
    expect(hunks(long, `${long} extra`)).toEqual([['', 'extra']]);
    expect(hunks('The standup is on Monday at 10', 'The standup is now on Tuesday at 10')).toEqual([['Monday', 'Tuesday']]);
    expect(hunks('Alpha beta gamma', 'Alpha beta gamma')).toEqual([]);
    expect(hunks('Rent is 900 euros', 'The rent went up to 950 euros')).toEqual([['900', 'went up to 950']]);
  });
});
