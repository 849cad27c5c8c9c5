// Pure parts of the document store: indexed text, filters, protected names, fusion.
import { describe, expect, it } from 'vitest';
import {
  FilterConflictError, documentText, filterToContainment, isProtectedCollection,
} from '../../src/core/documents/rules.js';
import { jsonDepth } from '../../src/core/json-limits.js';
import { reciprocalRankFusion, RRF_K } from '../../src/core/documents/fusion.js';

describe('documentText', () => {
  it('takes every string value, nested ones too, in key order', () => {
    const data = { title: 'Router', n: 3, body: { steps: ['unplug', ' wait '], ok: true }, empty: '  ', tail: 'done' };
    expect(documentText(data)).toBe('Router\nunplug\nwait\ndone');
  });

  it('takes only the named fields, in the order named, dotted paths included', () => {
    const data = { name: 'x', summary: 'Deploy safely', origin: { note: 'from ops' }, 'a.b': 'literal' };
    expect(documentText(data, ['origin.note', 'summary'])).toBe('from ops\nDeploy safely');
    expect(documentText(data, ['a.b', 'missing', 'origin'])).toBe('literal\nfrom ops');
  });
});

describe('filterToContainment', () => {
  it('expands dotted keys and merges them with nested objects', () => {
    expect(filterToContainment({ 'owner.team': 'infra', owner: { name: 'ana' }, status: 'open' }))
      .toEqual({ owner: { team: 'infra', name: 'ana' }, status: 'open' });
    expect(filterToContainment({ a: { 'b.c': 1 } })).toEqual({ a: { b: { c: 1 } } });
  });

  it('refuses a key given twice with different shapes', () => {
    expect(() => filterToContainment({ 'a.b': 1, a: 2 })).toThrow(FilterConflictError);
    expect(() => filterToContainment({ a: 2, 'a.b': 1 })).toThrow(FilterConflictError);
  });

  it('keeps arrays and scalars as given', () => {
    expect(filterToContainment({ tags: ['x'], n: null, b: false })).toEqual({ tags: ['x'], n: null, b: false });
  });
});

describe('names and depth', () => {
  it('protects system and feature collections only', () => {
    expect(isProtectedCollection('_settings')).toBe(true);
    expect(isProtectedCollection('skills')).toBe(true);
    expect(isProtectedCollection('ingest-sources')).toBe(true);
    expect(isProtectedCollection('notes')).toBe(false);
    expect(isProtectedCollection('skills2')).toBe(false);
  });

  it('measures nesting depth', () => {
    expect(jsonDepth('x')).toBe(0);
    expect(jsonDepth({})).toBe(1);
    expect(jsonDepth({ a: [{ b: 1 }] })).toBe(3);
  });
});

describe('reciprocalRankFusion', () => {
  it('sums 1/(k+rank) over the lists', () => {
    const out = reciprocalRankFusion([['a', 'b', 'c'], ['c', 'a']]);
    expect(out.map((f) => f.id)).toEqual(['a', 'c', 'b']);
    expect(out[0].score).toBeCloseTo(1 / (RRF_K + 1) + 1 / (RRF_K + 2));
    expect(out[0].ranks).toEqual([1, 2]);
    expect(out[2].ranks).toEqual([2, null]);
  });

  it('puts an id found by both legs above one found by a single leg at the top', () => {
    const out = reciprocalRankFusion([['x', 'both'], ['both']]);
    expect(out[0].id).toBe('both');
  });

  it('breaks ties by best single rank, then by earlier list, then by id', () => {
    expect(reciprocalRankFusion([['a'], ['b']]).map((f) => f.id)).toEqual(['a', 'b']);
    expect(reciprocalRankFusion([['b', 'a'], ['a', 'b']]).map((f) => f.id)).toEqual(['a', 'b']);
  });

  it('counts an id repeated in one list once', () => {
    const [f] = reciprocalRankFusion([['a', 'a']]);
    expect(f.score).toBeCloseTo(1 / (RRF_K + 1));
  });

  it('is empty for empty input', () => {
    expect(reciprocalRankFusion([[], []])).toEqual([]);
  });
});
