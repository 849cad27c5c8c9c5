// Pure pieces of enrichment and of ingest's text handling: type cues, titles, tags, the model
// reply check, the marks an edit leaves, markup removal, boilerplate reasons, subjects.
import { describe, expect, it } from 'vitest';
import { classifyType } from '../../src/core/enrich/classify.js';
import { deriveTitle } from '../../src/core/enrich/title.js';
import { deriveTags, normaliseTags } from '../../src/core/enrich/tags.js';
import { parseEnrichment } from '../../src/core/enrich/llm.js';
import { editedMarks, indexedTitle } from '../../src/core/enrich/types.js';
import { Enricher } from '../../src/core/enrich/enricher.js';
import { cleanInline, htmlToText, isImageOnly } from '../../src/core/ingest/markup.js';
import { furniture, sentenceReason } from '../../src/core/ingest/boilerplate.js';
import { definedSubject, resolveSubject } from '../../src/core/ingest/subject.js';
import type { LlmClient } from '../../src/providers/llm/types.js';

const type = (s: string, changelog = false) => classifyType(s, { changelog }).type;

describe('classifyType', () => {
  it('reads the cues of each type', () => {
    expect(type('The team decided to move the launch to May.')).toBe('decision');
    expect(type('Ana prefers tea over coffee.')).toBe('preference');
    expect(type('The report must be filed by Friday.')).toBe('task');
    expect(type('We plan to open a second office next year.')).toBe('plan');
    expect(type('The offsite was cancelled because of the storm.')).toBe('cancellation');
    expect(type("I'll send you the slides after the call.")).toBe('commitment');
    expect(type('Ana wants to learn Portuguese.')).toBe('intention');
    expect(type('Yesterday I went to a support group in Boston.')).toBe('episode');
    expect(type('Merged the pull request that adds rate limiting (#231).')).toBe('action');
    expect(type('Water boils at one hundred degrees at sea level.')).toBe('fact');
  });

  it('tells a to-do from a changelog entry by its marks or its context', () => {
    expect(type('Fix the login bug')).toBe('task');
    expect(type('Fix crash when the config file is empty (#812)')).toBe('action');
    expect(type('Fix the login bug', true)).toBe('action');
    expect(type('[Fix] parse: decode dots case-insensitively')).toBe('action');
  });

  it('does not take a noun, a preposition or a condition for a preference', () => {
    expect(type('Small acts like that can really make a difference.')).toBe('fact');
    expect(type('If you prefer to submit without logging in, send email to the team.')).not.toBe('preference');
    expect(type('Additional information can be found at the website.')).toBe('fact');
  });
});

describe('deriveTitle', () => {
  it('keeps a short first sentence, without chatter or final punctuation', () => {
    expect(deriveTitle('Yeah, I painted that lake sunrise last year! It was great.')).toBe('I painted that lake sunrise last year');
    expect(deriveTitle('note: the VPN config moved to the wiki.')).toBe('The VPN config moved to the wiki');
  });

  it('cuts a long sentence at a clause, or at a word with an ellipsis, within 80 characters', () => {
    const t = deriveTitle('Microsoft takes the security of its software products and services seriously, which includes all source code repositories.')!;
    expect(t).toBe('Microsoft takes the security of its software products and services seriously');
    const long = deriveTitle(`${'word '.repeat(40)}end.`)!;
    expect(long.length).toBeLessThanOrEqual(80);
    expect(long.endsWith('…')).toBe(true);
    expect(deriveTitle('If you are running it in a container (Docker, GCP, etc.), you may need to bind to 0.0.0.0 instead of localhost.'))
      .toBe('You may need to bind to 0.0.0.0 instead of localhost');
    expect(deriveTitle('!!! ...')).toBeNull();
  });
});

describe('tags', () => {
  it('come from entity names first, then noun phrases, normalised', () => {
    const tags = deriveTags('We moved the billing service to the Frankfurt region.', {
      entities: [{ name: 'Frankfurt', normalized: 'frankfurt', type: 'place' }], relations: [],
    });
    expect(tags[0]).toBe('frankfurt');
    expect(tags).toContain('billing-service');
    expect(tags.length).toBeLessThanOrEqual(5);
  });

  it('normalise like Caura: lowercase, kebab-case, deduplicated, at most five', () => {
    expect(normaliseTags(['Code Review', 'code_review', ' Deploy ', 42, '', 'a', 'b', 'c', 'd'])).toEqual(['code-review', 'deploy', 'a', 'b', 'c']);
    expect(normaliseTags('not a list')).toEqual([]);
  });
});

describe('the model reply', () => {
  it('is checked like client input', () => {
    expect(parseEnrichment('{"memory_type": "Decision", "title": "Move to May.", "tags": ["Launch Plan"]}'))
      .toEqual({ memory_type: 'decision', title: 'Move to May', tags: ['launch-plan'] });
    expect(parseEnrichment('{"memory_type": "rule", "title": ""}')).toEqual({});
    expect(parseEnrichment(`{"title": "${'x'.repeat(100)}"}`).title!.length).toBeLessThanOrEqual(80);
    expect(() => parseEnrichment('no json')).toThrow();
    expect(() => parseEnrichment('[1, 2]')).toThrow();
  });

  it('is waited for at most the timeout, also when requests queue', async () => {
    let calls = 0;
    const slow: LlmClient = {
      modelId: 'fake:slow',
      async complete() {
        calls++;
        await new Promise((r) => setTimeout(r, 500));
        return '{"memory_type": "plan", "title": "Late"}';
      },
    };
    const e = new Enricher({ mode: 'auto', llm: slow, llmTimeoutMs: 100, llmConcurrency: 1 });
    const started = Date.now();
    const out = await Promise.all([1, 2, 3].map((i) => e.begin({ content: `Ana prefers tea number ${i}.` }).finish()));
    expect(Date.now() - started).toBeLessThan(400);
    expect(out.map((o) => o.memory_type)).toEqual(['preference', 'preference', 'preference']);
    expect(calls).toBe(1);
  });
});

describe('marks after an edit', () => {
  const meta = { enriched_by: 'rules', enriched_fields: ['memory_type', 'title', 'tags'], tags: ['x'] };
  it('drop the fields the edit sets, and infer the rest again when the content changes', () => {
    expect(editedMarks(meta, { title: 'Mine' }, undefined, false)).toEqual({
      still: ['memory_type', 'tags'], changed: true, drop: [], keep: { enriched_by: 'rules', enriched_fields: ['memory_type', 'tags'] },
    });
    expect(editedMarks(meta, {}, undefined, true)).toMatchObject({ still: ['memory_type', 'title', 'tags'], drop: ['enriched_by', 'enriched_fields', 'tags'] });
    expect(editedMarks(meta, { metadata: { a: 1 } }, 'replace', false)).toMatchObject({ still: ['memory_type', 'title'], changed: false });
    expect(editedMarks({}, { title: 'x' }, undefined, true)).toMatchObject({ still: [], changed: false });
  });

  it('leave an inferred title out of the indexed text', () => {
    expect(indexedTitle('Derived', meta)).toBeNull();
    expect(indexedTitle('Mine', { enriched_fields: ['memory_type'] })).toBe('Mine');
    expect(indexedTitle('Mine', JSON.stringify(meta))).toBeNull();
  });
});

describe('markup', () => {
  it('turns HTML into markdown-like text with entities decoded, outside code', () => {
    const html = '<p align="center"><img src="logo.svg" alt="Logo"/></p>\n<div>Fast &mdash; and small &middot; really</div>\n<!-- hidden -->\n' +
      '> [!NOTE]\n> Quoted &amp; kept.\n\n[ref]: https://example.com\n\n```\n<b>&amp;</b>\n```';
    const out = htmlToText(html);
    expect(out).toContain('![Logo](logo.svg)');
    expect(out).toContain('Fast — and small · really');
    expect(out).toContain('Quoted & kept.');
    expect(out).not.toMatch(/hidden|\[!NOTE\]|\[ref\]:/);
    expect(out).toContain('<b>&amp;</b>');
  });

  it('leaves plain text of inline markdown', () => {
    expect(cleanInline('**Fast** and _small_, see [the docs](https://x.y/z) and `npm i` ![badge](b.svg)')).toBe('Fast and small, see the docs and npm i');
    expect(cleanInline('-- Jane Doe <jane@example.org>  Mon, 1 Jan 2024')).toContain('<jane@example.org>');
  });

  it('knows badges, navigation, tables of contents and link lists', () => {
    expect(isImageOnly('[![CI](https://x/badge.svg)](https://x) [![npm](https://y.svg)](https://y)')).toBe(true);
    expect(furniture('[Docs](https://a) • [Discord](https://b) • [Blog](https://c)', { item: false, tocSection: false })).toBe('navigation');
    expect(furniture('[Quick start](#quick-start)', { item: true, tocSection: false })).toBe('toc');
    expect(furniture('Install', { item: true, tocSection: true })).toBe('toc');
    expect(furniture('[match docs](https://docs.example/match)', { item: false, tocSection: false })).toBe('link_list');
    expect(furniture('Home | Pricing | Blog | Contact', { item: false, tocSection: false })).toBe('navigation');
    expect(furniture('Read the [guide](https://x) before you start the migration of the cluster.', { item: false, tocSection: false })).toBeNull();
  });

  it('gives the reason a sentence is no fact', () => {
    expect(sentenceReason('We use cookies to improve your experience.')).toBe('cookie');
    expect(sentenceReason('Copyright 2024 Example Corp. All rights reserved.')).toBe('legal');
    expect(sentenceReason('To install it as a dependency:')).toBe('lead_in');
    expect(sentenceReason('Do you want to know more?')).toBe('question');
    expect(sentenceReason('See the documentation for more information.')).toBe('navigation');
    expect(sentenceReason('-- Jane Doe <jane@example.org>  Mon, 01 Jan 2024 10:00:00 +0000')).toBe('byline');
    expect(sentenceReason('Zero external dependencies')).toBe('fragment');
    expect(sentenceReason('Zero external dependencies', { unterminatedWords: 3 })).toBeNull();
    expect(sentenceReason('The billing service runs on three nodes.')).toBeNull();
  });
});

describe('subjects', () => {
  it('rewrite an opening "It" to the subject where that reads right', () => {
    expect(resolveSubject('It is inspired by Hapi and Express.', 'Fastify')).toBe('Fastify is inspired by Hapi and Express.');
    expect(resolveSubject("It's fast and small.", 'Zod')).toBe('Zod is fast and small.');
    expect(resolveSubject('This library supports streams.', 'Pino')).toBe('Pino supports streams.');
    expect(resolveSubject('It is important to pin versions.', 'Zod')).toBe('It is important to pin versions.');
    expect(resolveSubject('It seems to work.', 'Zod')).toBe('It seems to work.');
    expect(resolveSubject('It is fast.', null)).toBe('It is fast.');
  });

  it('come from a defining sentence', () => {
    expect(definedSubject('Fastify is a web framework highly focused on speed.')).toBe('Fastify');
    expect(definedSubject('This is a test of the system.')).toBeNull();
  });
});
