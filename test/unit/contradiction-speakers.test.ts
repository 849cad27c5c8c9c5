// How chat lines are read: speaker labels, and openers before a first-person subject.
import { describe, expect, it } from 'vitest';
import { asSaid, holdsManyFacts, isTranscript, speakerLabel, speakerLines, withoutOpener } from '../../src/core/contradictions/speakers.js';
import { extractTriples } from '../../src/core/contradictions/triples.js';

describe('speakerLabel', () => {
  it('reads a chat line as its speaker and what was said', () => {
    expect(speakerLabel('Melanie: Wow, Caroline! What kinda jobs are you thinking of?')).toEqual({ speaker: 'melanie', text: 'Wow, Caroline! What kinda jobs are you thinking of?' });
    expect(speakerLabel('user: I moved to Paris last week, any tips?')).toEqual({ speaker: 'user', text: 'I moved to Paris last week, any tips?' });
    expect(speakerLabel('Ana Lima: Sounds good. See you at the climbing gym tomorrow')).toEqual({ speaker: 'ana lima', text: 'Sounds good. See you at the climbing gym tomorrow' });
  });

  it('leaves notes and lead-ins alone', () => {
    for (const line of ['Owner: Dana', 'deploy owner: dana', 'Deploy target: us-east-1', 'Region: us-east-1', 'Q3 budget: $1.2M', 'Update: we moved to GCP!', 'Alice: lives in Berlin']) {
      expect(speakerLabel(line), line).toBeNull();
    }
  });
});

describe('speakerLines', () => {
  it('in a dialogue, reads every line opening with a known speaker as theirs, however short', () => {
    const text = 'Maria: I got a puppy, look!\nJohn: Wow, you did? Nice!\nMaria: Yeah, it is great.\nOwner: Dana';
    expect(speakerLines(text).map((l) => l.speaker)).toEqual(['maria', 'john', 'maria', null]);
    // One speaker is no dialogue: a short line stays a note.
    expect(speakerLines('Maria: I got a puppy, look!\nMaria: Yeah, it is great.').map((l) => l.speaker)).toEqual(['maria', null]);
  });

  it('tells a transcript (two speakers) from a note', () => {
    expect(isTranscript('Maria: I got a puppy, look!\nJohn: Wow, you did? Nice!')).toBe(true);
    expect(isTranscript('Maria: I got a puppy, look! His name is Max.')).toBe(false);
    expect(isTranscript('Owner: Dana\nRegion: us-east-1')).toBe(false);
  });

  it('a transcript or a text longer than a passage holds many facts; a short note does not', () => {
    expect(holdsManyFacts('Maria: I got a puppy, look!\nJohn: Wow, you did? Nice!')).toBe(true);
    expect(holdsManyFacts('Alice lives in Berlin. '.repeat(25))).toBe(true);
    expect(holdsManyFacts('Alice lives in Berlin. She works at Acme.')).toBe(false);
  });
});

describe('withoutOpener', () => {
  it('drops a short opener before a first-person subject', () => {
    expect(withoutOpener('Big news, I moved to York last month!')).toBe('I moved to York last month!');
    expect(withoutOpener('Honestly, we never used it')).toBe('we never used it');
    // (a name addressed is not the subject either)
    expect(withoutOpener('Alice, we need you on call')).toBe('we need you on call');
  });

  it('keeps one that says where or when, and anything else', () => {
    for (const s of ['At Google, I lead the infra team', 'Last month, I moved to York', 'On Monday, we ship', 'In Lisbon, my rent doubled', 'I moved, finally']) {
      expect(withoutOpener(s), s).toBe(s);
    }
  });
});

describe('asSaid', () => {
  it('reads what someone said of themselves or their own as theirs', () => {
    expect(asSaid("User mentioned they're learning guitar.")).toBe('User are learning guitar.');
    expect(asSaid('The user said that she works nights.')).toBe('The user works nights.');
    expect(asSaid('Nadia mentioned her mother lives in Casablanca.')).toBe("Nadia's mother lives in Casablanca.");
    expect(asSaid('User stated they have no drug allergies.')).toBe('User have no drug allergies.');
    expect(asSaid("User said the kids' bedtime is 7:30.")).toBe("the kids' bedtime is 7:30.");
    // (someone else's words about a third party stay as they are)
    expect(asSaid('Tom said Anna moved to Leeds.')).toBe('Tom said Anna moved to Leeds.');
  });
});

describe('triples of chat lines', () => {
  it("a speaker's I is the speaker", () => {
    expect(extractTriples('Nadia: I moved to York last month!').map((t) => t.subject)).toEqual(['nadia']);
    expect(extractTriples('I moved to York last month.').map((t) => t.subject)).toEqual(['i']);
  });
});
