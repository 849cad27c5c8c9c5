// Passages of long memories: sentence-aligned, overlapping, bounded; short memories are not split.
import { describe, expect, it } from 'vitest';
import { contextText, sentences, splitPassages } from '../../src/core/passages/split.js';

const text = Array.from({ length: 30 }, (_, i) => `Sentence ${i} says something about topic ${i} at some length here.`).join(' ');

describe('splitPassages', () => {
  it('leaves a memory of at most minChars alone', () => {
    expect(splitPassages('Short. Memory.')).toEqual([]);
    expect(splitPassages('x'.repeat(500))).toEqual([]);
  });

  it('cuts at sentence ends, about targetChars each, every sentence covered, each passage opening with the last sentence of the one before when it is short', () => {
    const ps = splitPassages(text);
    expect(ps.length).toBeGreaterThan(3);
    for (const p of ps) {
      expect(p.length).toBeLessThanOrEqual(500);
      expect(p).toMatch(/^Sentence \d+ .*\.$/);
    }
    for (let i = 0; i < 30; i++) expect(ps.some((p) => p.includes(`Sentence ${i} says`))).toBe(true);
    for (let i = 1; i < ps.length; i++) {
      const last = ps[i - 1].split(/(?<=\.)\s+/).pop()!;
      expect(ps[i].startsWith(last)).toBe(true);
    }
  });

  it('repeats no long sentence: the passages of long sentences hold each once', () => {
    const long = Array.from({ length: 24 }, (_, i) => `Sentence ${i} is a long one, ${'with many more words in it '.repeat(4)}and ends here.`).join(' ');
    const ps = splitPassages(long);
    const told = ps.flatMap((p) => [...p.matchAll(/Sentence (\d+) is/g)].map((m) => Number(m[1])));
    expect(told).toEqual(Array.from({ length: 24 }, (_, i) => i));
    expect(ps.join(' ').length).toBe(long.length);
  });

  it('splits on line breaks and cuts a run-on sentence at spaces', () => {
    expect(sentences('A: hi\nB: hello there', 400)).toEqual(['A: hi', 'B: hello there']);
    const runOn = Array(200).fill('word').join(' ');
    const parts = sentences(runOn, 100);
    expect(parts.every((p) => p.length <= 100)).toBe(true);
    expect(parts.join(' ')).toBe(runOn);
  });

  it('stops at maxPassages', () => {
    expect(splitPassages(text, { minChars: 10, targetChars: 80, maxPassages: 3 })).toHaveLength(3);
  });
});

describe('contextText', () => {
  it('puts the clipped predecessors, oldest first, before the memory', () => {
    expect(contextText(['A: did you go?', 'x'.repeat(300)], 'B: yes', 50)).toBe(`A: did you go?\n${'x'.repeat(49)}…\nB: yes`);
  });
});
