// Pure parts of memory search: configuration, fusion and boosts, query entity keys, summaries.
import { describe, expect, it } from 'vitest';
import { DEFAULT_SEARCH_CONFIG, resolveSearchConfig, searchConfigFromEnv } from '../../src/core/search/config.js';
import { boostFactor, fuseLegs, selectTop, type Candidate } from '../../src/core/search/fusion.js';
import { MAX_QUERY_KEYS, queryEntityKeys } from '../../src/core/search/query-terms.js';
import {
  EMPTY_SUMMARY, extractiveSummary, factLine, jaccard, mmrSelect, subjectOf, wordSet, type SummaryInput,
} from '../../src/core/search/summary.js';
import { summaryPrompt, withConflictNote } from '../../src/core/search/llm-summary.js';
import { loadConfig } from '../../src/config.js';
import { rankWeights } from '../../src/core/search/legs.js';
import { frequenciesFromStats, inverseFrequency, NO_FREQUENCIES, planKeywordQuery, tenantShare, tenantSharesFromStats, TermStats, tsQuote } from '../../src/core/search/keyword-plan.js';

const NOW = new Date('2025-06-01T00:00:00Z');
const c = (id: string, weight = 0.5, createdAt = NOW): Candidate => ({ id, weight, createdAt });
const NO_BOOST = { weight: 0, recency: 0, recencyHalfLifeDays: 30 };

describe('search configuration', () => {
  it('lays overrides over the defaults without touching them', () => {
    const cfg = resolveSearchConfig({ keyword: { k: 10 }, fusion: { weights: { entity: 2 } } });
    expect(cfg.keyword).toEqual({ ...DEFAULT_SEARCH_CONFIG.keyword, k: 10 });
    expect(cfg.fusion.weights).toEqual({ ...DEFAULT_SEARCH_CONFIG.fusion.weights, entity: 2 });
    expect(DEFAULT_SEARCH_CONFIG.keyword.k).toBe(50);
    expect(resolveSearchConfig()).toEqual(DEFAULT_SEARCH_CONFIG);
  });

  it('refuses unknown settings, wrong types and bad values, naming the path', () => {
    expect(() => resolveSearchConfig({ keyword: { kk: 1 } })).toThrow(/search config\.keyword has no setting "kk"/);
    expect(() => resolveSearchConfig({ vector: { enabled: 'yes' } })).toThrow(/search config\.vector\.enabled must be a boolean/);
    expect(() => resolveSearchConfig({ vector: { k: 0 } })).toThrow(/vector\.k must be an integer/);
    expect(() => resolveSearchConfig({ keyword: { match: 'some' } })).toThrow(/keyword\.match/);
    expect(() => resolveSearchConfig({ fusion: [] })).toThrow(/search config\.fusion must be an object/);
    expect(() => resolveSearchConfig({ keyword: { titleWeight: 1.5 } })).toThrow(/keyword\.titleWeight must be in \[0, 1\]/);
  });

  it('ranks title words (weight D) at keyword.titleWeight of content words (weight A)', () => {
    expect(rankWeights({ titleWeight: 0.3 })).toEqual([0.3, 0.3, 0.3, 1]);
    expect(rankWeights({ titleWeight: 0 })).toEqual([0, 0, 0, 1]);
  });

  it('is read from LOCI_SEARCH_CONFIG as JSON', () => {
    expect(searchConfigFromEnv(undefined)).toEqual(DEFAULT_SEARCH_CONFIG);
    expect(searchConfigFromEnv('{"entity":{"enabled":false}}').entity.enabled).toBe(false);
    expect(() => searchConfigFromEnv('{nope')).toThrow(/LOCI_SEARCH_CONFIG must be a JSON object/);
    expect(loadConfig({ LOCI_SEARCH_CONFIG: '{"vector":{"k":20}}' }).search.vector.k).toBe(20);
    expect(() => loadConfig({ LOCI_SEARCH_CONFIG: '{"vector":{"x":1}}' })).toThrow(/no setting "x"/);
  });
});

describe('fuseLegs', () => {
  const fusion = { rrfK: 60, weights: { vector: 1, keyword: 1, entity: 1 } };

  it('sums 1 / (k + rank) over the legs, ranks per leg kept', () => {
    const out = fuseLegs({ vector: [c('a'), c('b')], keyword: [c('b')], entity: [] }, fusion, NO_BOOST, NOW);
    expect(out.map((f) => f.id)).toEqual(['b', 'a']);
    expect(out[0].rrf).toBeCloseTo(1 / 62 + 1 / 61, 12);
    expect(out[0].ranks).toEqual({ vector: 2, keyword: 1, entity: null });
    expect(out[1].ranks).toEqual({ vector: 1, keyword: null, entity: null });
    expect(out[0].score).toBe(out[0].rrf);
  });

  it('weights legs', () => {
    const legs = { vector: [c('v')], entity: [c('e')] };
    expect(fuseLegs(legs, fusion, NO_BOOST, NOW).map((f) => f.id)).toEqual(['v', 'e']);
    const heavy = { ...fusion, weights: { vector: 1, keyword: 1, entity: 2 } };
    const out = fuseLegs(legs, heavy, NO_BOOST, NOW);
    expect(out.map((f) => f.id)).toEqual(['e', 'v']);
    expect(out[0].rrf).toBeCloseTo(2 / 61, 12);
  });

  it('boosts weight and recency a little: they break near-ties, not clear rank gaps', () => {
    const boosts = { weight: 0.1, recency: 0.05, recencyHalfLifeDays: 30 };
    const old = new Date(NOW.getTime() - 365 * 86_400_000);
    // Equal ranks (one leg each, rank 1): the heavier memory wins.
    const tie = fuseLegs({ vector: [c('light', 0.2)], keyword: [c('heavy', 0.9)] }, fusion, boosts, NOW);
    expect(tie.map((f) => f.id)).toEqual(['heavy', 'light']);
    // Equal ranks: the newer memory wins.
    const age = fuseLegs({ vector: [c('old', 0.5, old)], keyword: [c('new', 0.5, NOW)] }, fusion, boosts, NOW);
    expect(age.map((f) => f.id)).toEqual(['new', 'old']);
    // Found by two legs beats found by one, whatever the boosts.
    const gap = fuseLegs({ vector: [c('both', 0, old), c('one', 1)], keyword: [c('both', 0, old)] }, fusion, boosts, NOW);
    expect(gap[0].id).toBe('both');
  });

  it('keeps a stable order for equal scores', () => {
    const out = fuseLegs({ vector: [c('x')], keyword: [c('y')] }, fusion, NO_BOOST, NOW);
    expect(out.map((f) => f.id)).toEqual(['x', 'y']);
  });
});

describe('boostFactor', () => {
  const b = { weight: 0.1, recency: 0.05, recencyHalfLifeDays: 30 };
  it('is neutral for weight 0.5 and ±weight at the extremes; recency halves every half-life', () => {
    const old = new Date(NOW.getTime() - 10_000 * 86_400_000);
    expect(boostFactor(0.5, old, NOW, b)).toBeCloseTo(1, 6);
    expect(boostFactor(1, old, NOW, b)).toBeCloseTo(1.1, 6);
    expect(boostFactor(0, old, NOW, b)).toBeCloseTo(0.9, 6);
    expect(boostFactor(0.5, NOW, NOW, b)).toBeCloseTo(1.05, 6);
    expect(boostFactor(0.5, new Date(NOW.getTime() - 30 * 86_400_000), NOW, b)).toBeCloseTo(1.025, 6);
    // Future timestamps count as now; out-of-range weights are clamped.
    expect(boostFactor(7, new Date(NOW.getTime() + 86_400_000), NOW, b)).toBeCloseTo(1.15, 6);
  });
});

describe('selectTop', () => {
  const fused = [{ id: 'a' }, { id: 'b' }, { id: 'c' }, { id: 'd' }];
  const sims = new Map([['a', 0.9], ['b', 0.2], ['c', 0.7]]);
  it('takes top_k in fused order, skipping what falls under min_similarity (unknown = 0)', () => {
    expect(selectTop(fused, sims, 2).map((f) => f.id)).toEqual(['a', 'b']);
    expect(selectTop(fused, sims, 2, 0.5).map((f) => f.id)).toEqual(['a', 'c']);
    expect(selectTop(fused, sims, 10, 0.5).map((f) => f.id)).toEqual(['a', 'c']);
    expect(selectTop(fused, sims, 10, -1).map((f) => f.id)).toEqual(['a', 'b', 'c', 'd']);
  });
});

describe('queryEntityKeys', () => {
  it('gives normalised n-grams, longest first, without stopword-only or stopword-edged grams', () => {
    const keys = queryEntityKeys('What did Dr. Priya Raman say about the Oslo office?', 3);
    expect(keys).toEqual(expect.arrayContaining(['priya raman', 'priya', 'raman', 'oslo office', 'oslo', 'office', 'say']));
    expect(keys.indexOf('priya raman')).toBeLessThan(keys.indexOf('priya'));
    for (const bad of ['what', 'did', 'the', 'about', 'about the', 'the oslo', 'office?', 'dr.', 'dr']) expect(keys).not.toContain(bad);
  });

  it('strips possessives and punctuation the way stored entity names are normalised', () => {
    expect(queryEntityKeys("Is Caroline's talk about ERR-4471?", 1)).toEqual(expect.arrayContaining(['caroline', 'talk', 'err-4471']));
    expect(queryEntityKeys('(Paris), "Berlin"!', 1)).toEqual(['paris', 'berlin']);
  });

  it('keeps numbers and is bounded for long queries', () => {
    expect(queryEntityKeys('in 2021', 2)).toEqual(['2021']);
    const long = Array.from({ length: 2000 }, (_, i) => `word${i}`).join(' ');
    expect(queryEntityKeys(long, 3)).toHaveLength(MAX_QUERY_KEYS);
    expect(queryEntityKeys('   ', 3)).toEqual([]);
  });
});

const mem = (id: string, content: string, extra: Partial<SummaryInput['memory']> = {}) =>
  ({ id, content, status: 'active', entity_links: [], ...extra });

describe('extractive summary', () => {
  const cfg = DEFAULT_SEARCH_CONFIG.summary;

  it('word overlap', () => {
    expect(jaccard(wordSet('The cat sat'), wordSet('the CAT sat!'))).toBe(1);
    expect(jaccard(wordSet('aa bb cc dd'), wordSet('cc dd ee ff'))).toBeCloseTo(2 / 6, 6);
    expect(jaccard(wordSet('a cat'), wordSet('cat'))).toBe(1); // one-letter words do not count
    expect(jaccard(wordSet(''), wordSet(''))).toBe(1);
  });

  it('MMR keeps the most relevant first and drops near-duplicates', () => {
    const items = [
      { memory: mem('1', 'The Oslo office moved to the harbour building in March.'), score: 3 },
      { memory: mem('2', 'The Oslo office moved to the harbour building in March 2024.'), score: 2.9 },
      { memory: mem('3', 'Marta prefers written status updates.'), score: 1 },
    ];
    expect(mmrSelect(items, cfg).map((i) => i.memory.id)).toEqual(['1', '3']);
    expect(mmrSelect(items, { ...cfg, maxFacts: 1 }).map((i) => i.memory.id)).toEqual(['1']);
    expect(mmrSelect(items, { ...cfg, duplicateThreshold: 1.01 }).map((i) => i.memory.id)).toEqual(['1', '2', '3']);
  });

  it('MMR prefers a novel fact over a similar, slightly more relevant one', () => {
    const items = [
      { memory: mem('1', 'alpha beta gamma delta epsilon'), score: 1 },
      { memory: mem('2', 'alpha beta gamma delta zeta'), score: 0.95 },
      { memory: mem('3', 'completely different words here'), score: 0.9 },
    ];
    expect(mmrSelect(items, { ...cfg, mmrLambda: 0.5 }).map((i) => i.memory.id)).toEqual(['1', '3', '2']);
  });

  it('subject: the subject entity, else the first linked entity, else General', () => {
    const link = (name: string, role: string) => ({ entity_id: name, name, entity_type: 'person', role });
    expect(subjectOf({ entity_links: [link('Oslo', 'mention'), link('Marta', 'subject')] })).toBe('Marta');
    expect(subjectOf({ entity_links: [link('Oslo', 'mention')] })).toBe('Oslo');
    expect(subjectOf({ entity_links: [] })).toBe('General');
  });

  it('a fact line flags conflicted memories and cites the id; long facts are shortened', () => {
    expect(factLine(mem('id1', ' Line one\n line two '), 100)).toBe('Line one line two [id1]');
    expect(factLine(mem('id2', 'Disputed.', { status: 'conflicted' }), 100)).toBe('Disputed. (conflicted) [id2]');
    expect(factLine(mem('id3', 'x'.repeat(50)), 10)).toBe(`${'x'.repeat(9)}… [id3]`);
  });

  it('groups facts by subject in selection order', () => {
    const link = (name: string) => [{ entity_id: name, name, entity_type: 'person', role: 'subject' }];
    const items = [
      { memory: mem('1', 'Marta leads Oslo.', { entity_links: link('Marta') }), score: 3 },
      { memory: mem('2', 'Tomasz owns billing.', { entity_links: link('Tomasz') }), score: 2 },
      { memory: mem('3', 'Marta likes tea.', { entity_links: link('Marta') }), score: 1 },
      { memory: mem('4', 'The build is green.'), score: 0.5 },
    ];
    expect(extractiveSummary(items, cfg)).toBe(
      'Marta:\n- Marta leads Oslo. [1]\n- Marta likes tea. [3]\nTomasz:\n- Tomasz owns billing. [2]\nGeneral:\n- The build is green. [4]');
    expect(extractiveSummary([], cfg)).toBe(EMPTY_SUMMARY);
  });
});

describe('LLM summary prompt', () => {
  const ms = [
    { id: 'id-a', content: 'Tomasz owns billing.', status: 'active', memory_type: 'fact', created_at: '2025-01-02T03:04:05.000Z' },
    { id: 'id-b', content: 'Tomasz is on call.', status: 'conflicted', memory_type: 'episode', created_at: '2025-02-03T00:00:00.000Z' },
  ];
  it('holds the query and every memory with its id, type, date and conflicted flag', () => {
    const [system, user] = summaryPrompt('Who owns billing?', ms, 400);
    expect(system.role).toBe('system');
    expect(system.content).toMatch(/cite/i);
    expect(user.content).toContain('Query: Who owns billing?');
    expect(user.content).toContain('- (fact, 2025-01-02) Tomasz owns billing. [id-a]');
    expect(user.content).toContain('- (episode, 2025-02-03) Tomasz is on call. (conflicted) [id-b]');
  });

  it('adds a note for conflicted memories the reply does not cite', () => {
    expect(withConflictNote('Tomasz owns billing [id-a].', ms)).toBe(
      'Tomasz owns billing [id-a].\n\nConflicted memories (contested by another memory): [id-b]');
    expect(withConflictNote('On call, contested [id-b].', ms)).toBe('On call, contested [id-b].');
  });
});

describe('keyword plan', () => {
  const cfg = { ...DEFAULT_SEARCH_CONFIG.keyword, maxTermFrequency: 0.1, maxTerms: 8, rareTermRows: 500 };
  const stats = { freq: new Map([['meet', 0.4], ['team', 0.2], ['budget', 0.05], ['falcon', 0.01]]), floor: 0.001, rows: 100_000 };

  it('drops words in more than maxTermFrequency of the memories, keeps the rest rarest first', () => {
    const plan = planKeywordQuery(['meet', 'budget', 'team', 'falcon', 'launch'], stats, cfg);
    expect(plan.terms).toEqual(['launch', 'falcon', 'budget']);
    expect(plan.rank).toBe(`'launch' | 'falcon' | 'budget'`);
  });

  it('two mode: any two kept words, or one rare word alone', () => {
    const plan = planKeywordQuery(['budget', 'falcon', 'launch'], stats, cfg);
    // launch: unlisted, so rarer than the floor (100 rows expected) — alone enough; falcon 1,000 rows, budget 5,000: not alone.
    expect(plan.match).toBe(`('launch' & 'falcon') | ('launch' & 'budget') | ('falcon' & 'budget') | 'launch'`);
    expect(planKeywordQuery(['budget', 'falcon'], stats, { ...cfg, rareTermRows: 2000 }).match)
      .toBe(`('falcon' & 'budget') | 'falcon'`);
  });

  it('any mode, a single word, and a question of common words only', () => {
    expect(planKeywordQuery(['budget', 'falcon'], stats, { ...cfg, match: 'any' }).match).toBe(`'falcon' | 'budget'`);
    expect(planKeywordQuery(['budget'], stats, cfg)).toMatchObject({ match: `'budget'`, rank: `'budget'`, terms: ['budget'] });
    expect(planKeywordQuery(['meet', 'team'], stats, cfg).terms).toEqual(['team']);
    expect(planKeywordQuery([], stats, cfg)).toEqual({ match: null, rank: null, terms: [], idf: [] });
  });

  it('without statistics every word counts, each alone enough; maxTerms keeps the rarest', () => {
    expect(planKeywordQuery(['b', 'a'], NO_FREQUENCIES, cfg).match).toBe(`('a' & 'b') | 'a' | 'b'`);
    expect(planKeywordQuery(['x1', 'x2', 'x3', 'falcon'], stats, { ...cfg, maxTerms: 2 }).terms).toEqual(['x1', 'x2']);
  });

  it('weighs each kept word by its inverse document frequency, rarest highest', () => {
    const plan = planKeywordQuery(['budget', 'falcon', 'launch'], stats, cfg);
    // launch is unlisted: it takes the floor's frequency, 0.001 × 100,000 = 100 rows.
    expect(plan.idf[0]).toBeCloseTo(Math.log(1 + (100_000 - 100 + 0.5) / 100.5), 6);
    expect(plan.idf[1]).toBeCloseTo(Math.log(1 + (100_000 - 1_000 + 0.5) / 1_000.5), 6);
    expect(plan.idf[0]).toBeGreaterThan(plan.idf[1]);
    expect(plan.idf[1]).toBeGreaterThan(plan.idf[2]);
    expect(inverseFrequency(0.5, 0)).toBe(1); // no statistics: all words alike
    expect(inverseFrequency(1, 1000)).toBeCloseTo(Math.log(1 + 0.5 / 1000.5), 9);
  });

  it('quotes lexemes for tsquery input', () => {
    expect(tsQuote("o'neil")).toBe(`'o''neil'`);
    expect(tsQuote('a\\b')).toBe(`'a\\\\b'`);
  });

  it('reads frequencies and the floor from pg_stats arrays', () => {
    const f = frequenciesFromStats(['a', 'b'], [0.5, 0.01, 0.01, 0.5], 1000);
    expect([...f.freq]).toEqual([['a', 0.5], ['b', 0.01]]);
    expect(f).toMatchObject({ floor: 0.01, rows: 1000 });
    expect(frequenciesFromStats(null, null, -1)).toEqual({ ...NO_FREQUENCIES, rows: 0 });
  });

  it("reads each common tenant's share of the rows; unlisted tenants are small, unanalysed tables whole", () => {
    const stats = { ...NO_FREQUENCIES, tenants: tenantSharesFromStats(['big', 'mid'], [0.7, 0.2], 1000) };
    expect(tenantShare(stats, 'big')).toBe(0.7);
    expect(tenantShare(stats, 'mid')).toBe(0.2);
    expect(tenantShare(stats, 'tiny')).toBe(0);
    expect(tenantShare({ ...NO_FREQUENCIES, tenants: tenantSharesFromStats(null, null, 5000) }, 'any')).toBe(0);
    expect(tenantSharesFromStats(null, null, -1)).toBeNull();
    expect(tenantShare(NO_FREQUENCIES, 'any')).toBe(1);
  });

  it('TermStats caches the statistics for its max age and keeps the last figures when a read fails', async () => {
    let calls = 0;
    let fail = false;
    const db = {
      query: async () => {
        calls++;
        if (fail) throw new Error('down');
        return { rows: [{ elems: ['a'], freqs: [0.3, 0.3, 0.3], reltuples: 10 }], rowCount: 1 };
      },
    };
    const ts = new TermStats(1000);
    const first = await ts.get(db as any, 0);
    expect(first.freq.get('a')).toBe(0.3);
    await ts.get(db as any, 500);
    expect(calls).toBe(1);
    fail = true;
    const again = await ts.get(db as any, 5000);
    expect(calls).toBe(2);
    expect(again).toBe(first);
    await ts.get(db as any, 5500);
    expect(calls).toBe(2);
  });
});
