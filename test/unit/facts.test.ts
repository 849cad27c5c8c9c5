// Fact extraction rules (pure): sections, sentences, boilerplate, types, salience, duplicates,
// and the LLM path's reply checking, chunking and fallback (with a fake chat client).
import { describe, expect, it } from 'vitest';
import { countSections, dedupeFacts, docHash, extractFacts, splitSentences, type ExtractedFact } from '../../src/core/ingest/facts.js';
import { chunkText, factsFromReply, findFacts, LLM_MAX_CHARS } from '../../src/core/ingest/llm-facts.js';
import type { LlmClient } from '../../src/providers/llm/types.js';

const contents = (text: string, opts = {}) => extractFacts(text, opts).facts.map((f) => f.content);

describe('splitSentences', () => {
  it('splits at sentence ends but not after abbreviations, initials, decimals or URLs', () => {
    expect(splitSentences('Dr. Smith met J. R. Doe at 3.5 km. They talked about example.com today. Was it fun? Yes!'))
      .toEqual(['Dr. Smith met J. R. Doe at 3.5 km.', 'They talked about example.com today.', 'Was it fun?', 'Yes!']);
    expect(splitSentences('The U.S. team shipped v2.1 e.g. on Monday. Done.')).toEqual(['The U.S. team shipped v2.1 e.g. on Monday.', 'Done.']);
  });
});

describe('extractFacts', () => {
  it('splits sections by headings and joins hard-wrapped lines', () => {
    const text = '# One\n\nThe quarterly report was\nsent to the board on Monday.\n\n# Two\n\nThe new office has a rooftop garden with beehives.\n';
    const r = extractFacts(text);
    expect(r.sections).toBe(2);
    expect(r.facts.map((f) => f.content)).toEqual(['The quarterly report was sent to the board on Monday.', 'The new office has a rooftop garden with beehives.']);
    expect(countSections(text)).toBe(2);
    expect(countSections('First block of text here.\n\nSecond block of text here.')).toBe(2);
  });

  it('joins words hyphenated across lines and keeps short labels apart', () => {
    expect(contents('Summary\nThe migra-\ntion finished two days early.')).toEqual(['The migration finished two days early.']);
  });

  it('drops boilerplate, code and fragments, but keeps statements that merely use the words', () => {
    const text = [
      'Home | Blog | About | Contact',
      'We use cookies to improve your experience.',
      'Sign in to continue.',
      'Subscribe to our newsletter.',
      'Read more about our pricing plans and the enterprise tier',
      'Copyright 2024 Example Corp. All rights reserved.',
      '```', 'const x = 1; // The variable holds a number for the demo.', '```',
      '12 34 56 78 90 12 34 56',
      'Too short.',
      'Visitors must sign in at the front desk before ten.',
      'Grandma baked cookies every Sunday for the church sale.',
    ].join('\n\n');
    expect(contents(text)).toEqual(['Visitors must sign in at the front desk before ten.', 'Grandma baked cookies every Sunday for the church sale.']);
  });

  it('turns table rows into standalone records', () => {
    const text = '| name | role |\n|---|---|\n| Ana Lopez | database lead |\n| Bo Chen | frontend owner |\n';
    expect(contents(text)).toEqual(['name: Ana Lopez; role: database lead', 'name: Bo Chen; role: frontend owner']);
  });

  it('removes near-duplicates, keeping the first wording with the strongest salience', () => {
    const text = 'The Orion cluster moved to Dublin in March 2024.\n\nThe Orion cluster moved to Dublin in March, 2024!\n\nThe orion cluster moved to dublin in march 2024.';
    const r = extractFacts(text);
    expect(r.facts.map((f) => f.content)).toEqual(['The Orion cluster moved to Dublin in March 2024.']);
    const facts: ExtractedFact[] = [
      { content: 'The depot opens at seven every weekday morning.', suggested_type: 'fact', title: 't', source_uri: null, salience: 0.2, section: null },
      { content: 'The depot opens at seven every weekday morning!', suggested_type: 'fact', title: 't', source_uri: null, salience: 0.9, section: null },
      { content: 'Parking is free after six in the evening.', suggested_type: 'fact', title: 't', source_uri: null, salience: 0.5, section: null },
    ];
    expect(dedupeFacts(facts)).toEqual([{ ...facts[0], salience: 0.9 }, facts[2]]);
    expect(dedupeFacts(facts, 1)).toEqual([{ ...facts[0], salience: 0.9 }]);
  });

  it('finds exactly the near-duplicates a brute-force comparison finds', () => {
    // Template sentences (shared common words, varying numbers) with planted rewordings.
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n);
    const words = ['team', 'shipped', 'release', 'after', 'days', 'in', 'week', 'the', 'cluster', 'moved', 'office', 'report'];
    const facts: ExtractedFact[] = [];
    for (let i = 0; i < 400; i++) {
      const base = Array.from({ length: 8 + rand(12) }, () => (rand(3) === 0 ? String(rand(60)) : words[rand(words.length)]));
      facts.push({ content: base.join(' '), suggested_type: 'fact', title: 't', source_uri: null, salience: 0.5, section: null });
      if (rand(4) === 0) {
        const copy = [...base];
        copy[rand(copy.length)] = String(100 + rand(5));
        facts.push({ content: [...copy, rand(2) ? 'again' : ''].join(' ').trim(), suggested_type: 'fact', title: 't', source_uri: null, salience: 0.5, section: null });
      }
    }
    const tokens = (s: string) => new Set(s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
    const jaccard = (a: Set<string>, b: Set<string>) => {
      let inter = 0;
      for (const x of a) if (b.has(x)) inter++;
      return inter / (a.size + b.size - inter);
    };
    const kept: Set<string>[] = [];
    const expected: string[] = [];
    for (const f of facts) {
      const t = tokens(f.content);
      if (kept.some((k) => jaccard(k, t) >= 0.85)) continue;
      kept.push(t);
      expected.push(f.content);
    }
    expect(expected.length).toBeLessThan(facts.length);
    expect(dedupeFacts(facts, 10_000).map((f) => f.content)).toEqual(expected);
  });

  it('drops only exact repeats of table rows, which differ by one cell', () => {
    const cols = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliett', 'kilo', 'lima',
      'mike', 'november', 'oscar', 'papa', 'quebec', 'romeo', 'sierra', 'tango'];
    const row = (last: string) => cols.map((c, i) => `${c}: ${i === 19 ? last : `value ${c}`}`).join('; ');
    const table = `| ${cols.join(' | ')} |\n|${cols.map(() => '---').join('|')}|\n` +
      [row('alpha'), row('beta'), row('alpha')].map((r) => `| ${r.split('; ').map((kv) => kv.split(': ')[1]).join(' | ')} |`).join('\n');
    expect(contents(table)).toEqual([row('alpha'), row('beta')]);
  });

  it('keeps the most salient facts in document order when capped, and favours the focus', () => {
    const text = [
      'The cafeteria serves soup on Mondays.',
      'In March 2024 the Orion cluster moved from Frankfurt to Dublin, cutting latency by 18%.',
      'The hallway carpet is blue.',
    ].join('\n\n');
    expect(contents(text, { maxFacts: 1 })).toEqual(['In March 2024 the Orion cluster moved from Frankfurt to Dublin, cutting latency by 18%.']);
    expect(contents(text, { maxFacts: 1, focus: 'cafeteria soup' })).toEqual(['The cafeteria serves soup on Mondays.']);
    expect(contents(text, { maxFacts: 2 })).toEqual(contents(text).filter((c) => !c.includes('carpet')));
  });

  it('hashes text independently of line ends and spacing', () => {
    expect(docHash('a  b\r\nc')).toBe(docHash('a b\nc'));
    expect(docHash('a b c')).not.toBe(docHash('a b d'));
  });

  it('handles a long unbroken paragraph', () => {
    const text = 'The archive holds one more line of repeated text.\n'.repeat(40_000) + 'The last line is different from all the others.';
    expect(contents(text)).toEqual(['The archive holds one more line of repeated text.', 'The last line is different from all the others.']);
  });
});

describe('LLM fact extraction', () => {
  it('chunks text at paragraph, line or sentence ends', () => {
    const paras = Array.from({ length: 10 }, (_, i) => `Paragraph ${i} ${'x'.repeat(90)}.`);
    const chunks = chunkText(paras.join('\n\n'), 250);
    expect(chunks.every((c) => c.length <= 250)).toBe(true);
    expect(chunks.join('\n\n')).toBe(paras.join('\n\n'));
    expect(chunkText('word '.repeat(100), 64).every((c) => c.length <= 64)).toBe(true);
    expect(chunkText('short text')).toEqual(['short text']);
  });

  it('checks a reply like client input', () => {
    const reply = 'Here you go:\n```json\n{"facts": [' +
      '{"content": "  The depot opens   at seven.  ", "type": "fact", "salience": 0.4},' +
      '{"content": "Ana prefers tea over coffee.", "type": "opinion"},' +
      '{"content": "Too high a salience is clamped.", "type": "fact", "salience": 7},' +
      '{"content": "tiny"}, {"content": 42}, null, "A bare string is a fact too."' +
      ']}\n```';
    const facts = factsFromReply(reply, { sourceUri: 's://1' });
    expect(facts.map((f) => [f.content, f.suggested_type])).toEqual([
      ['The depot opens at seven.', 'fact'],
      ['Ana prefers tea over coffee.', 'preference'],
      ['Too high a salience is clamped.', 'fact'],
      ['A bare string is a fact too.', 'fact'],
    ]);
    expect(facts[0].salience).toBe(0.4);
    expect(facts[2].salience).toBe(1);
    expect(facts.every((f) => f.source_uri === 's://1' && f.salience >= 0 && f.salience <= 1)).toBe(true);
    expect(() => factsFromReply('no json here', {})).toThrow();
    expect(() => factsFromReply('{"items": []}', {})).toThrow();
  });

  // A fake chat client: answers from a function the test gives.
  const fakeLlm = (answer: (user: string) => Promise<string> | string) => {
    const calls: string[] = [];
    const llm: LlmClient = {
      modelId: 'fake:extractor',
      async complete(messages) {
        const user = messages.find((m) => m.role === 'user')!.content;
        calls.push(user);
        return answer(user);
      },
    };
    return { llm, calls };
  };

  it('uses the model, and the rules when it fails or the text is past its budget', async () => {
    const text = 'The Lisbon office opens at eight thirty on weekdays.';
    const ok = fakeLlm(() => '{"facts": [{"content": "Lisbon office hours start at 8:30.", "type": "fact", "salience": 0.8}]}');
    const viaLlm = await findFacts(text, {}, ok.llm);
    expect(viaLlm).toMatchObject({ extractor: 'llm', sections: 1, facts: [{ content: 'Lisbon office hours start at 8:30.' }] });

    const errors: unknown[] = [];
    const broken = fakeLlm(() => {
      throw new Error('endpoint down');
    });
    const fallback = await findFacts(text, {}, broken.llm, (e) => errors.push(e));
    expect(fallback).toMatchObject({ extractor: 'rules', facts: [{ content: text }] });
    expect(errors).toHaveLength(1);

    const long = fakeLlm(() => '{"facts": ["never asked"]}');
    const past = await findFacts(`${text}\n\n`.repeat(Math.ceil(LLM_MAX_CHARS / text.length) + 1), {}, long.llm);
    expect(past.extractor).toBe('rules');
    expect(long.calls).toEqual([]);

    expect((await findFacts(text, {}, null)).extractor).toBe('rules');
  });
});
