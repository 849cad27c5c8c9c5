// Byte decoding, whitespace normalisation and the plain-text formats (txt, md, csv).
import { TextDecoder } from 'node:util';
import { decodeCp1252, decoderForLabel } from './codepage.js';

/** Decodes text bytes: a BOM wins, then the declared charset, then UTF-8, then Windows-1252. */
export function decodeText(buf: Buffer, charset?: string): string {
  if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) return new TextDecoder('utf-8').decode(buf.subarray(3));
  if (buf[0] === 0xff && buf[1] === 0xfe) return new TextDecoder('utf-16le').decode(buf.subarray(2));
  if (buf[0] === 0xfe && buf[1] === 0xff) return new TextDecoder('utf-16be').decode(buf.subarray(2));
  if (charset && /^utf-?16/i.test(charset)) return new TextDecoder(/be$/i.test(charset) ? 'utf-16be' : 'utf-16le').decode(buf);
  // A declared legacy charset is often wrong for UTF-8 content, so valid UTF-8 is tried first.
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(buf);
  } catch {
    // Not valid UTF-8: the declared charset, else legacy Western text, by far the likeliest.
    const declared = charset ? decoderForLabel(charset) : undefined;
    return declared ? declared.decode(buf) : decodeCp1252(buf);
  }
}

/**
 * One whitespace convention for every format: NFC, LF line ends, no control or zero-width
 * characters, single spaces (tabs kept as cell separators), trimmed lines, at most one blank line.
 */
export function normaliseText(text: string): string {
  return text
    .normalize('NFC')
    .replace(/\r\n?|[\u2028\u2029\u0085\f\v]/g, '\n')
    .replace(/[\u200b-\u200d\u2060\ufeff\u00ad]/g, '')
    .replace(/[\u0000-\u0008\u000e-\u001f\u007f]/g, '')
    .replace(/[ \u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]+/g, ' ')
    .replace(/ *\t[\t ]*/g, '\t')
    .replace(/^[ \t]+|[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Cuts at `maxChars` without splitting a surrogate pair, preferring a word boundary near the end. */
export function capText(text: string, maxChars: number): { text: string; truncated: boolean } {
  if (text.length <= maxChars) return { text, truncated: false };
  let cut = maxChars;
  const code = text.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut--;
  const space = text.lastIndexOf(' ', cut);
  if (space > cut - 200 && space > 0) cut = space;
  return { text: text.slice(0, cut).trimEnd(), truncated: true };
}

export function markdownTitle(text: string): string | undefined {
  const m = /^#{1,2}[ \t]+(.+?)[ \t#]*$/m.exec(text.slice(0, 20_000));
  return m ? m[1].trim() : undefined;
}

/** RFC 4180 rows: quoted fields may hold delimiters, doubled quotes and line breaks. */
export function parseCsv(text: string, delimiter: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === delimiter) {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

function guessDelimiter(text: string): string {
  const nl = text.indexOf('\n');
  const firstLine = (nl === -1 ? text : text.slice(0, nl)).slice(0, 4096);
  let best = ',';
  let bestCount = 0;
  for (const d of [',', ';', '\t', '|']) {
    const count = firstLine.split(d).length - 1;
    if (count > bestCount) {
      best = d;
      bestCount = count;
    }
  }
  return best;
}

/**
 * CSV → one line per row. With a header row, each line reads "column: value; …" so every
 * line stands on its own when facts are extracted from it.
 */
export function csvToText(text: string): string {
  return rowsToText(parseCsv(text, guessDelimiter(text)));
}

/** Table rows → text lines, in the form `csvToText` describes (also used for spreadsheets). */
export function rowsToText(allRows: string[][]): string {
  const rows = allRows.filter((r) => r.some((c) => c.trim() !== ''));
  if (rows.length === 0) return '';
  const header = rows[0].map((h) => h.trim());
  const isHeader =
    rows.length > 1 &&
    header.length > 1 &&
    header.every((h) => h !== '' && !/^-?[\d.,]+%?$/.test(h)) &&
    new Set(header).size === header.length;
  if (!isHeader) return rows.map((r) => r.map((c) => c.trim()).join('\t')).join('\n');
  return rows
    .slice(1)
    .map((r) =>
      r
        .map((c, i) => [header[i] ?? `column ${i + 1}`, c.trim()] as const)
        .filter(([, v]) => v !== '')
        .map(([h, v]) => `${h}: ${v}`)
        .join('; '),
    )
    .join('\n');
}
