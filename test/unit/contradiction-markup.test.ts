// Code and markup in a memory are no statements (markup.ts): what the detector reads of a note
// with code blocks, code lines and headings, and that two snippets sharing code make no conflict;
// two long texts compare only in sentences about one named thing.
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

describe('two long texts', () => {
  // (two libraries' pages, from their READMEs: a phrase shared by chance is no update)
  const autocannon = "### Autocannon events\n\nBecause an autocannon instance is an `EventEmitter`, it emits several events. these are below:\n\n* `start`: Emitted once everything has been setup in your autocannon instance and it has started. Useful for if running the instance forever.\n* `tick`: Emitted every second this autocannon is running a benchmark. Useful for displaying stats, etc. Used by the `track` function. The `tick` event propagates  an object containing the `counter` and `bytes` values, which can be used for extended reports.\n* `done`: Emitted when the autocannon finishes a benchmark. passes the `results` as an argument to the callback.\n* `response`: Emitted when the autocannons http-client gets an HTTP response from the server. This passes the following arguments to the callback:\n    * `client`: The `http-client` itself. Can be used to modify the headers and body the client will send to the server.";
  const client = "### `Client` events\n\nThe events a `Client` can emit are listed here:\n\n* `headers`: Emitted when a request sent from this client has received the headers of its reply. This received an `Object` as the parameter.\n* `body`: Emitted when a request sent from this client has received the body of a reply. This receives a `Buffer` as the parameter.\n* `response`: Emitted when the client has received a completed response for a request it made. This is passed the following arguments:\n    * `statusCode`: The HTTP status code of the response.\n    * `resBytes`: The response byte length.\n    * `responseTime`: The time taken to get a response after initiating the request.\n* `reset`: Emitted when the requests pipeline was reset due to `setupRequest` returning a falsey value.";

  it('compare only in sentences about one named thing', () => {
    expect(autocannon.length).toBeGreaterThan(500);
    expect(client.length).toBeGreaterThan(500);
    const rule = judgePair({ content: client }, { content: autocannon }, { similarity: 0.8 }).verdict;
    expect(judgeLearned(analyzeMemory(client), analyzeMemory(autocannon), { cosine: 0.8, sharedEntities: 0, rule }).verdict).toBe('none');
  });
});
