// Text extraction: every format from generated fixtures, the type check against magic bytes,
// the zip-bomb guard, the worker's time limit, and the pure readers (RTF, HTML, CSV, decoding).
import { describe, expect, it } from 'vitest';
import { ExtractError, extractText, htmlToText, normaliseText, rtfToText } from '../../src/providers/extract/index.js';
import { csvToText, decodeText } from '../../src/providers/extract/text.js';
import { resolveFormat } from '../../src/providers/extract/formats.js';
import {
  RTF_SAMPLE, makeDocx, makeEpub, makeHtml, makeLyingZip, makeManyEntriesZip, makeOdt, makePdf, makePptx, makeXlsx, makeZipBomb,
} from '../fixtures/make-fixtures.js';
import { errorCode } from '../helpers/error-code.js';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const S1 = 'The Orion cluster moved to Dublin in March 2024.';
const S2 = 'Ana prefers tea over coffee in the morning.';

const codeOf = (p: Promise<unknown>) => errorCode(p, ExtractError);

describe('extractText', () => {
  const cases: Array<[string, Buffer, string, string | undefined]> = [
    ['docx', makeDocx([S1, S2], { title: 'Ops log' }), DOCX, 'Ops log'],
    ['pptx', makePptx([[S1], [S2]]), 'application/vnd.openxmlformats-officedocument.presentationml.presentation', undefined],
    ['odt', makeOdt([S1, S2], { heading: 'Notes' }), 'application/vnd.oasis.opendocument.text', undefined],
    ['epub', makeEpub('A book', [{ heading: 'One', paragraphs: [S1] }, { heading: 'Two', paragraphs: [S2] }]), 'application/epub+zip', 'A book'],
    ['pdf', makePdf([S1, S2], { title: 'Report' }), 'application/pdf', 'Report'],
  ];
  for (const [format, buf, type, title] of cases) {
    it(`reads ${format}`, async () => {
      const r = await extractText(buf, type);
      expect(r.format).toBe(format);
      expect(r.text).toContain(S1);
      expect(r.text).toContain(S2);
      expect(r.title).toBe(title);
    });
  }

  it('reads xlsx rows under their header', async () => {
    const r = await extractText(makeXlsx([['name', 'drink'], ['Ana', 'tea'], ['Bo', 'coffee']]), 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(r.text).toBe('name: Ana; drink: tea\nname: Bo; drink: coffee');
  });

  it('reads rtf with its escapes', async () => {
    const r = await extractText(Buffer.from(RTF_SAMPLE, 'latin1'), 'application/rtf');
    expect(r.text).toContain('The café on Rue Cler opened in 1998.');
    expect(r.text).toContain('A coffee costs 3€ in Paris today.');
    expect(r.text).toContain('Two fallback bytes: — done.');
    expect(r.text).toContain('Curly quotes: “quoted”');
    expect(r.text).toContain('Escaped braces { and } and backslash \\.');
    expect(r.text).not.toMatch(/secret|89504e47|Helvetica|Riched/);
    expect(r.title).toBe('Quarterly café report');
    expect(rtfToText(Buffer.from(RTF_SAMPLE, 'latin1')).text).toContain('Nested groups keep');
  });

  it('keeps the main content of html and drops navigation, banners and footers', async () => {
    const r = await extractText(Buffer.from(makeHtml()), 'text/html');
    expect(r.text).toContain('The Orion cluster was moved from the Frankfurt region to Dublin in March 2024');
    expect(r.text).toContain('## What we would do differently');
    expect(r.text).not.toMatch(/Home|About us|cookies|Related posts|Copyright|analytics|font-family/);
    expect(r.title).toBe('Field notes on the Orion migration');
    // A page without an article falls back to the body minus its boilerplate.
    const plain = htmlToText('<html><body><nav>Menu Home</nav><div>Only line of real text here.</div><footer>© 2024</footer></body></html>');
    expect(normaliseText(plain.text)).toBe('Only line of real text here.');
  });

  it('reads text formats inline: markdown title, csv rows, charsets', async () => {
    const md = await extractText(Buffer.from('# Title here\n\nBody text.'), 'text/markdown');
    expect(md).toMatchObject({ format: 'md', title: 'Title here', text: '# Title here\n\nBody text.' });
    const csv = await extractText(Buffer.from('a,b\n"x, y",2\n'), 'text/csv');
    expect(csv.text).toBe('a: x, y; b: 2');
    expect(csvToText('1,2\n3,4')).toBe('1\t2\n3\t4');
    const latin1 = await extractText(Buffer.from('caf\xe9', 'latin1'), 'text/plain; charset=iso-8859-1');
    expect(latin1.text).toBe('café');
    expect(decodeText(Buffer.from([0xff, 0xfe, 0x68, 0x00, 0x69, 0x00]))).toBe('hi');
  });

  it('checks the declared type against the magic bytes', async () => {
    const pdf = makePdf([S1]);
    const docx = makeDocx([S1]);
    expect(await codeOf(extractText(pdf, DOCX))).toBe('content_type_mismatch');
    expect(await codeOf(extractText(docx, 'application/pdf'))).toBe('content_type_mismatch');
    expect(await codeOf(extractText(pdf, 'text/plain'))).toBe('content_type_mismatch');
    expect(await codeOf(extractText(Buffer.from('{\\rtf1 hi}'), 'application/pdf'))).toBe('content_type_mismatch');
    expect(await codeOf(extractText(Buffer.from('hello'), 'image/png'))).toBe('unsupported_type');
    expect(await codeOf(extractText(Buffer.from('hello'), 'application/octet-stream'))).toBe('unsupported_type');
    // Generic types fall back to the name, then the bytes.
    expect(await resolveFormat(pdf, 'application/octet-stream')).toBe('pdf');
    expect(await resolveFormat(docx, 'application/octet-stream', 'x.docx')).toBe('docx');
    expect(await resolveFormat(Buffer.from('# hi'), 'application/octet-stream', 'x.md')).toBe('md');
    expect(await resolveFormat(Buffer.from('a,b'), 'text/plain', 'x.csv')).toBe('csv');
  });

  it('refuses zip bombs before any parser opens them', async () => {
    expect(await codeOf(extractText(makeZipBomb(), DOCX))).toBe('zip_bomb');
    // Headers that lie about the inflated size are caught while inflating.
    expect(await codeOf(extractText(makeLyingZip(), DOCX))).toBe('zip_bomb');
    expect(await codeOf(extractText(makeManyEntriesZip(2001), DOCX))).toBe('zip_bomb');
    // Stricter limits apply when given.
    expect(await codeOf(extractText(makeDocx([S1]), DOCX, undefined, { zipLimits: { maxTotalBytes: 500 } }))).toBe('zip_bomb');
  });

  it('stops an extraction at its time limit', async () => {
    expect(await codeOf(extractText(makeDocx([S1]), DOCX, undefined, { timeoutMs: 1 }))).toBe('timeout');
  });

  it('reports unreadable documents as extraction failures', async () => {
    expect(await codeOf(extractText(Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(100, 1)]), 'application/pdf'))).toBe('extraction_failed');
    const broken = Buffer.from(makeDocx([S1]));
    broken.fill(0, 40, 200);
    expect(['extraction_failed', 'zip_bomb']).toContain(await codeOf(extractText(broken, DOCX)));
  });

  it('cuts output at maxChars and says so', async () => {
    const r = await extractText(Buffer.from('word '.repeat(1000)), 'text/plain', undefined, { maxChars: 100 });
    expect(r.truncated).toBe(true);
    expect(r.text.length).toBeLessThanOrEqual(100);
  });
});
