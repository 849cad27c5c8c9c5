import { describe, expect, it } from 'vitest';
import { storeParts, type Unit } from '../../src/core/passages/indexer.js';

const units = (memoryId: string, n: number): Unit[] =>
  Array.from({ length: n }, (_, ord) => ({ memoryId, tenantId: 't', ord, kind: 'passage', content: `${memoryId}-${ord}` }));

describe('storeParts', () => {
  it('stores consecutive memories together up to the limit, each memory cleared by the part that begins it', () => {
    const parts = storeParts([['a', units('a', 2)], ['b', units('b', 3)], ['c', units('c', 4)], ['d', []]], 5);
    expect(parts.map((p) => ({ clear: p.clear, n: p.units.length }))).toEqual([
      { clear: ['a', 'b'], n: 5 },
      { clear: ['c', 'd'], n: 4 },
    ]);
  });

  it('splits a memory with more units than the limit over parts in a row, only the first clearing it', () => {
    const parts = storeParts([['a', units('a', 2)], ['long', units('long', 11)], ['b', units('b', 1)]], 5);
    expect(parts.map((p) => ({ clear: p.clear, units: p.units.map((u) => u.content) }))).toEqual([
      { clear: ['a'], units: ['a-0', 'a-1'] },
      { clear: ['long'], units: ['long-0', 'long-1', 'long-2', 'long-3', 'long-4'] },
      { clear: [], units: ['long-5', 'long-6', 'long-7', 'long-8', 'long-9'] },
      { clear: [], units: ['long-10'] },
      { clear: ['b'], units: ['b-0'] },
    ]);
  });

  it('still clears memories that have no units any more', () => {
    expect(storeParts([['x', []]], 5)).toEqual([{ clear: ['x'], units: [] }]);
  });
});
