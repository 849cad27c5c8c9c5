// The long-document corpus (docs/retrieval.md, "Long documents"): the markdown documentation the
// project's installed packages ship in node_modules (their READMEs and docs/ pages), cut at headings
// into memories of 2,000–5,000 characters, as an agent that keeps notes of what it read would store
// them. node_modules is fixed by package-lock.json, so every checkout builds the same corpus.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export const DOC_MIN_CHARS = 2_000;
export const DOC_MAX_CHARS = 5_000;
/** Files shorter than this hold no long memory worth asking about. */
const MIN_FILE_CHARS = 2_000;
/** Release notes and policies repeat each other across packages; they are left out. */
const SKIP_FILE = /^(changelog|history|changes|license|licence|contributing|code_of_conduct|security|support|funding|authors)/i;
/** A memory that is mostly code or tables is no note of what was read. */
const MAX_CODE_SHARE = 0.7;

export interface DocMemory {
  /** `<file path under node_modules>#<n>`: stable across checkouts of the same lock file. */
  key: string;
  /** The package directory (`fastify`, `@fastify/swagger`). */
  pkg: string;
  content: string;
}

function markdownFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    let st;
    try { st = statSync(path); } catch { continue; }
    if (st.isDirectory()) markdownFiles(path, out);
    else if (/\.(md|markdown)$/i.test(name) && !SKIP_FILE.test(name) && st.size >= MIN_FILE_CHARS) out.push(path);
  }
  return out;
}

/** Badges, images and HTML lines say nothing a reader would note. */
function cleanLines(text: string): string[] {
  return text.replace(/\r\n?/g, '\n').split('\n')
    .filter((l) => !/^\s*(\[!\[|!\[|<\/?(p|div|img|a|br|picture|source|h\d|details|summary|sup|table|tr|td)\b)/i.test(l));
}

/** Sections: a heading and what follows it up to the next heading (code fences are not cut). */
function sections(lines: readonly string[]): string[] {
  const out: string[] = [];
  let cur: string[] = [];
  let fence = false;
  for (const l of lines) {
    if (/^\s*(```|~~~)/.test(l)) fence = !fence;
    if (!fence && /^#{1,4}\s/.test(l) && cur.some((x) => x.trim())) {
      out.push(cur.join('\n').trim());
      cur = [];
    }
    cur.push(l);
  }
  if (cur.some((x) => x.trim())) out.push(cur.join('\n').trim());
  return out.filter(Boolean);
}

/** A section longer than the maximum, cut at blank lines outside code. */
function splitLong(section: string): string[] {
  if (section.length <= DOC_MAX_CHARS) return [section];
  const parts: string[] = [];
  let cur = '';
  for (const para of section.split(/\n\s*\n/)) {
    if (cur && cur.length + para.length + 2 > DOC_MAX_CHARS) {
      parts.push(cur);
      cur = '';
    }
    cur = cur ? `${cur}\n\n${para}` : para;
  }
  if (cur) parts.push(cur);
  return parts.flatMap((p) => p.length <= DOC_MAX_CHARS ? [p] : p.match(new RegExp(`[\\s\\S]{1,${DOC_MAX_CHARS}}`, 'g'))!);
}

const codeShare = (text: string) => {
  let code = 0;
  let fence = false;
  for (const l of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(l)) fence = !fence;
    if (fence || /^\s*\|/.test(l) || /^ {4}/.test(l)) code += l.length + 1;
  }
  return code / Math.max(1, text.length);
};

/** One file's memories: consecutive sections packed into 2–5k-character windows. */
function fileMemories(text: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (const part of sections(cleanLines(text)).flatMap(splitLong)) {
    if (cur.length >= DOC_MIN_CHARS && cur.length + part.length + 2 > DOC_MAX_CHARS) {
      out.push(cur);
      cur = '';
    }
    cur = cur ? `${cur}\n\n${part}` : part;
  }
  // A short last stretch joins the one before it when that stays within the maximum.
  if (cur && out.length && cur.length < DOC_MIN_CHARS && out[out.length - 1].length + cur.length + 2 <= DOC_MAX_CHARS) {
    out[out.length - 1] += `\n\n${cur}`;
  } else if (cur) out.push(cur);
  return out;
}

/** Word 8-grams of a text, hashed: shared ones tell a copy of another memory. */
function shingles(text: string): Set<string> {
  const words = text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  const out = new Set<string>();
  for (let i = 0; i + 8 <= words.length; i++) out.add(words.slice(i, i + 8).join(' '));
  return out;
}

/** A memory sharing this share of its 8-grams with an earlier one is a copy (another version of a package's docs). */
const COPY_SHARE = 0.3;

/**
 * Every long memory of the corpus, files in path order (a package nested in another's
 * node_modules after the top-level one), without copies: questions have one right memory.
 */
export function docMemories(root = 'node_modules'): DocMemory[] {
  const seen = new Set<string>();
  const owner = new Map<string, number>();
  const out: DocMemory[] = [];
  const depth = (p: string) => p.split('node_modules').length;
  for (const path of markdownFiles(root).sort((a, b) => depth(a) - depth(b) || (a < b ? -1 : a > b ? 1 : 0))) {
    const text = readFileSync(path, 'utf8');
    const hash = createHash('sha256').update(text).digest('hex');
    if (seen.has(hash)) continue;
    seen.add(hash);
    const rel = relative(root, path);
    const parts = rel.split(/[\\/]/);
    // The innermost package directory holding the file (node_modules/a/node_modules/b/README.md → b).
    const at = parts.lastIndexOf('node_modules');
    const rest = parts.slice(at + 1);
    const pkg = rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
    fileMemories(text).forEach((content, n) => {
      if (content.length < DOC_MIN_CHARS || codeShare(content) > MAX_CODE_SHARE) return;
      const grams = shingles(content);
      const shared = new Map<number, number>();
      for (const g of grams) {
        const o = owner.get(g);
        if (o !== undefined) shared.set(o, (shared.get(o) ?? 0) + 1);
      }
      if ([...shared.values()].some((c) => c >= COPY_SHARE * grams.size)) return;
      for (const g of grams) if (!owner.has(g)) owner.set(g, out.length);
      out.push({ key: `${rel}#${n}`, pkg, content });
    });
  }
  return out;
}
