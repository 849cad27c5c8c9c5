// Code and markup in a memory are no statements (markup.ts): what the detector reads of a note
// with code blocks, code lines and headings, and that two snippets sharing code make no conflict.
import { describe, expect, it } from 'vitest';
import { proseLines } from '../../src/core/contradictions/markup.js';
import { analyzeMemory, judgeLearned } from '../../src/core/contradictions/classifier.js';
import { judgePair } from '../../src/core/contradictions/detect.js';

describe('proseLines', () => {
  it('leaves out code blocks, code lines and headings inside a text', () => {
    const text = [
      '## Routing notes',
      'Register routes before the server starts.',
      '```js',
      "fastify.get('/', async (request, reply) => {",
      "  return { hello: 'world' }",
      '})',
      '```',
      'const graph = new Graph();',
      "import { density } from 'graphology-metrics';",
      '// the handler runs per request',
      'reply.send(payload)',
      "  type: 'object',",
      '### Options',
      '> The default timeout is 30 seconds.',
      'See [the reference](https://example.com/ref) for more.',
    ].join('\n');
    expect(proseLines(text)).toEqual([
      'Routing notes',
      'Register routes before the server starts.',
      'The default timeout is 30 seconds.',
      'See the reference for more.',
    ]);
  });

  it('keeps what notes write with code-like marks: arrows of a change, items ending in ";", table rows', () => {
    for (const line of [
      'llvm-toolchain-15: Update of the build dep llvm-spirv => llvm-spirv-14',
      'Standards-Version => 3.9.8',
      '- Define MAXHOSTNAMELEN on GNU/Hurd (thanks, Svante Signell;',
      'new job; the job makes hiking harder',
      'function-bind: Make sure functions are invoked correctly (also passing coverage tests)',
      '| timeout | 30s |',
      'Owner: Dana',
    ]) expect(proseLines(line), line).toEqual([line.trim()]);
  });
});

describe('the judge on memories with code', () => {
  const judge = (older: string, newer: string, cosine: number) => {
    const rule = judgePair({ content: newer }, { content: older }, { similarity: cosine }).verdict;
    return judgeLearned(analyzeMemory(newer), analyzeMemory(older), { cosine, sharedEntities: 0, rule }).verdict;
  };

  it('two snippets sharing code lines are no update', () => {
    // (USE-Lite cosines of the pairs)
    expect(judge("Handler signature in our router:\nfunction handler (req, res, params) {\n  res.end('hello')\n}",
      "Handlers can be arrows too:\nconst handler = (req, res, params) => {\n  res.end('ok')\n}", 0.72)).toBe('none');
    expect(judge("Registering a route:\nfastify.get('/', options, async function (request, reply) {\n  return { hello: 'world' }\n})",
      "Typed routes:\nserver.get('/', async (request, reply) => {\n  return 'pong'\n})", 0.89)).toBe('none');
  });

  it('a change stated beside code is still found', () => {
    expect(judge('Deploy notes\n```\nnpm run build\n```\nThe API is hosted on Heroku.',
      'Deploy notes\n```\nnpm run build\n```\nWe moved the API from Heroku to Fly.io.', 0.95)).toBe('rdf_conflict');
    expect(judge('## Billing\nThe Pro plan costs $20 per month.', '## Billing\nThe Pro plan now costs $25 per month.', 0.97)).toBe('rdf_conflict');
  });
});
