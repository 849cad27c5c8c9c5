// File ingest over HTTP: a fixture of every format (generated here, each far below 50 KB) is
// uploaded, previewed and committed, and its known sentences come back as memories. Limits:
// zip bombs, 3 MB + 1 byte, an oversized Content-Length, type mismatches — all refused with
// nothing written.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { commitPreview, runContents, storedCounts, upload, type Upload } from '../helpers/ingest.js';
import {
  RTF_SAMPLE, makeDocx, makeEpub, makeHtml, makeLyingZip, makeManyEntriesZip, makeOdt, makePdf, makePptx, makeXlsx, makeZipBomb,
} from '../fixtures/make-fixtures.js';

const MIME = {
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  odt: 'application/vnd.oasis.opendocument.text',
  epub: 'application/epub+zip',
};

interface Fixture {
  file: Upload;
  /** Sentences that must come out as facts and then as memories. */
  sentences: string[];
  /** Text that must not (navigation, boilerplate). */
  absent?: RegExp;
  title?: string;
}

// Each format gets its own sentences: exact-duplicate refusal would otherwise hide a second format's memories.
const fixtures: Record<string, Fixture> = {
  md: {
    file: {
      type: 'text/markdown', filename: 'notes.md',
      data: '# Kitchen rota\n\nMarta cleans the espresso machine every Friday afternoon.\n\n- The dishwasher tablets are stored under the sink.\n',
    },
    sentences: ['Marta cleans the espresso machine every Friday afternoon.', 'The dishwasher tablets are stored under the sink.'],
    title: 'Kitchen rota',
  },
  txt: {
    file: { type: 'text/plain; charset=utf-8', filename: 'memo.txt', data: 'The Lisbon office opens at eight thirty on weekdays.\nVisitors must sign in at the front desk.\n' },
    sentences: ['The Lisbon office opens at eight thirty on weekdays.', 'Visitors must sign in at the front desk.'],
  },
  csv: {
    file: { type: 'text/csv', filename: 'owners.csv', data: 'service,owner,pager\nbilling-api,Priya Nair,ops-billing\nsearch-indexer,Tom Okafor,ops-search\n' },
    sentences: ['service: billing-api; owner: Priya Nair; pager: ops-billing', 'service: search-indexer; owner: Tom Okafor; pager: ops-search'],
  },
  html: {
    file: { type: 'text/html; charset=utf-8', filename: 'post.html', data: makeHtml() },
    sentences: [
      'The Orion cluster was moved from the Frankfurt region to Dublin in March 2024 after a two-week freeze.',
      'The team decided to keep PostgreSQL 16 as the primary database because the replication tooling was already proven.',
    ],
    absent: /Home|About us|cookies|Related posts|Ten tips|Copyright|Privacy/,
  },
  pdf: {
    file: {
      type: 'application/pdf', filename: 'report.pdf',
      data: makePdf(['The warehouse in Rotterdam handled 4,200 pallets in June.', 'Night shifts were added to clear the backlog before July.'], { title: 'Warehouse report' }),
    },
    sentences: ['The warehouse in Rotterdam handled 4,200 pallets in June.', 'Night shifts were added to clear the backlog before July.'],
    title: 'Warehouse report',
  },
  docx: {
    file: {
      type: MIME.docx, filename: 'policy.docx',
      data: makeDocx(['Employees may work remotely up to three days per week.', 'Laptops must be encrypted before leaving the office.'], { title: 'Remote work policy' }),
    },
    sentences: ['Employees may work remotely up to three days per week.', 'Laptops must be encrypted before leaving the office.'],
    title: 'Remote work policy',
  },
  pptx: {
    file: {
      type: MIME.pptx, filename: 'roadmap.pptx',
      data: makePptx([['The mobile app will support offline mode in the autumn release.'], ['Customer churn fell to three percent after the loyalty launch.']]),
    },
    sentences: ['The mobile app will support offline mode in the autumn release.', 'Customer churn fell to three percent after the loyalty launch.'],
  },
  xlsx: {
    file: { type: MIME.xlsx, filename: 'budget.xlsx', data: makeXlsx([['team', 'budget', 'lead'], ['Platform', '120000', 'Ines Duarte'], ['Design', '45000', 'Kofi Mensah']]) },
    sentences: ['team: Platform; budget: 120000; lead: Ines Duarte', 'team: Design; budget: 45000; lead: Kofi Mensah'],
  },
  epub: {
    file: {
      type: MIME.epub, filename: 'guide.epub',
      data: makeEpub('Field guide', [
        { heading: 'Birds', paragraphs: ['The kingfisher nests in riverbanks along the Tagus estuary.'] },
        { heading: 'Trees', paragraphs: ['Cork oaks are stripped of their bark once every nine years.'] },
      ]),
    },
    sentences: ['The kingfisher nests in riverbanks along the Tagus estuary.', 'Cork oaks are stripped of their bark once every nine years.'],
    title: 'Field guide',
  },
  rtf: {
    file: { type: 'application/rtf', filename: 'cafe.rtf', data: Buffer.from(RTF_SAMPLE, 'latin1') },
    sentences: ['The café on Rue Cler opened in 1998.', 'A coffee costs 3€ in Paris today.'],
    title: 'Quarterly café report',
  },
  odt: {
    file: {
      type: MIME.odt, filename: 'minutes.odt',
      data: makeOdt(['The board approved the new solar panels for the depot roof.', 'Installation is scheduled to finish before the winter holidays.'], { heading: 'Board minutes' }),
    },
    sentences: ['The board approved the new solar panels for the depot roof.', 'Installation is scheduled to finish before the winter holidays.'],
  },
};

describe('file ingest', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  it('generates every fixture small', () => {
    expect(Object.keys(fixtures).sort()).toEqual(['csv', 'docx', 'epub', 'html', 'md', 'odt', 'pdf', 'pptx', 'rtf', 'txt', 'xlsx']);
    for (const f of Object.values(fixtures)) expect(Buffer.byteLength(f.file.data)).toBeLessThan(50 * 1024);
  });

  for (const [format, fx] of Object.entries(fixtures)) {
    it(`${format}: known sentences come out through upload, preview and commit`, async () => {
      const before = await storedCounts(t);
      const p = await upload(t, fx.file, { tenant_id: 'default', include_content: 'true', source_uri: `upload://${fx.file.filename}` });
      expect(p.status, JSON.stringify(p.body)).toBe(200);
      expect(p.body.format).toBe(format);
      const facts = p.body.facts.map((f: { content: string }) => f.content);
      for (const s of fx.sentences) expect(facts).toContain(s);
      if (fx.absent) {
        expect(facts.join('\n')).not.toMatch(fx.absent);
        expect(p.body.content).not.toMatch(fx.absent);
      }
      if (fx.title) expect(p.body.title).toBe(fx.title);
      // Preview wrote nothing.
      expect(await storedCounts(t)).toEqual(before);

      const c = await commitPreview(t, p.body, { title: fx.title });
      expect(c.status).toBe(200);
      expect(c.body.errored).toBe(0);
      expect(c.body.memories_created).toBe(p.body.facts.length);
      const stored = await runContents(t, c.body.run_id);
      for (const s of fx.sentences) expect(stored).toContain(s);
      const doc = await t.api('GET', `/api/v1/documents/ingest-sources/${c.body.run_id}?tenant_id=default`);
      expect(doc.body.data.content).toBe(p.body.content);

      expect((await t.api('POST', `/api/v1/ingest/undo/${c.body.run_id}?tenant_id=default`)).body.deleted).toBe(p.body.facts.length);
      expect(await storedCounts(t)).toEqual(before);
    });
  }

  it('reads a file sent with a generic type by its name and bytes', async () => {
    const md = await upload(t, { ...fixtures.md.file, type: 'application/octet-stream' }, { tenant_id: 'default' });
    expect(md.status).toBe(200);
    expect(md.body.format).toBe('md');
    const docx = await upload(t, { ...fixtures.docx.file, type: 'application/octet-stream', filename: 'noname' }, { tenant_id: 'default' });
    expect(docx.status).toBe(200);
    expect(docx.body.format).toBe('docx');
  });

  it('refuses a type the bytes contradict, and unsupported types, with 415', async () => {
    const before = await storedCounts(t);
    const cases: Upload[] = [
      { ...fixtures.pdf.file, type: MIME.docx },
      { ...fixtures.docx.file, type: 'application/pdf' },
      { data: fixtures.pdf.file.data, type: 'text/plain', filename: 'x.txt' },
      { data: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), type: 'image/png', filename: 'x.png' },
      { data: 'just some words', type: 'application/x-unknown', filename: 'x.bin' },
    ];
    for (const file of cases) {
      const r = await upload(t, file, { tenant_id: 'default' });
      expect(r.status, file.type).toBe(415);
      expect(r.headers.get('content-type')).toContain('application/problem+json');
    }
    expect(await storedCounts(t)).toEqual(before);
  });

  it('refuses zip bombs with 413 and writes nothing', async () => {
    const before = await storedCounts(t);
    for (const data of [makeZipBomb(), makeLyingZip(), makeManyEntriesZip(2500)]) {
      const r = await upload(t, { data, type: MIME.docx, filename: 'bomb.docx' }, { tenant_id: 'default' });
      expect(r.status).toBe(413);
      expect(r.body.reason).toBe('zip_bomb');
    }
    expect(await storedCounts(t)).toEqual(before);
  });

  it('accepts a file of exactly 3 MB and refuses 3 MB + 1 byte with 413, writing nothing', async () => {
    const cap = t.config.ingestMaxBytes;
    const line = 'The archive holds one more line of repeated text.\n';
    const exact = Buffer.alloc(cap, line);
    const ok = await upload(t, { data: exact, type: 'text/plain', filename: 'exact.txt' }, { tenant_id: 'default' });
    expect(ok.status).toBe(200);
    expect(ok.body.content_length).toBeGreaterThan(cap - line.length * 2);

    const before = await storedCounts(t);
    const over = await upload(t, { data: Buffer.alloc(cap + 1, line), type: 'text/plain', filename: 'over.txt' }, { tenant_id: 'default' });
    expect(over.status).toBe(413);
    expect(over.headers.get('content-type')).toContain('application/problem+json');
    expect(over.body.limit).toBe(cap);
    expect(await storedCounts(t)).toEqual(before);
  });

  it('refuses a declared Content-Length over the cap before reading the body', async () => {
    const url = new URL(t.url);
    const res = await new Promise<{ status: number; body: string; connection?: string }>((resolve, reject) => {
      const req = request({
        host: url.hostname, port: url.port, path: '/api/v1/ingest/file', method: 'POST',
        headers: {
          'x-api-key': t.adminKey,
          'content-type': 'multipart/form-data; boundary=xyz',
          'content-length': String(t.config.ingestMaxBytes * 2),
        },
      }, (r) => {
        let body = '';
        r.on('data', (c) => (body += c));
        r.on('end', () => {
          resolve({ status: r.statusCode ?? 0, body, connection: r.headers.connection });
          req.destroy();
        });
      });
      req.on('error', reject);
      // Headers only: the answer must come without a byte of the body.
      req.flushHeaders();
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).detail).toMatch(/exceeds the ingest limit/);
    expect(res.connection).toBe('close');
  });

  it('refuses a malformed upload with 422 and a non-multipart body with 415', async () => {
    const noFile = await upload(t, null, { tenant_id: 'default' });
    expect(noFile.status).toBe(422);
    expect(noFile.body.detail).toContainEqual(expect.objectContaining({ loc: ['body', 'file'], type: 'missing' }));
    const noTenant = await upload(t, fixtures.txt.file, {});
    expect(noTenant.status).toBe(422);
    expect(noTenant.body.detail).toContainEqual(expect.objectContaining({ loc: ['body', 'tenant_id'], type: 'missing' }));
    const badFields = await upload(t, fixtures.txt.file, { tenant_id: 'default', max_facts: 'many', include_content: 'perhaps' });
    expect(badFields.body.detail.map((d: { loc: string[] }) => d.loc[1]).sort()).toEqual(['include_content', 'max_facts']);
    const empty = await upload(t, { data: '', type: 'text/plain', filename: 'empty.txt' }, { tenant_id: 'default' });
    expect(empty.status).toBe(422);
    const corrupt = await upload(t, { data: Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(200, 7)]), type: 'application/pdf', filename: 'bad.pdf' }, { tenant_id: 'default' });
    expect(corrupt.status).toBe(422);
    expect(corrupt.body.detail[0]).toMatchObject({ loc: ['body', 'file'], type: 'extraction_failed' });

    const json = await t.api('POST', '/api/v1/ingest/file', { body: { tenant_id: 'default' } });
    expect(json.status).toBe(415);
  });

  it('keeps uploads to the caller\'s tenant and needs a key that may write', async () => {
    const before = await storedCounts(t);
    const other = await t.key('acme');
    expect((await upload(t, fixtures.txt.file, { tenant_id: 'default' }, other)).status).toBe(403);
    expect((await upload(t, fixtures.txt.file, { tenant_id: 'acme' }, other)).status).toBe(200);
    expect((await upload(t, fixtures.txt.file, { tenant_id: 'default' }, null)).status).toBe(401);
    expect((await upload(t, fixtures.txt.file, { tenant_id: 'default' }, await t.key('default', { trust: 0 }))).status).toBe(403);
    expect(await storedCounts(t)).toEqual(before);
  });
});
