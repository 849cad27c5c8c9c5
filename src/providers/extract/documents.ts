// Readers for the binary formats. Parsing libraries are imported on first use, so an
// extraction worker only loads the one its file needs.
import { parseHTML } from 'linkedom';
import { domToText, type DomNode } from './html.js';
import { rowsToText } from './text.js';
import { ExtractError } from './types.js';

type Extracted = { text: string; title?: string };

const ENTITIES: Record<string, string> = Object.setPrototypeOf({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }, null);
export function decodeXmlEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] === '#') {
      const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : m;
    }
    return ENTITIES[e.toLowerCase()] ?? m;
  });
}

/** dc:title of an OOXML core.xml, ODF meta.xml or EPUB package document. */
export function dcTitle(xml: Buffer | undefined): string | undefined {
  if (!xml) return undefined;
  const m = /<dc:title\b[^>]*>([\s\S]*?)<\/dc:title>/i.exec(xml.toString('utf8'));
  const t = m ? decodeXmlEntities(m[1].replace(/<[^>]+>/g, '')).replace(/\s+/g, ' ').trim() : '';
  return t || undefined;
}

const failed = (what: string, err: unknown) =>
  new ExtractError('extraction_failed', `${what}: ${err instanceof Error ? err.message : String(err)}`);

export async function pdfToText(buf: Buffer): Promise<Extracted> {
  const { getDocumentProxy, extractText, getMeta } = await import('unpdf');
  let pdf;
  try {
    // No eval: font programs are untrusted input.
    pdf = await getDocumentProxy(new Uint8Array(buf), { isEvalSupported: false, useSystemFonts: false, stopAtErrors: false });
  } catch (err) {
    throw failed('unreadable PDF', err);
  }
  try {
    const { text } = await extractText(pdf, { mergePages: false });
    let title: string | undefined;
    try {
      const meta = await getMeta(pdf);
      const t = meta.info?.Title;
      if (typeof t === 'string' && t.trim()) title = t.replace(/\s+/g, ' ').trim();
    } catch {
      // Metadata is optional.
    }
    return { text: text.join('\n\n'), title };
  } catch (err) {
    throw failed('PDF text extraction failed', err);
  } finally {
    await pdf.destroy().catch(() => undefined);
  }
}

export async function docxToText(buf: Buffer, entries: Map<string, Buffer>): Promise<Extracted> {
  const mammoth = (await import('mammoth')).default;
  try {
    // Via HTML rather than extractRawText: headings and list items keep their structure.
    const { value } = await mammoth.convertToHtml({ buffer: buf });
    const doc = parseHTML(`<!DOCTYPE html><html><body>${value}</body></html>`).document as unknown as { body: DomNode };
    return { text: domToText(doc.body), title: dcTitle(entries.get('docProps/core.xml')) };
  } catch (err) {
    throw failed('unreadable DOCX', err);
  }
}

export async function officeToText(buf: Buffer, entries: Map<string, Buffer>, metaPath: string): Promise<Extracted> {
  const { parseOfficeAsync } = (await import('officeparser')).default;
  try {
    const text = await parseOfficeAsync(buf, { newlineDelimiter: '\n', outputErrorToConsole: false });
    return { text, title: dcTitle(entries.get(metaPath)) };
  } catch (err) {
    throw failed('unreadable document', err);
  }
}

function attr(tag: string, name: string): string | undefined {
  const m = new RegExp(`\\s${name}\\s*=\\s*("([^"]*)"|'([^']*)')`, 'i').exec(tag);
  return m ? decodeXmlEntities(m[2] ?? m[3] ?? '') : undefined;
}

function resolvePath(base: string, href: string): string {
  const parts = base.split('/').slice(0, -1);
  let path = href.split('#')[0];
  try {
    path = decodeURIComponent(path);
  } catch {
    // Keep the raw href.
  }
  for (const seg of path.split('/')) {
    if (seg === '..') parts.pop();
    else if (seg !== '.' && seg !== '') parts.push(seg);
  }
  return parts.join('/');
}

export const isEpubPart = (name: string) => /\.(opf|xhtml|html|htm|xml)$/i.test(name);

/** EPUB: container.xml → package document → spine order → each chapter's XHTML as text. */
export function epubToText(entries: Map<string, Buffer>): Extracted {
  const container = entries.get('META-INF/container.xml')?.toString('utf8') ?? '';
  const rootTag = /<rootfile\b[^>]*>/i.exec(container)?.[0];
  const opfPath = (rootTag && attr(rootTag, 'full-path')) || [...entries.keys()].find((n) => n.toLowerCase().endsWith('.opf'));
  const opfBuf = opfPath ? entries.get(opfPath) : undefined;

  let chapters: string[] = [];
  if (opfPath && opfBuf) {
    const opf = opfBuf.toString('utf8');
    const manifest = new Map<string, { href: string; type: string }>();
    for (const m of opf.matchAll(/<(?:\w+:)?item\b[^>]*>/gi)) {
      const id = attr(m[0], 'id');
      const href = attr(m[0], 'href');
      if (id && href) manifest.set(id, { href, type: attr(m[0], 'media-type') ?? '' });
    }
    for (const m of opf.matchAll(/<(?:\w+:)?itemref\b[^>]*>/gi)) {
      const item = manifest.get(attr(m[0], 'idref') ?? '');
      if (item && /html|xml/i.test(item.type)) chapters.push(resolvePath(opfPath, item.href));
    }
  }
  if (chapters.length === 0) chapters = [...entries.keys()].filter((n) => /\.(xhtml|html|htm)$/i.test(n)).sort();

  const parts: string[] = [];
  for (const path of chapters) {
    const html = entries.get(path);
    if (!html) continue;
    const doc = parseHTML(html.toString('utf8')).document as unknown as DomNode & { body?: DomNode };
    parts.push(domToText(doc.body ?? doc));
  }
  return { text: parts.join('\n\n'), title: dcTitle(opfBuf) };
}

export const isXlsxPart = (name: string) =>
  name === 'docProps/core.xml' || name === 'xl/workbook.xml' || name === 'xl/_rels/workbook.xml.rels' || name === 'xl/sharedStrings.xml' || /^xl\/worksheets\/[^/]+\.xml$/.test(name);

const xmlText = (s: string) => decodeXmlEntities(s.replace(/<[^>]+>/g, ''));

function columnIndex(ref: string | undefined, fallback: number): number {
  const letters = ref ? /^[A-Z]+/i.exec(ref)?.[0] : undefined;
  if (!letters) return fallback;
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

/**
 * XLSX: each sheet's rows, read from the sheet XML with the shared strings resolved. Rows are
 * kept together (a header row turns each line into "column: value; …"), which a cell-by-cell
 * dump loses.
 */
export function xlsxToText(entries: Map<string, Buffer>): Extracted {
  const text = (name: string) => entries.get(name)?.toString('utf8') ?? '';
  const shared = [...text('xl/sharedStrings.xml').matchAll(/<si\b[^>]*>([\s\S]*?)<\/si>/g)].map((m) =>
    // Phonetic runs (rPh) repeat the text in another script.
    [...m[1].replace(/<rPh\b[\s\S]*?<\/rPh>/g, '').matchAll(/<t\b[^>]*>([\s\S]*?)<\/t>/g)].map((t) => xmlText(t[1])).join(''),
  );

  const rels = new Map<string, string>();
  for (const m of text('xl/_rels/workbook.xml.rels').matchAll(/<Relationship\b[^>]*>/g)) {
    const id = attr(m[0], 'Id');
    const target = attr(m[0], 'Target');
    if (id && target) rels.set(id, target.startsWith('/') ? target.slice(1) : resolvePath('xl/workbook.xml', target));
  }
  let sheets: Array<{ name?: string; path: string }> = [];
  for (const m of text('xl/workbook.xml').matchAll(/<sheet\b[^>]*>/g)) {
    const path = rels.get(attr(m[0], 'r:id') ?? '');
    if (path && entries.has(path)) sheets.push({ name: attr(m[0], 'name'), path });
  }
  if (sheets.length === 0) {
    const num = (p: string) => Number(/(\d+)\.xml$/.exec(p)?.[1] ?? 0);
    sheets = [...entries.keys()].filter((n) => n.startsWith('xl/worksheets/')).sort((a, b) => num(a) - num(b)).map((path) => ({ path }));
  }

  const parts: string[] = [];
  for (const sheet of sheets) {
    const rows: string[][] = [];
    for (const row of text(sheet.path).matchAll(/<row\b[^>]*>([\s\S]*?)<\/row>/g)) {
      const cells: string[] = [];
      for (const c of row[1].matchAll(/<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
        const body = c[2] ?? '';
        const type = attr(c[1], 't');
        const v = /<v\b[^>]*>([\s\S]*?)<\/v>/.exec(body)?.[1];
        let value = '';
        if (type === 's') value = shared[Number(v)] ?? '';
        else if (type === 'inlineStr') value = [...body.matchAll(/<t\b[^>]*>([\s\S]*?)<\/t>/g)].map((t) => xmlText(t[1])).join('');
        else if (type === 'b') value = v === '1' ? 'TRUE' : v === '0' ? 'FALSE' : '';
        else if (v !== undefined) value = xmlText(v);
        const col = columnIndex(attr(c[1], 'r'), cells.length);
        if (col > 16_383) continue;
        while (cells.length < col) cells.push('');
        cells[col] = value;
      }
      rows.push(cells);
    }
    const body = rowsToText(rows);
    if (!body) continue;
    parts.push(sheets.length > 1 && sheet.name ? `## ${sheet.name}\n\n${body}` : body);
  }
  return { text: parts.join('\n\n'), title: dcTitle(entries.get('docProps/core.xml')) };
}
