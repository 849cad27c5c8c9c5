// Sections and pieces of a normalised document text: markdown headings (and Debian changelog
// entries) make sections; paragraphs, list items, table rows, and the headings and code blocks
// themselves (kept to be reported as dropped) are its pieces. Text that lost its markup shows
// structure by layout only; that is marked up first (markPlainStructure).
import { cleanInline } from './markup.js';

/** Separates the headings of a section path ("Fastify › Core features"). */
export const SECTION_SEPARATOR = ' › ';

export type PieceKind = 'para' | 'item' | 'record' | 'heading' | 'code';

export interface Piece {
  /** The text with its markdown, as found (hard wraps joined). */
  raw: string;
  kind: PieceKind;
  section: number;
  /** Consecutive items of one list share an id. */
  list: number;
}

export interface Section {
  title: string | null;
  path: string | null;
}

const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const LIST_ITEM = /^\s*(?:[-*+•◦▪‣]|\d{1,3}[.)]|[a-z][.)])\s+(?:\[[ xX]\]\s+)?/;
const FENCE = /^ {0,3}(```|~~~)/;
const TABLE_RULE = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;
export const TERMINAL = /[.!?。！？…]["'”’)\]]*$/;
/** Titles found without markup (a short line between sentences) nest below every markdown heading. */
const LABEL_LEVEL = 7;
const LABEL_MAX_CHARS = 60;
/** A Debian changelog entry header: "apt (2.6.1) bookworm; urgency=medium". */
const DEBIAN_ENTRY = /^\S+ \([^)\s]+\) [\w\s-]+; *urgency=\w+/;
/** Headings of changelogs and release notes: versions and dates. */
const VERSION_HEADING = /^(?:\[?v?\d+\.\d+(?:\.\d+)?|\S+ \([^)\s]+\) [\w\s-]+; *urgency=|(?:19|20)\d\d-\d\d-\d\d|unreleased\b|release notes|changelog|change ?log|history|news)/i;

function tableRows(lines: string[]): string[] {
  const rows = lines
    .filter((l) => !TABLE_RULE.test(l))
    .map((l) => l.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((c) => cleanInline(c)));
  if (rows.length === 0) return [];
  const header = rows[0];
  const hasHeader = lines.length > 1 && TABLE_RULE.test(lines[1]) && header.length > 1;
  if (!hasHeader) return rows.map((r) => r.filter(Boolean).join(', '));
  return rows.slice(1).map((r) =>
    r
      .map((c, i) => (c ? `${header[i] || `column ${i + 1}`}: ${c}` : ''))
      .filter(Boolean)
      .join('; '),
  );
}

const isRecordLine = (l: string) => /\t/.test(l) || /^[^:;]{1,40}: [^;]+(; [^:;]{1,40}: [^;]+)+$/.test(l.trim());
/** Brackets or parentheses left open: a markdown link or image continues on the next line. */
const openBrackets = (s: string) => (s.match(/[[(]/g)?.length ?? 0) > (s.match(/[\])]/g)?.length ?? 0);

const isLabelLine = (line: string) =>
  line.length > 0 && line.length < LABEL_MAX_CHARS && !TERMINAL.test(line) && !/[:;,]$/.test(line) && !openBrackets(line)
  && /^[\p{Lu}\d]/u.test(line) && line.split(/\s+/).length <= 8 && !LIST_ITEM.test(line) && !isRecordLine(line)
  && !HEADING.test(line) && !FENCE.test(line) && !line.startsWith('|');

/**
 * Structure that text without markup shows only by its layout (a Word document, a slide deck, a
 * web page's text): a run of short one-line paragraphs after a line ending with ":" is a list,
 * and a short one-line paragraph before a longer one is a heading. Marked up as markdown here so
 * the rest reads them as such.
 */
export function markPlainStructure(text: string): string {
  const lines = text.split('\n');
  // Blocks: [start, end) line ranges of non-blank runs, outside fenced code.
  const blocks: Array<[number, number]> = [];
  let fence = false;
  for (let i = 0; i < lines.length; i++) {
    if (FENCE.test(lines[i])) fence = !fence;
    if (fence || FENCE.test(lines[i]) || lines[i].trim() === '') continue;
    const start = i;
    while (i + 1 < lines.length && lines[i + 1].trim() !== '' && !FENCE.test(lines[i + 1])) i++;
    blocks.push([start, i + 1]);
  }
  const single = (b: [number, number]) => b[1] - b[0] === 1;
  const short = (b: [number, number] | undefined) => !!b && single(b) && isLabelLine(lines[b[0]].trim());
  // An unterminated one-line paragraph of a few words continues a list once one is open.
  const itemLike = (b: [number, number]) => {
    const t = lines[b[0]].trim();
    return single(b) && !TERMINAL.test(t) && /^[\p{Lu}\d]/u.test(t) && t.split(/\s+/).length <= 25 && !HEADING.test(t) && !LIST_ITEM.test(t);
  };
  let inList = false;
  const opensList = (k: number) => /:$/.test(lines[blocks[k][1] - 1].trim()) && !!blocks[k + 1] && itemLike(blocks[k + 1]);
  blocks.forEach((b, k) => {
    const next = blocks[k + 1];
    // A short line before a paragraph that is no lead-in heads that paragraph, list or not.
    const heads = short(b) && !!next && !short(next) && !itemLike(next) && !opensList(k + 1);
    if (inList && itemLike(b) && !heads && !/:$/.test(lines[b[0]].trim())) {
      lines[b[0]] = `- ${lines[b[0]].trim()}`;
      return;
    }
    inList = false;
    if (short(b)) {
      if (blocks[k + 1] && !short(blocks[k + 1])) lines[b[0]] = `${'#'.repeat(6)} ${lines[b[0]].trim()}`;
      return;
    }
    // A paragraph ending with ":" followed by short lines opens a list.
    inList = opensList(k);
  });
  return lines.join('\n');
}

/**
 * Splits normalised text into sections (markdown headings, Debian changelog entries; without
 * headings, blank-line blocks) and pieces: paragraphs, list items, table rows, and the headings
 * and code blocks themselves (kept to be reported as dropped). Hard-wrapped lines are joined,
 * words hyphenated across lines too; a short unterminated line before a capitalised one stays
 * apart (a title or label).
 */
export function splitPieces(text: string): { pieces: Piece[]; sections: Section[]; count: number } {
  const lines = text.split('\n');
  const pieces: Piece[] = [];
  const sections: Section[] = [{ title: null, path: null }];
  const stack: Array<{ level: number; title: string }> = [];
  let section = 0;
  let sawHeading = false;
  let nonEmptyBlocks = 0;
  let list = 0;
  let current: string[] = [];
  let inFence = false;
  let fence: string[] = [];

  const heading = (level: number, raw: string) => {
    const title = cleanInline(raw);
    while (stack.length && stack[stack.length - 1].level >= level) stack.pop();
    if (title) stack.push({ level, title });
    sections.push({ title: title || null, path: stack.length ? stack.map((h) => h.title).join(SECTION_SEPARATOR) : null });
    section = sections.length - 1;
    sawHeading = true;
    if (title) pieces.push({ raw: title, kind: 'heading', section, list: 0 });
    list++;
  };

  const flush = () => {
    if (current.length === 0) return;
    const added = pieces.length;
    const nonBlank = current.filter((l) => l.trim() !== '');
    if (nonBlank.length > 0 && nonBlank.every((l) => l.trim().startsWith('|'))) {
      for (const row of tableRows(nonBlank)) pieces.push({ raw: row, kind: 'record', section, list: 0 });
      list++;
    } else {
      let para: string[] = [];
      let paraLength = 0;
      let kind: PieceKind = 'para';
      const push = () => {
        const joined = para.join(' ');
        if (joined.trim()) pieces.push({ raw: joined, kind, section, list: kind === 'item' ? list : 0 });
        if (kind !== 'item') list++;
        para = [];
        paraLength = 0;
        kind = 'para';
      };
      const add = (line: string) => {
        paraLength += (para.length > 0 ? 1 : 0) + line.length;
        para.push(line);
      };
      for (let li = 0; li < current.length; li++) {
        const line = current[li].trim();
        if (!line) continue;
        // A short unterminated line between sentences (a slide or section title in text that has
        // lost its markup) heads what follows.
        const next = current[li + 1]?.trim() ?? '';
        const prevEnds = para.length === 0 || TERMINAL.test(para[para.length - 1]);
        if (kind === 'para' && prevEnds && isLabelLine(line) && /^[\p{Lu}\d"“]/u.test(next)) {
          if (para.length) push();
          heading(LABEL_LEVEL, line);
          continue;
        }
        if (LIST_ITEM.test(line)) {
          if (para.length) {
            const wasItem = kind === 'item';
            const keep = list;
            push();
            if (wasItem) list = keep;
          }
          kind = 'item';
          add(line.replace(LIST_ITEM, ''));
          continue;
        }
        if (isRecordLine(line)) {
          if (para.length) push();
          pieces.push({ raw: line.replace(/\t+/g, '; '), kind: 'record', section, list: 0 });
          list++;
          continue;
        }
        if (para.length > 0) {
          const last = para[para.length - 1];
          // A short unterminated line before a capitalised one is a title or label. (Only a short
          // paragraph is joined to check: a long one costs linear time, not a re-scan per line.)
          const short = kind === 'para' && paraLength < 40 ? para.join(' ') : null;
          const standalone = short !== null && !TERMINAL.test(short) && !openBrackets(short) && /^[\p{Lu}\d"“]/u.test(line);
          if (standalone) push();
          else if (/[\p{L}]-$/u.test(last) && /^\p{Ll}/u.test(line)) {
            // A word hyphenated across a line break.
            para[para.length - 1] = last.slice(0, -1) + line;
            paraLength += line.length - 1;
            continue;
          }
        }
        add(line);
      }
      if (para.length) push();
    }
    if (pieces.length > added) nonEmptyBlocks++;
    current = [];
  };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (FENCE.test(line)) {
      flush();
      if (inFence) {
        const first = fence.find((l) => l.trim()) ?? '';
        pieces.push({ raw: first.trim(), kind: 'code', section, list: 0 });
        list++;
        fence = [];
      }
      inFence = !inFence;
      continue;
    }
    if (inFence) {
      fence.push(line);
      continue;
    }
    const h = HEADING.exec(line);
    const setext = !h && i + 1 < lines.length && line.trim() !== '' && current.length === 0 && SETEXT.test(lines[i + 1]) && !LIST_ITEM.test(line);
    if (h || setext || DEBIAN_ENTRY.test(line)) {
      flush();
      if (h) heading(h[1].length, h[2]);
      else if (setext) {
        heading(lines[i + 1].trim().startsWith('=') ? 1 : 2, line.trim());
        i++;
      } else heading(2, line.trim());
      continue;
    }
    if (line.trim() === '') {
      flush();
      if (!sawHeading) {
        sections.push({ title: null, path: null });
        section = sections.length - 1;
      }
      continue;
    }
    current.push(line);
  }
  flush();
  const headed = new Set(pieces.filter((p) => p.kind !== 'heading' && p.kind !== 'code').map((p) => p.section)).size;
  return { pieces, sections, count: sawHeading ? headed : nonEmptyBlocks };
}

/** Whether a section reads as a changelog entry (a version or date heading), so opening verbs record work done. */
export function changelogSection(sections: Section[], section: number): boolean {
  const path = sections[section]?.path;
  return !!path && path.split(SECTION_SEPARATOR).some((h) => VERSION_HEADING.test(h));
}
