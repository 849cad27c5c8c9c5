import { describe, expect, it } from 'vitest';
import { modelWindow, windowTokens } from '../../src/providers/embedder/token-window.js';

/** A stand-in tokenizer for the pure rule: one token per word, two for a word over 6 letters. */
const encode = (s: string) => s.split(' ').filter(Boolean).flatMap((w) => (w.length > 6 ? [1, 2] : [1]));
const words = (n: number) => Array.from({ length: n }, (_, i) => (i % 3 ? 'word' : 'longerword')).join(' ');

describe('modelWindow', () => {
  it('keeps a text the model reads whole', () => {
    const t = words(100);
    expect(modelWindow(t, encode)).toBe(t);
    expect(modelWindow('', encode)).toBe('');
  });

  it('cuts a long text between words, keeping more than the tokens the model reads', () => {
    const t = words(2000);
    const w = modelWindow(t, encode);
    expect(w.length).toBeLessThan(t.length / 5);
    expect(t.startsWith(w)).toBe(true);
    expect(t[w.length]).toBe(' ');
    expect(encode(w).length).toBeGreaterThan(128);
    // The tokens it keeps are the whole text's first tokens.
    expect(encode(w)).toEqual(encode(t).slice(0, encode(w).length));
  });

  it('grows the prefix until it holds enough tokens, or gives the whole text', () => {
    const sparse = Array.from({ length: 300 }, () => 'abcdefghijklmnopqrstuvwxyz').join(' '); // 2 tokens per 27 chars
    const w = modelWindow(sparse, encode, 200);
    expect(encode(w).length).toBeGreaterThan(200);
    expect(w.length).toBeLessThan(sparse.length);
    expect(modelWindow(sparse, encode, 10_000)).toBe(sparse);
    const noSpace = 'x'.repeat(5_000);
    expect(modelWindow(noSpace, encode)).toBe(noSpace);
  });
});

describe('windowTokens', () => {
  it("gives the window's tokens, encoding the long text's prefix once", () => {
    let calls = 0;
    const counted = (s: string) => { calls++; return encode(s); };
    const long = words(2000);
    const ids = windowTokens(long, counted);
    expect(ids).toEqual(encode(modelWindow(long, encode)));
    const windowCalls = calls;
    calls = 0;
    modelWindow(long, counted);
    // No encoding beyond what finding the window took.
    expect(windowCalls).toBe(calls);
    const short = words(50);
    expect(windowTokens(short, encode)).toEqual(encode(short));
  });
});
