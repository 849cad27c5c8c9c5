// Passages of long memories: sentence-aligned, overlapping, bounded; short memories are not split.
import { describe, expect, it } from 'vitest';
import { contextText, dialogueContext, sentenceUnits, sentences, speakerOf, splitPassages, TURN_PREFILTER_SQL } from '../../src/core/passages/split.js';

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

describe('sentenceUnits', () => {
  it('gives each sentence of a memory of several, a line of dialogue keeping its speaker', () => {
    expect(sentenceUnits('Melanie: Wow, Caroline! I just signed up for a pottery class yesterday. It is like therapy for me.'))
      .toEqual(['Melanie: I just signed up for a pottery class yesterday.', 'Melanie: It is like therapy for me.']);
    expect(sentenceUnits('The deploy moved to Fridays. Alice owns the release checklist now.'))
      .toEqual(['The deploy moved to Fridays.', 'Alice owns the release checklist now.']);
  });

  it('gives none for one sentence, and at most max', () => {
    expect(sentenceUnits('Melanie: I just signed up for a pottery class yesterday.')).toEqual([]);
    expect(sentenceUnits('Melanie: Yes! Twice last month, and again on Sunday with the kids.')).toEqual(['Melanie: Twice last month, and again on Sunday with the kids.']);
    const many = Array.from({ length: 12 }, (_, i) => `Sentence number ${i} is long enough.`).join(' ');
    expect(sentenceUnits(many, { minChars: 20, max: 3 })).toHaveLength(3);
  });
});

describe('contextText', () => {
  it('puts the clipped predecessors, oldest first, before the memory', () => {
    expect(contextText(['A: did you go?', 'x'.repeat(300)], 'B: yes', 50)).toBe(`A: did you go?\n${'x'.repeat(49)}…\nB: yes`);
  });
});

describe('speakerOf', () => {
  it('reads a name or a chat role before a colon', () => {
    expect(speakerOf('Caroline: I went camping.')).toBe('caroline');
    expect(speakerOf('Mary Ann Lee: hi')).toBe('mary ann lee');
    expect(speakerOf('user: what time is it?')).toBe('user');
    expect(speakerOf('José : ¿qué tal?')).toBe('josé');
  });
  it('is null for other text', () => {
    for (const t of ['The deploy: Friday', 'Unrelated note 1: printer', 'https://x.y/z', 'Caroline:', 'Caroline said: hi', 'Deploy window: Fridays']) {
      expect(speakerOf(t)).toBeNull();
    }
  });
});

describe('dialogueContext', () => {
  const chat = ['Caroline: Hi Mel!', 'Melanie: Hey, good to see you.', 'Caroline: Been to the gym?'];
  it('keeps the nearest lines of a dialogue whose speakers come back', () => {
    expect(dialogueContext(chat, 'Melanie: Yes, twice.', 2)).toBe(2);
    expect(dialogueContext(chat.slice(1), 'Melanie: Yes, twice.', 2)).toBe(2);
    expect(dialogueContext(chat, 'Melanie: Yes, twice.', 5)).toBe(3);
  });
  it('stops at the first earlier text that is not a line of dialogue', () => {
    expect(dialogueContext(['Caroline: x', 'The printer needs toner.', 'Melanie: y'], 'Caroline: z', 2)).toBe(0);
    expect(dialogueContext(['Melanie: w', 'The printer needs toner.', 'Caroline: x', 'Melanie: y'], 'Caroline: z', 2)).toBe(2);
  });
  it('is empty for notes that only look like dialogue, or a memory that is no line of one', () => {
    expect(dialogueContext(['Owner: Alice', 'Region: eu-west-3'], 'Database: Postgres 16', 2)).toBe(0);
    expect(dialogueContext(chat, 'The printer needs toner.', 2)).toBe(0);
    expect(dialogueContext(['Caroline: Hi Mel!'], 'Melanie: Hey!', 2)).toBe(0);
  });
});

describe('TURN_PREFILTER_SQL', () => {
  it('lets every line of dialogue through (the same expression, read in JavaScript)', () => {
    const re = new RegExp(TURN_PREFILTER_SQL.replace('[[:upper:]]', '\\p{Lu}'), 'u');
    for (const t of ['Caroline: I went camping.', 'Mary Ann Lee: hi', 'user: what time is it?', 'José : ¿qué tal?', 'Owner: Alice']) {
      expect(speakerOf(t)).not.toBeNull();
      expect(re.test(t)).toBe(true);
    }
    expect(re.test('the printer needs toner: floor 2')).toBe(false);
  });
});
