// Ingest of real public documents (test/fixtures/docs, licences in NOTICE.md there) in each
// format, over HTTP: a README, a changelog, a policy page (HTML and markdown), a slide deck, a
// spreadsheet and a Word document. Checked: no markup or character entity survives into a fact
// or its title, no boilerplate becomes a fact, every fact has a type and a title, the facts a
// reader would list are there, explain=true says why the rest was dropped, and committing the
// preview writes typed, titled memories with their section that a second preview then skips.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { commitPreview, upload, type Upload } from '../helpers/ingest.js';
import { codeOfConductDocx, debianReleasesSheet, pinoSecurityDeck, readDoc } from '../fixtures/real-docs.js';
import { INFERRED_TYPES } from '../../src/core/enrich/types.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

const MIME = {
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

/** Markup a fact must not carry: entities, tags, markdown links, images, emphasis, code, quote and heading markers. */
const MARKUP = /&(?:[a-z]+|#\d+|#x[0-9a-f]+);|<\/?[a-z][a-z0-9]*(?:\s[^>]*)?>|\]\(|!\[[^\]]*\]\(|\*\*|__\w|`|^\s*(?:#{1,6}\s|>\s?|[-*+]\s)/i;

interface Fact {
  content: string;
  suggested_type: string;
  title: string;
  section: string | null;
  enriched_by: string;
}

interface Doc {
  file: Upload;
  /** Statements a reader would list: each must be (part of) some fact. */
  expected: Array<string | RegExp>;
  /** Boilerplate that must not be (part of) any fact. */
  boilerplate: Array<string | RegExp>;
  /** Reasons explain=true must report. */
  reasons: string[];
}

const DOCS: Record<string, Doc> = {
  readme: {
    file: { type: 'text/markdown', filename: 'README.md', data: readDoc('fastify-README.md') },
    expected: [
      'Fastify is a web framework highly focused on providing the best developer experience',
      // "It is inspired by …" names its subject.
      'Fastify is inspired by Hapi and Express',
      /serve more than 76 thousand requests per second/,
      'Extensible: Fastify is fully extensible via its hooks, plugins, and decorators.',
    ],
    boilerplate: ['NPM version', 'shields.io', 'Table of Contents', /^Quick start$/, /^Install$/, 'npm i fastify', 'Do you want to know more?'],
    reasons: ['badge', 'toc', 'heading', 'code'],
  },
  readmeWithNavigation: {
    file: { type: 'text/markdown', filename: 'README.md', data: readDoc('zod-README.md') },
    expected: ['Zod is a TypeScript-first validation library.', /^Zod features: Zero external dependencies; Works in Node\.js/],
    boilerplate: ['Docs • Discord', /Discord/, 'Read the docs', 'npm install zod', /@colinhacks/],
    reasons: ['navigation', 'badge', 'heading', 'code'],
  },
  changelog: {
    file: { type: 'text/markdown', filename: 'CHANGELOG.md', data: readDoc('qs-CHANGELOG.md') },
    expected: [/stringify: do not sort the caller's filter array in place/, /\[New\] stringify: add WHATWG format/],
    boilerplate: [/^\*?\*?6\.17\.\d\*?\*?$/],
    reasons: ['heading'],
  },
  policyPage: {
    file: { type: 'text/html; charset=utf-8', filename: 'target-tier-policy.html', data: readDoc('rustc-target-tier-policy.html') },
    expected: [
      'Rust provides three tiers of target support.',
      "Rust’s continuous integration checks that tier 1 targets will always build and pass tests.",
      'This language is based on IETF RFC 2119.',
    ],
    boilerplate: ['Press ← or → to navigate between chapters', 'Keyboard shortcuts', /^Tier 2 with host tools$/, /^Table of Contents$/],
    reasons: ['navigation', 'toc', 'heading'],
  },
  policyMarkdown: {
    file: { type: 'text/markdown', filename: 'SECURITY.md', data: readDoc('typescript-SECURITY.md') },
    expected: [
      'Please do not report security vulnerabilities through public GitHub issues.',
      /^Please include the requested information listed below .*: Type of issue .*; Full paths of source file\(s\)/,
      'We prefer all communications to be in English.',
    ],
    boilerplate: ['BEGIN MICROSOFT SECURITY', /^Type of issue/, /^Preferred Languages$/],
    reasons: ['heading'],
  },
  slideDeck: {
    file: { type: MIME.pptx, filename: 'security.pptx', data: pinoSecurityDeck() },
    expected: ['Pino is a fast JSON logger for Node.js.', /invited to report them via email/],
    boilerplate: [/^The Pino Threat Model/, /^Security Policy$/],
    reasons: ['heading'],
  },
  spreadsheet: {
    file: { type: MIME.xlsx, filename: 'debian.xlsx', data: debianReleasesSheet() },
    expected: [/^version: 12; codename: Bookworm; series: bookworm; created: 2021-08-14; release: 2023-06-10/, /codename: Trixie/],
    boilerplate: [/^version; codename/],
    reasons: [],
  },
  wordDocument: {
    file: { type: MIME.docx, filename: 'code-of-conduct.docx', data: codeOfConductDocx() },
    expected: [
      /^Examples of behavior that contributes to creating a positive environment include: Using welcoming and inclusive language; /,
      'The project team is obligated to maintain confidentiality with regard to the reporter of an incident.',
    ],
    boilerplate: [/^Our Pledge$/, /^Using welcoming and inclusive language$/, /^Scope$/],
    reasons: ['heading'],
  },
};

const has = (facts: Fact[], p: string | RegExp) => facts.some((f) => (typeof p === 'string' ? f.content.includes(p) : p.test(f.content)));

describe('ingest of real documents', () => {
  for (const [name, doc] of Object.entries(DOCS)) {
    it(`${name}: clean, typed, titled facts; boilerplate dropped with a reason`, async () => {
      const r = await upload(t, doc.file, { tenant_id: 'default', explain: 'true', max_facts: '1000' });
      expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
      const facts = r.body.facts as Fact[];
      expect(facts.length).toBeGreaterThan(0);
      for (const f of facts) {
        expect(f.content, 'markup in a fact').not.toMatch(MARKUP);
        expect(f.title, 'markup in a title').not.toMatch(MARKUP);
        expect(INFERRED_TYPES).toContain(f.suggested_type);
        expect(f.title.length).toBeGreaterThan(0);
        expect(f.title.length).toBeLessThanOrEqual(80);
        expect(f.enriched_by).toBe('rules');
      }
      for (const p of doc.expected) expect(has(facts, p), `expected a fact matching ${p}`).toBe(true);
      for (const p of doc.boilerplate) expect(has(facts, p), `boilerplate became a fact: ${p}`).toBe(false);
      const reasons = new Set((r.body.dropped as Array<{ reason: string }>).map((d) => d.reason));
      for (const reason of doc.reasons) expect(reasons, `no unit dropped as ${reason}`).toContain(reason);
      const counted = Object.values(r.body.dropped_counts as Record<string, number>).reduce((a, b) => a + b, 0);
      expect(counted).toBeGreaterThanOrEqual((r.body.dropped as unknown[]).length);
    });
  }

  it('without explain, a preview lists no dropped units', async () => {
    const r = await t.api('POST', '/api/v1/ingest/preview', { body: { tenant_id: 'default', content: readDoc('typescript-SECURITY.md') } });
    expect(r.status).toBe(200);
    expect(r.body).not.toHaveProperty('dropped');
    expect(r.body).not.toHaveProperty('dropped_counts');
  });

  it('commits the preview as typed, titled memories with their section; a second preview skips them', async () => {
    const tenant = 'docs-commit';
    const content = readDoc('typescript-SECURITY.md');
    const preview = await t.api('POST', '/api/v1/ingest/preview', { body: { tenant_id: tenant, content, include_content: true } });
    expect(preview.status).toBe(200);
    const facts = preview.body.facts as Fact[];
    const commit = await commitPreview(t, preview.body, { tenant_id: tenant });
    expect(commit.status).toBe(200);
    expect(commit.body).toMatchObject({ memories_created: facts.length, errored: 0 });

    const listed = await t.api('GET', `/api/v1/memories?tenant_id=${tenant}&run_id=${commit.body.run_id}&limit=500`);
    const byContent = new Map((listed.body.items as any[]).map((m) => [m.content, m]));
    for (const f of facts) {
      const m = byContent.get(f.content);
      expect(m, f.content).toBeDefined();
      expect(m).toMatchObject({ memory_type: f.suggested_type, title: f.title });
      expect(m.metadata).toMatchObject({ source: 'ingest', enriched_by: 'rules', ...(f.section ? { section: f.section } : {}) });
      expect(m.metadata.enriched_fields).toEqual(expect.arrayContaining(['memory_type', 'title']));
    }
    const again = await t.api('POST', '/api/v1/ingest/preview', { body: { tenant_id: tenant, content, explain: true } });
    expect(again.body.facts).toEqual([]);
    expect(again.body.dropped_counts.already_stored).toBe(facts.length);
  });

  it('a type or title the client sets on commit is its own; a fact without preview marks is typed by the write', async () => {
    const tenant = 'docs-own';
    const r = await t.api('POST', '/api/v1/ingest/commit', {
      body: {
        tenant_id: tenant,
        facts: [
          { content: 'We decided to move the release to Thursday because of the audit.', memory_type: 'fact', title: 'Release day' },
          { content: 'The team agreed to drop the legacy importer after the audit.' },
        ],
      },
    });
    expect(r.body).toMatchObject({ memories_created: 2, errored: 0 });
    const items = (await t.api('GET', `/api/v1/memories?tenant_id=${tenant}&run_id=${r.body.run_id}`)).body.items as any[];
    const own = items.find((m) => m.title === 'Release day');
    expect(own).toMatchObject({ memory_type: 'fact' });
    expect(own.metadata.enriched_fields ?? []).not.toContain('memory_type');
    const typed = items.find((m) => m.content.startsWith('The team agreed'));
    expect(typed).toMatchObject({ memory_type: 'decision', metadata: { enriched_by: 'rules' } });
    expect(typed.title).toBeTruthy();
  });
});
