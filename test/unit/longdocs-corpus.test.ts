// The long-document benchmark's corpus builder: packages' markdown cut at headings into 2–5k-character
// memories, without release notes, code-only stretches or copies of a nested package version.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DOC_MIN_CHARS, docMemories } from '../../bench/longdocs-corpus.js';

const root = mkdtempSync(join(tmpdir(), 'loci-longdocs-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A section of prose whose words depend on `seed`, so sections of different seeds share no 8-word run. */
const prose = (seed: string, chars: number) => {
  const words: string[] = [];
  for (let i = 0; words.join(' ').length < chars; i++) words.push(`${seed}${i}`);
  return words.join(' ') + '.';
};
const put = (path: string, text: string) => {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), text);
};

describe('docMemories', () => {
  put('alpha/README.md', ['# Alpha', prose('a', 1500), '## Usage', prose('b', 1500), '## Options', prose('c', 3000), '## Notes', prose('d', 400)].join('\n\n'));
  put('alpha/CHANGELOG.md', `# Changes\n\n${prose('e', 4000)}`);
  put('beta/README.md', `# Beta\n\n\`\`\`js\n${'const x = 1;\n'.repeat(400)}\`\`\`\n\n${prose('f', 300)}`);
  // Another version of alpha nested in beta: the same pages, a copy.
  put('beta/node_modules/alpha/README.md', ['# Alpha', prose('a', 1500), '## Usage', prose('b', 1500), 'one more line'].join('\n\n'));

  it('packs sections into 2–5k-character memories, keyed by file and order', () => {
    const m = docMemories(root);
    expect(m.map((x) => x.key)).toEqual(['alpha/README.md#0', 'alpha/README.md#1']);
    expect(m.every((x) => x.pkg === 'alpha' && x.content.length >= DOC_MIN_CHARS)).toBe(true);
    // The first two sections make one memory; the last short one joins the memory before it.
    expect(m[0].content.startsWith('# Alpha')).toBe(true);
    expect(m[0].content).toContain('## Usage');
    expect(m[1].content.startsWith('## Options')).toBe(true);
    expect(m[1].content).toContain('## Notes');
  });
});
