// The LoCoMo benchmark's metric and evidence repair on small hand-made inputs.
import { describe, expect, it } from 'vitest';
import { aggregate, emptyRepairCounts, repairEvidence, scoreQuestion, summarise } from '../../bench/locomo-metric.js';

const KNOWN = new Set(['D1:1', 'D1:2', 'D1:3', 'D8:6', 'D9:17', 'D11:26', 'D4:4']);

describe('evidence repair', () => {
  it('keeps well-formed ids that exist', () => {
    const c = emptyRepairCounts();
    expect(repairEvidence(['D1:3', 'D1:1'], KNOWN, c)).toEqual(['D1:3', 'D1:1']);
    expect(c).toEqual({ split_strings: 0, fixed_ids: 0, dropped_ids: [], dropped_questions: 0 });
  });

  it('splits several ids in one string, fixes "D:11:26" and leading zeros, drops unknown ids and duplicates', () => {
    const c = emptyRepairCounts();
    expect(repairEvidence(['D8:6; D9:17', 'D:11:26', 'D4:04 D1:1,D1:1', 'D30:5', 'D'], KNOWN, c)).toEqual(['D8:6', 'D9:17', 'D11:26', 'D4:4', 'D1:1']);
    expect(c).toEqual({ split_strings: 2, fixed_ids: 2, dropped_ids: ['D30:5', 'D'], dropped_questions: 0 });
  });

  it('counts a question left with no evidence as dropped', () => {
    const c = emptyRepairCounts();
    expect(repairEvidence([], KNOWN, c)).toEqual([]);
    expect(repairEvidence(['D99:1'], KNOWN, c)).toEqual([]);
    expect(c.dropped_questions).toBe(2);
    expect(c.dropped_ids).toEqual(['D99:1']);
  });
});

describe('scoring', () => {
  it('recall@k is the fraction of evidence among the first k results; MRR the first hit', () => {
    // Evidence a and b; a at rank 3, b at rank 7.
    const ranked = [['x'], ['y'], ['a'], ['z'], ['w'], ['v'], ['b'], ...Array.from({ length: 13 }, (_, i) => [`n${i}`])];
    const s = scoreQuestion(ranked, ['a', 'b']);
    expect(s.recall).toEqual({ 5: 0.5, 10: 1, 20: 1 });
    expect(s.rr).toBeCloseTo(1 / 3, 10);
  });

  it('a result standing for several turns counts each of them; no hit gives 0', () => {
    expect(scoreQuestion([['p', 'a'], ['b']], ['a', 'b', 'c']).recall[5]).toBeCloseTo(2 / 3, 10);
    expect(scoreQuestion([['p', 'a'], ['b']], ['a', 'b', 'c']).rr).toBe(1);
    const miss = scoreQuestion(Array.from({ length: 25 }, (_, i) => [`n${i}`]), ['a']);
    expect(miss).toEqual({ recall: { 5: 0, 10: 0, 20: 0 }, rr: 0 });
    // Found only at rank 21: outside every cut-off, but MRR sees the whole list given.
    const late = scoreQuestion([...Array.from({ length: 20 }, (_, i) => [`n${i}`]), ['a']], ['a']);
    expect(late.recall[20]).toBe(0);
    expect(() => scoreQuestion([['a']], [])).toThrow();
  });

  it('aggregates as percentages per category and overall with and without adversarial', () => {
    const hit = scoreQuestion([['a']], ['a']); // 1, 1, 1, rr 1
    const half = scoreQuestion([['x'], ['a']], ['a', 'b']); // 0.5 everywhere, rr 0.5
    const none = scoreQuestion([['x']], ['a']);
    expect(aggregate([hit, half])).toEqual({ n: 2, r5: 75, r10: 75, r20: 75, mrr: 75 });
    const s = summarise([
      { category: 1, score: hit }, { category: 4, score: half }, { category: 4, score: none }, { category: 5, score: none },
    ]);
    expect(s.by_category['4 single-hop']).toEqual({ n: 2, r5: 25, r10: 25, r20: 25, mrr: 25 });
    expect(s.by_category['2 temporal'].n).toBe(0);
    expect(s.overall_excl_adversarial).toEqual({ n: 3, r5: 50, r10: 50, r20: 50, mrr: 50 });
    expect(s.overall_incl_adversarial).toEqual({ n: 4, r5: 37.5, r10: 37.5, r20: 37.5, mrr: 37.5 });
  });
});
