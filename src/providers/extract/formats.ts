// Which format a declared content type means, and whether the bytes agree with it.
import { fileTypeFromBuffer } from 'file-type';
import { ExtractError, type ExtractFormat } from './types.js';

const BY_MIME: Record<string, ExtractFormat> = {
  'text/plain': 'txt',
  'text/markdown': 'md',
  'text/x-markdown': 'md',
  'text/csv': 'csv',
  'application/csv': 'csv',
  'text/comma-separated-values': 'csv',
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  'application/pdf': 'pdf',
  'application/x-pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.oasis.opendocument.text': 'odt',
  'application/epub+zip': 'epub',
  'application/rtf': 'rtf',
  'application/x-rtf': 'rtf',
  'text/rtf': 'rtf',
  'text/richtext': 'rtf',
};

const BY_EXTENSION: Record<string, ExtractFormat> = {
  txt: 'txt',
  text: 'txt',
  md: 'md',
  markdown: 'md',
  csv: 'csv',
  html: 'html',
  htm: 'html',
  xhtml: 'html',
  pdf: 'pdf',
  docx: 'docx',
  pptx: 'pptx',
  xlsx: 'xlsx',
  odt: 'odt',
  epub: 'epub',
  rtf: 'rtf',
};

// Uploads of a known format often arrive with a generic type (browsers send .md as octet-stream).
const GENERIC_TYPES = new Set(['', 'application/octet-stream', 'binary/octet-stream', 'application/unknown', 'application/binary']);

export const TEXT_FORMATS: ReadonlySet<ExtractFormat> = new Set(['md', 'txt', 'csv', 'html']);
export const ZIP_FORMATS: ReadonlySet<ExtractFormat> = new Set(['docx', 'pptx', 'xlsx', 'odt', 'epub']);

export function mimeOf(contentType: string): { mime: string; charset?: string } {
  const [head, ...params] = contentType.split(';');
  const mime = head.trim().toLowerCase();
  let charset: string | undefined;
  for (const p of params) {
    const m = /^\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(p);
    if (m) charset = m[1].toLowerCase();
  }
  return { mime, charset };
}

function extensionOf(filename?: string): string | undefined {
  const m = filename ? /\.([A-Za-z0-9]{1,10})$/.exec(filename.trim()) : null;
  return m ? m[1].toLowerCase() : undefined;
}

/**
 * The format the caller declared. A generic type falls back to the file name, then to the
 * bytes (done by `resolveFormat`). Returns undefined when the declaration names no format.
 */
export function declaredFormat(contentType: string, filename?: string): ExtractFormat | 'generic' | undefined {
  const { mime } = mimeOf(contentType);
  const byExt = BY_EXTENSION[extensionOf(filename) ?? ''];
  if (GENERIC_TYPES.has(mime)) return byExt ?? 'generic';
  const fmt = BY_MIME[mime];
  // text/plain covers markdown and csv files whose sender knew no better type.
  if (fmt === 'txt' && (byExt === 'md' || byExt === 'csv')) return byExt;
  return fmt;
}

const TEXT_COMPATIBLE = new Set(['xml', 'rtf']);
const ZIP_COMPATIBLE: Record<string, string[]> = {
  docx: ['docx', 'zip'],
  pptx: ['pptx', 'zip'],
  xlsx: ['xlsx', 'zip'],
  odt: ['odt', 'zip'],
  epub: ['epub', 'zip'],
};

// Read with the caller's content type and file name: no prototype, so "constructor" is no format.
for (const table of [BY_MIME, BY_EXTENSION, ZIP_COMPATIBLE]) Object.setPrototypeOf(table, null);

function looksBinary(buf: Buffer): boolean {
  // UTF-16 text has NULs but starts with a byte order mark.
  if ((buf[0] === 0xff && buf[1] === 0xfe) || (buf[0] === 0xfe && buf[1] === 0xff)) return false;
  const head = buf.subarray(0, 8192);
  return head.includes(0);
}

function startsWithRtf(buf: Buffer): boolean {
  const head = buf.subarray(0, 64).toString('latin1').replace(/^\uFEFF|^\xEF\xBB\xBF/, '').trimStart();
  return head.startsWith('{\\rtf');
}

/**
 * Resolves the format to extract and checks it against the magic bytes: a declared type the
 * bytes contradict is refused rather than handed to a parser that was never meant for them.
 */
export async function resolveFormat(buf: Buffer, contentType: string, filename?: string): Promise<ExtractFormat> {
  const declared = declaredFormat(contentType, filename);
  if (declared === undefined) throw new ExtractError('unsupported_type', `unsupported content type: ${mimeOf(contentType).mime || '(none)'}`);

  const detected = (await fileTypeFromBuffer(buf).catch(() => undefined))?.ext as string | undefined;

  if (declared === 'generic') {
    if (detected && (detected === 'pdf' || ZIP_FORMATS.has(detected as ExtractFormat) || detected === 'rtf')) return detected as ExtractFormat;
    if (!detected && startsWithRtf(buf)) return 'rtf';
    throw new ExtractError('unsupported_type', 'content type is generic and the bytes are not a supported format');
  }

  const mismatch = (what: string) =>
    new ExtractError('content_type_mismatch', `declared ${declared} but the content is ${what}`);

  if (TEXT_FORMATS.has(declared)) {
    if (detected && !TEXT_COMPATIBLE.has(detected)) throw mismatch(detected);
    if (looksBinary(buf)) throw mismatch('binary data');
    return declared;
  }
  if (declared === 'pdf') {
    // pdf.js accepts a header within the first KB; file-type only looks at offset 0.
    if (detected === 'pdf' || (!detected && buf.subarray(0, 1024).includes('%PDF-'))) return 'pdf';
    throw mismatch(detected ?? 'not a PDF');
  }
  if (declared === 'rtf') {
    if (detected === 'rtf' || (!detected && startsWithRtf(buf))) return 'rtf';
    throw mismatch(detected ?? 'not RTF');
  }
  const allowed = ZIP_COMPATIBLE[declared];
  if (allowed && detected && allowed.includes(detected)) return declared;
  throw mismatch(detected ?? 'not a zip archive');
}
