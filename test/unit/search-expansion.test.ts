// Pure parts of query expansion: decomposition, temporal cues, feedback words, graph neighbours,
// extra fused lists and diversity across runs.
import { describe, expect, it } from 'vitest';
import { resolveSearchConfig } from '../../src/core/search/config.js';
import { decomposeQuery } from '../../src/core/search/decompose.js';
import { feedbackTerms } from '../../src/core/search/feedback.js';
import { diversifyRuns, fuseLegs, type Candidate } from '../../src/core/search/fusion.js';
import { rankNeighbours } from '../../src/core/search/graph-expansion.js';
import { temporalFactor, temporalRange } from '../../src/core/search/temporal.js';

const NOW = new Date('2026-11-23T12:00:00Z');
const NO_BOOST = { weight: 0, recency: 0, recencyHalfLifeDays: 30 };
const FUSION = { rrfK: 10, weights: { vector: 1, keyword: 1, entity: 1 } };
const c = (id: string, extra: Partial<Candidate> = {}): Candidate => ({ id, weight: 0.5, createdAt: NOW, ...extra });

describe('decomposeQuery', () => {
  it('splits coordinated names into one question per name, dropping "both"', () => {
    expect(decomposeQuery('What subject have Caroline and Melanie both painted?'))
      .toEqual(['What subject have Caroline painted?', 'What subject have Melanie painted?']);
    expect(decomposeQuery('What are Ana, Bo and Jon doing?')).toEqual(['What are Ana doing?', 'What are Bo doing?', 'What are Jon doing?']);
  });

  it('splits clauses joined before a question word', () => {
    expect(decomposeQuery('Where did Caroline move from, and what did she study?')).toEqual(['Where did Caroline move from', 'what did she study?']);
  });

  it('leaves single questions and phrase coordinations whole', () => {
    expect(decomposeQuery('What activities does Melanie partake in?')).toEqual([]);
    expect(decomposeQuery('What pottery have Melanie and her kids made?')).toEqual([]);
  });

  it('keeps at most maxParts parts', () => {
    expect(decomposeQuery('What are Ana, Bo and Jon doing?', 2)).toHaveLength(2);
  });
});

describe('temporalRange', () => {
  it('resolves relative and absolute times against now', () => {
    expect(temporalRange('What did I do last May?', NOW)).toEqual({ start: new Date('2026-05-01T00:00:00Z'), end: new Date('2026-05-31T23:59:59.999Z') });
    expect(temporalRange('what happened yesterday', NOW)?.start).toEqual(new Date('2026-11-22T00:00:00Z'));
    expect(temporalRange('beach trips in 2023', NOW)).toEqual({ start: new Date('2023-01-01T00:00:00Z'), end: new Date('2023-12-31T23:59:59.999Z') });
  });

  it('is null for a query without a time', () => {
    expect(temporalRange('When did Caroline go to the support group?', NOW)).toBeNull();
    expect(temporalRange('favourite colour', NOW)).toBeNull();
  });

  it('boosts only memories valid in the range, from ts_valid_start else creation', () => {
    const range = temporalRange('in March 2022', NOW);
    expect(temporalFactor(new Date('2022-03-10T00:00:00Z'), NOW, range, 0.5)).toBe(1.5);
    expect(temporalFactor(new Date('2022-04-10T00:00:00Z'), NOW, range, 0.5)).toBe(1);
    expect(temporalFactor(null, new Date('2022-03-02T00:00:00Z'), range, 0.5)).toBe(1.5);
    expect(temporalFactor(null, NOW, null, 0.5)).toBe(1);
  });
});

describe('feedbackTerms', () => {
  const stats = { freq: new Map([['common', 0.9], ['yoga', 0.01]]), floor: 0.001, rows: 1000 };
  const o = { terms: 3, minDocs: 2, maxTermFrequency: 0.5 };
  it('picks words shared by the first documents, rarer and higher-ranked first, never query words', () => {
    const docs = [['destress', 'yoga', 'paint', 'common'], ['yoga', 'paint', 'destress'], ['paint', 'walk'], ['walk', 'x']];
    expect(feedbackTerms(docs, ['destress'], stats, o)).toEqual(['paint', 'yoga', 'walk']);
  });

  it('drops words in fewer than minDocs documents, common words and numbers', () => {
    expect(feedbackTerms([['once', 'common', '2023'], ['common', '2023']], [], stats, o)).toEqual([]);
  });
});

describe('rankNeighbours', () => {
  it('ranks by the share of the neighbour\'s mentions next to a query entity, dropping weak ties', () => {
    const rows = [
      { id: 'everywhere', name: 'Everywhere', mentionCount: 100, shared: 10, match: 1 },
      { id: 'specific', name: 'Specific', mentionCount: 4, shared: 3, match: 1 },
      { id: 'once', name: 'Once', mentionCount: 1, shared: 1, match: 1 },
    ];
    const out = rankNeighbours(rows, { neighbours: 5, minShared: 2 });
    expect(out.map((e) => e.id)).toEqual(['specific', 'everywhere']);
    expect(out[0].match).toBeCloseTo(0.75);
    expect(rankNeighbours(rows, { neighbours: 1, minShared: 1 }).map((e) => e.id)).toEqual(['once']);
  });
});

describe('fusion with extra lists, temporal boost and run diversity', () => {
  it('an extra list adds its weighted reciprocal rank', () => {
    const without = fuseLegs({ keyword: [c('a'), c('b')] }, FUSION, NO_BOOST, NOW);
    const withExtra = fuseLegs({ keyword: [c('a'), c('b')] }, FUSION, NO_BOOST, NOW, { extras: [{ candidates: [c('b'), c('x')], weight: 1 }] });
    expect(without.map((f) => f.id)).toEqual(['a', 'b']);
    expect(withExtra.map((f) => f.id)).toEqual(['b', 'a', 'x']);
    expect(withExtra[0].ranks).toEqual({ vector: null, keyword: 2, entity: null });
  });

  it('the temporal boost lifts a memory valid in the named range', () => {
    const range = { start: new Date('2025-05-01T00:00:00Z'), end: new Date('2025-05-31T23:59:59Z') };
    const legs = { keyword: [c('jan', { validStart: new Date('2025-01-05T00:00:00Z') }), c('may', { validStart: new Date('2025-05-05T00:00:00Z') })] };
    expect(fuseLegs(legs, FUSION, NO_BOOST, NOW, { temporal: { range, boost: 0.5 } }).map((f) => f.id)).toEqual(['may', 'jan']);
    expect(fuseLegs(legs, FUSION, NO_BOOST, NOW, { temporal: { range: null, boost: 0.5 } }).map((f) => f.id)).toEqual(['jan', 'may']);
  });

  it('diversifyRuns lowers the later items of one run', () => {
    const fused = [{ id: 'a1', score: 1 }, { id: 'a2', score: 0.9 }, { id: 'b1', score: 0.8 }, { id: 'n', score: 0.7 }];
    const run = new Map([['a1', 'A'], ['a2', 'A'], ['b1', 'B']]);
    expect(diversifyRuns(fused, (id) => run.get(id), 0.3).map((f) => f.id)).toEqual(['a1', 'b1', 'n', 'a2']);
    expect(diversifyRuns(fused, (id) => run.get(id), 0).map((f) => f.id)).toEqual(['a1', 'a2', 'b1', 'n']);
  });
});

describe('expansion settings', () => {
  it('are checked', () => {
    expect(() => resolveSearchConfig({ diversity: { runPenalty: 1 } })).toThrow(/diversity\.runPenalty/);
    expect(() => resolveSearchConfig({ feedback: { docs: 0 } })).toThrow(/feedback\.docs/);
    expect(() => resolveSearchConfig({ graph: { weight: -1 } })).toThrow(/graph\.weight/);
    expect(resolveSearchConfig({ temporal: { boost: 1 } }).temporal.boost).toBe(1);
  });
});
