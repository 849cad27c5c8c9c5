import { describe, expect, it } from 'vitest';
import { memoryVectors, windowHalves } from '../../src/core/memories/vectors.js';

const sentence = (i: number) => `Sentence number ${i} talks about the garden and the weather today.`;

describe('windowHalves', () => {
  it('leaves a text within the window, or any text of a model that reads it whole, alone', () => {
    expect(windowHalves('x'.repeat(500), 500)).toBeNull();
    expect(windowHalves('word '.repeat(400), undefined)).toBeNull();
  });

  it("cuts a longer text's window near its middle, at a line end before a sentence end", () => {
    const lines = Array.from({ length: 20 }, (_, i) => sentence(i)).join('\n');
    const [a, b] = windowHalves(lines, 500)!;
    expect(a.length + b.length).toBeGreaterThan(480);
    expect(Math.abs(a.length - b.length)).toBeLessThan(120);
    expect(a.endsWith('today.')).toBe(true);
    expect(`${a}\n${b}`).toBe(lines.slice(0, 500).trim());
  });

  it('cuts at a sentence end when the window has no line break, else at a space', () => {
    const prose = Array.from({ length: 20 }, (_, i) => sentence(i)).join(' ');
    expect(windowHalves(prose, 500)![0]).toMatch(/today\.$/);
    const words = 'lorem ipsum '.repeat(100);
    const [a, b] = windowHalves(words, 500)!;
    expect(a).toMatch(/^lorem/);
    expect(`${a} ${b}`).toBe(words.slice(0, 500).trim());
  });
});

describe('memoryVectors', () => {
  // A fake embedder (tests only): a text's vector counts its letters a and b.
  const calls: string[][] = [];
  const fake = {
    windowChars: 500,
    async embed(texts: string[]) {
      calls.push(texts);
      return texts.map((t) => Float32Array.from([[...t].filter((c) => c === 'a').length, [...t].filter((c) => c === 'b').length]));
    },
  };

  it("embeds short texts as they are and a long one as its window's halves, in one call, their mean normalised", async () => {
    calls.length = 0;
    const long = `${'a '.repeat(125)}\n${'b '.repeat(500)}`;
    const out = await memoryVectors(fake, ['aab', long, 'b']);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toHaveLength(4);
    expect(Array.from(out[0])).toEqual([2, 1]);
    expect(Array.from(out[2])).toEqual([0, 1]);
    // Halves: the 125 a's, then the window's 125 b's (of 500): (125, 125) normalised.
    expect(calls[0].slice(1, 3).map((t) => t.length)).toEqual([249, 249]);
    const [x, y] = out[1];
    expect(x).toBeCloseTo(Math.SQRT1_2, 6);
    expect(y).toBeCloseTo(Math.SQRT1_2, 6);
  });
});
