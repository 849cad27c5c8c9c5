// The extraction pipeline itself, without a worker: type check, zip guard, format reader,
// normalisation and cap. The extraction worker runs this; so can code that is already off
// the event loop.
import { docxToText, epubToText, isEpubPart, isXlsxPart, officeToText, pdfToText, xlsxToText } from './documents.js';
import { resolveFormat, mimeOf, ZIP_FORMATS } from './formats.js';
import { htmlToText } from './html.js';
import { rtfToText } from './rtf.js';
import { capText, csvToText, decodeText, markdownTitle, normaliseText } from './text.js';
import {
  DEFAULT_MAX_CHARS,
  DEFAULT_ZIP_LIMITS,
  ExtractError,
  type ExtractFormat,
  type ExtractOptions,
  type ExtractResult,
} from './types.js';
import { guardZip } from './zip-guard.js';

const OFFICE_META: Partial<Record<ExtractFormat, string>> = {
  docx: 'docProps/core.xml',
  pptx: 'docProps/core.xml',
  xlsx: 'docProps/core.xml',
  odt: 'meta.xml',
};

async function read(format: ExtractFormat, buf: Buffer, charset: string | undefined, opts: ExtractOptions): Promise<{ text: string; title?: string }> {
  let entries = new Map<string, Buffer>();
  if (ZIP_FORMATS.has(format)) {
    const meta = OFFICE_META[format];
    const keep = format === 'epub' ? isEpubPart : format === 'xlsx' ? isXlsxPart : (name: string) => name === meta;
    entries = await guardZip(buf, { ...DEFAULT_ZIP_LIMITS, ...opts.zipLimits }, keep);
  }
  switch (format) {
    case 'txt':
      return { text: decodeText(buf, charset) };
    case 'md': {
      const text = decodeText(buf, charset);
      return { text, title: markdownTitle(text) };
    }
    case 'csv':
      return { text: csvToText(decodeText(buf, charset)) };
    case 'html':
      return htmlToText(decodeText(buf, charset ?? sniffHtmlCharset(buf)));
    case 'rtf':
      return rtfToText(buf);
    case 'pdf':
      return pdfToText(buf);
    case 'docx':
      return docxToText(buf, entries);
    case 'xlsx':
      return xlsxToText(entries);
    case 'pptx':
    case 'odt':
      return officeToText(buf, entries, OFFICE_META[format]!);
    case 'epub':
      return epubToText(entries);
  }
}

/** `<meta charset>` or http-equiv in the first KB, for pages saved without a declared charset. */
function sniffHtmlCharset(buf: Buffer): string | undefined {
  const head = buf.subarray(0, 1024).toString('latin1');
  return /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(head)?.[1]?.toLowerCase();
}

/** Extraction of a format already checked by `resolveFormat`. */
export async function extractResolved(format: ExtractFormat, buf: Buffer, charset: string | undefined, opts: ExtractOptions = {}): Promise<ExtractResult> {
  let raw: { text: string; title?: string };
  try {
    raw = await read(format, buf, charset, opts);
  } catch (err) {
    if (err instanceof ExtractError) throw err;
    throw new ExtractError('extraction_failed', `${format}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const maxChars = opts.maxChars ?? DEFAULT_MAX_CHARS;
  // Normalisation only shrinks text; a generous pre-cut spares work on huge outputs.
  const rawText = raw.text.length > maxChars * 4 ? raw.text.slice(0, maxChars * 4) : raw.text;
  const capped = capText(normaliseText(rawText), maxChars);
  const text = capped.text;
  const truncated = capped.truncated || rawText.length < raw.text.length;
  const title = raw.title ? normaliseText(raw.title).replace(/\s+/g, ' ').slice(0, 500) : undefined;
  return { text, format, ...(title ? { title } : {}), ...(truncated ? { truncated } : {}) };
}

/** The whole pipeline on the calling thread: for code that is already off the event loop, and tests. */
export async function extractInline(buf: Buffer, declaredContentType: string, filename?: string, opts: ExtractOptions = {}): Promise<ExtractResult> {
  const format = await resolveFormat(buf, declaredContentType, filename);
  return extractResolved(format, buf, mimeOf(declaredContentType).charset, opts);
}
