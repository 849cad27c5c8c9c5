import { describe, expect, it } from 'vitest';
import { boostSpeakers, namedSpeakers } from '../../src/core/search/speakers.js';

const heads = new Map([
  ['a', "Caroline: Wow, Melanie, that's a great pic!"],
  ['b', 'Melanie: I just signed up for a pottery class yesterday.'],
  ['c', 'Owner: Dana'],
  ['d', 'user: my laptop is a ThinkPad'],
  ['e', 'Plain note without a speaker'],
]);

describe('speakers named by a query', () => {
  it('finds the speakers of dialogue lines the query names as whole words', () => {
    expect([...namedSpeakers('What activities does Melanie partake in?', heads)]).toEqual(['melanie']);
    expect([...namedSpeakers("What is Melanie's favourite class?", heads)]).toEqual(['melanie']);
    expect([...namedSpeakers('What did Mel say?', heads)]).toEqual([]);
    expect(namedSpeakers('What did Caroline and Melanie do together?', heads)).toEqual(new Set(['caroline', 'melanie']));
  });

  it('never takes a chat role for a person', () => {
    expect([...namedSpeakers('What laptop does the user have?', heads)]).toEqual([]);
  });

  it("puts the named speaker's lines first, keeping the order otherwise", () => {
    const fused = [{ id: 'a', score: 1 }, { id: 'e', score: 0.9 }, { id: 'b', score: 0.8 }, { id: 'c', score: 0.7 }];
    expect(boostSpeakers(fused, heads, new Set(['melanie']), 0.3).map((f) => f.id)).toEqual(['b', 'a', 'e', 'c']);
    expect(boostSpeakers(fused, heads, new Set(), 0.3).map((f) => f.id)).toEqual(['a', 'e', 'b', 'c']);
    expect(boostSpeakers(fused, heads, new Set(['melanie']), 0).map((f) => f.id)).toEqual(['a', 'e', 'b', 'c']);
  });
});
