// The benchmarks' reference BM25: rare words outweigh common ones, longer documents are
// normalised, term frequency saturates.
import { describe, expect, it } from 'vitest';
import { Bm25Index } from '../../bench/bm25.js';

const bag = (words: string) => {
  const m = new Map<string, number>();
  for (const w of words.split(/\s+/).filter(Boolean)) m.set(w, (m.get(w) ?? 0) + 1);
  return m;
};

describe('Bm25Index', () => {
  it('ranks a document holding a rare query word above one holding a common one', () => {
    const ix = new Bm25Index();
    ix.add('common', bag('cat sat mat'));
    ix.add('rare', bag('zebra sat mat'));
    for (let i = 0; i < 8; i++) ix.add(`filler${i}`, bag(`cat filler${i} word`));
    expect(ix.search(['cat', 'zebra'], 2)).toEqual(['rare', 'common']);
  });

  it('normalises by length: the same match in a shorter document ranks first', () => {
    const ix = new Bm25Index();
    ix.add('long', bag('alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu violin'));
    ix.add('short', bag('violin lesson'));
    ix.add('other', bag('piano lesson'));
    expect(ix.search(['violin'], 5)).toEqual(['short', 'long']);
  });

  it('saturates term frequency: ten repeats do not score ten times one', () => {
    const ix = new Bm25Index();
    ix.add('once', bag('violin x'));
    ix.add('tenfold', bag(Array(10).fill('violin').join(' ') + ' x'));
    ix.add('none', bag('piano x'));
    const idf = ix.idf('violin');
    expect(idf).toBeGreaterThan(0);
    expect(ix.search(['violin'], 5)).toEqual(['tenfold', 'once']);
  });

  it('finds nothing for words no document holds', () => {
    const ix = new Bm25Index();
    ix.add('a', bag('one two'));
    expect(ix.search(['three'], 5)).toEqual([]);
  });
});
