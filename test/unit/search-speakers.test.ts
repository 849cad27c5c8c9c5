import { describe, expect, it } from 'vitest';
import { boostSpeakers, lineSpeakers, namedSpeakers } from '../../src/core/search/speakers.js';

const speakers = lineSpeakers(new Map([
  ['a', "Caroline: Wow, Melanie, that's a great pic!"],
  ['b', 'Melanie: I just signed up for a pottery class yesterday.'],
  ['c', 'Owner: Dana'],
  ['d', 'user: my laptop is a ThinkPad'],
  ['e', 'Plain note without a speaker'],
]));

describe('speakers named by a query', () => {
  it('reads the speaker of each line of dialogue, never a chat role', () => {
    expect(speakers.get('a')).toBe('caroline');
    expect(speakers.get('b')).toBe('melanie');
    expect(speakers.has('d')).toBe(false);
    expect(speakers.has('e')).toBe(false);
  });

  it('finds the speakers the query names as whole words', () => {
    expect([...namedSpeakers('What activities does Melanie partake in?', speakers)]).toEqual(['melanie']);
    expect([...namedSpeakers("What is Melanie's favourite class?", speakers)]).toEqual(['melanie']);
    expect([...namedSpeakers('What did Mel say?', speakers)]).toEqual([]);
    expect([...namedSpeakers('What laptop does the user have?', speakers)]).toEqual([]);
    expect(namedSpeakers('What did Caroline and Melanie do together?', speakers)).toEqual(new Set(['caroline', 'melanie']));
  });

  it("puts the named speaker's lines first, keeping the order otherwise", () => {
    const fused = [{ id: 'a', score: 1 }, { id: 'e', score: 0.9 }, { id: 'b', score: 0.8 }, { id: 'c', score: 0.7 }];
    expect(boostSpeakers(fused, speakers, new Set(['melanie']), 0.3).map((f) => f.id)).toEqual(['b', 'a', 'e', 'c']);
    expect(boostSpeakers(fused, speakers, new Set(), 0.3).map((f) => f.id)).toEqual(['a', 'e', 'b', 'c']);
    expect(boostSpeakers(fused, speakers, new Set(['melanie']), 0).map((f) => f.id)).toEqual(['a', 'e', 'b', 'c']);
  });
});
