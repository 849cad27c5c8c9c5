// The development set of memory-type inference: real sentences from public text, labelled by
// hand. The committed file (bench/sets/enrich-devset.json) holds only locators and labels — the
// text is read at run time from where it lives: LoCoMo dialogues (CC BY-NC, never committed),
// documentation shipped in node_modules, and Debian changelogs under /usr/share/doc. Items whose
// source is missing or changed are skipped and counted, never guessed.
//
// The segmenter here is frozen on purpose and independent of src/: changing the ingest code must
// not change which sentences the set holds.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

export const DEVSET_PATH = fileURLToPath(new URL('./sets/enrich-devset.json', import.meta.url));
const LOCOMO_CANDIDATES = [
  process.env.LOCI_LOCOMO_PATH,
  fileURLToPath(new URL('../../shared/bench/locomo10.json', import.meta.url)),
  '/work/shared/bench/locomo10.json',
].filter((p): p is string => !!p);

export type Split = 'dev' | 'test';

export interface DevRef {
  /** `locomo:<sample_id>` or `file:<path>` (relative paths are from the repository root). */
  src: string;
  /** First 12 hex digits of sha1 of the segment. */
  h: string;
  label: string;
  split: Split;
  /** random: a seeded random sample of its source; keyword: picked by keyword to add rare types. */
  sample: 'random' | 'keyword';
}

export interface DevItem extends DevRef {
  text: string;
}

export const segmentId = (text: string) => createHash('sha1').update(text, 'utf8').digest('hex').slice(0, 12);

/** A document's prose as sentence-sized segments: code, headings, tables and markup out. */
export function segmentDoc(raw: string): string[] {
  const out: string[] = [];
  const paras: string[] = [];
  let cur: string[] = [];
  let fence = false;
  const flush = () => {
    if (cur.length) paras.push(cur.join(' '));
    cur = [];
  };
  for (const line0 of raw.replace(/\r\n?/g, '\n').split('\n')) {
    const line = line0.trim();
    if (/^(```|~~~)/.test(line)) {
      flush();
      fence = !fence;
      continue;
    }
    if (fence) continue;
    if (!line || /^#{1,6}\s/.test(line) || /^[|=-]/.test(line) && !/^- \S/.test(line) || /^<\/?\w/.test(line) || /^ -- /.test(line0)) {
      flush();
      continue;
    }
    if (/^\S.*\(\d[^)]*\)\s+\S+;\s*urgency=/.test(line)) { // a Debian changelog entry header
      flush();
      continue;
    }
    if (/^([*+-]|\d+[.)])\s+/.test(line)) {
      flush();
      cur.push(line.replace(/^([*+-]|\d+[.)])\s+/, ''));
      continue;
    }
    cur.push(line);
  }
  flush();
  for (const p of paras) {
    const clean = p
      .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
      .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
      .replace(/<[^>]+>/g, '')
      .replace(/[`*_]{1,2}([^`*_]+)[`*_]{1,2}/g, '$1')
      .replace(/\s+/g, ' ')
      .trim();
    for (const s of clean.split(/(?<=[.!?])\s+(?=["“(]?[A-Z0-9])/)) {
      const t = s.trim();
      if (t) out.push(t);
    }
  }
  return out;
}

interface LocomoSample {
  sample_id: string;
  conversation: Record<string, unknown>;
  observation?: Record<string, unknown>;
}

export function locomoPath(): string | null {
  return LOCOMO_CANDIDATES.find((p) => existsSync(p)) ?? null;
}

/** Every dialogue turn of a LoCoMo sample, split into sentences. */
export function locomoSegments(sample: LocomoSample): string[] {
  const out: string[] = [];
  for (const [key, turns] of Object.entries(sample.conversation)) {
    if (!/^session_\d+$/.test(key) || !Array.isArray(turns)) continue;
    for (const t of turns as Array<{ text?: string }>) {
      if (typeof t.text !== 'string') continue;
      for (const s of t.text.replace(/\s+/g, ' ').split(/(?<=[.!?])\s+(?=["“(]?[A-Z0-9])/)) if (s.trim()) out.push(s.trim());
    }
  }
  return out;
}

/** The observations of a LoCoMo sample: third-person statements about the speakers, memory-shaped. */
export function locomoObservations(sample: LocomoSample): string[] {
  const out: string[] = [];
  for (const perSession of Object.values(sample.observation ?? {})) {
    for (const list of Object.values(perSession as Record<string, unknown>)) {
      if (!Array.isArray(list)) continue;
      for (const o of list) if (Array.isArray(o) && typeof o[0] === 'string') out.push(o[0].replace(/\s+/g, ' ').trim());
    }
  }
  return out;
}

export function readSource(src: string, locomo: Map<string, LocomoSample> | null): string[] | null {
  if (src.startsWith('locomo-obs:')) {
    const sample = locomo?.get(src.slice('locomo-obs:'.length));
    return sample ? locomoObservations(sample) : null;
  }
  if (src.startsWith('locomo:')) {
    const sample = locomo?.get(src.slice('locomo:'.length));
    return sample ? locomoSegments(sample) : null;
  }
  const path = src.slice('file:'.length);
  const abs = path.startsWith('/') ? path : fileURLToPath(new URL(`../${path}`, import.meta.url));
  if (!existsSync(abs)) return null;
  const buf = readFileSync(abs);
  return segmentDoc((abs.endsWith('.gz') ? gunzipSync(buf) : buf).toString('utf8'));
}

export function loadLocomo(): Map<string, LocomoSample> | null {
  const p = locomoPath();
  if (!p) return null;
  const all = JSON.parse(readFileSync(p, 'utf8')) as LocomoSample[];
  return new Map(all.map((s) => [s.sample_id, s]));
}

/** The labelled items whose text could be found, and how many could not. */
export function loadDevSet(path = DEVSET_PATH): { items: DevItem[]; missing: number } {
  const refs = JSON.parse(readFileSync(path, 'utf8')).items as DevRef[];
  const locomo = refs.some((r) => r.src.startsWith('locomo')) ? loadLocomo() : null;
  const bySource = new Map<string, Map<string, string> | null>();
  const items: DevItem[] = [];
  let missing = 0;
  for (const r of refs) {
    if (!bySource.has(r.src)) {
      const segs = readSource(r.src, locomo);
      bySource.set(r.src, segs ? new Map(segs.map((s) => [segmentId(s), s])) : null);
    }
    const text = bySource.get(r.src)?.get(r.h);
    if (text === undefined) missing++;
    else items.push({ ...r, text });
  }
  return { items, missing };
}
