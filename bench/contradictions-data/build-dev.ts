// Builds the structured part of the contradiction development set from public text on this
// machine: Debian changelogs (/usr/share/doc/*/changelog.Debian.gz, only packages whose debian/*
// files carry a permissive licence) and the HISTORY/CHANGELOG files shipped in node_modules (MIT
// and alike). Every memory is a real changelog line (or a whole changelog entry), prefixed with
// the package it belongs to; the label follows from the changelog's own structure, not from the
// detector:
//  - update (rdf_conflict): the same package states a new value of the same attribute in a later
//    entry (Standards-Version, debhelper compat level, upstream version, a dependency's version);
//  - other_instance (none): two packages, the same attribute, different values;
//  - other_attribute (none): the same package, two different attributes.
// The split is decided here, per source document (the package), before any tuning: a package's
// pairs are all in one split, and cross-package pairs only join packages of the same split.
// Run: npx tsx bench/contradictions-data/build-dev.ts  → test/fixtures/contradictions-dev.json
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { splitOf, type DevPair } from './split.js';
import { packageDirs } from './package-dirs.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const OUT = join(root, 'test/fixtures/contradictions-dev.json');

/** Deterministic pseudo-random numbers (mulberry32), so the build is reproducible. */
function rng(seed: number) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = rng(20261123);
const pick = <T>(xs: T[]): T => xs[Math.floor(rand() * xs.length)];
const shuffle = <T>(xs: T[]): T[] => {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
};

interface Occurrence {
  doc: string; // "debian:bc", "npm:body-parser"
  pkg: string;
  attr: string; // "standards-version", "debhelper-compat", "upstream-version", "dep:qs"
  value: string;
  line: string; // the bullet as written
  entry: string; // the whole changelog entry it belongs to
  /** Position in time: larger is newer. */
  order: number;
  where: string; // provenance: file and entry header
  licence: string;
}

// ---------------------------------------------------------------------------------------------
// Debian

const PERMISSIVE = /^(?:mit|expat|bsd|isc|apache|x11|public-domain|pd-debian|curl|bsl|zlib|artistic)/i;

function debianLicence(pkgDir: string): string | null {
  const f = join(pkgDir, 'copyright');
  if (!existsSync(f)) return null;
  let licence: string | null = null;
  for (const stanza of readFileSync(f, 'utf8').split(/\n\s*\n/)) {
    const files = /^Files:(.*(?:\n[ \t]+.*)*)/m.exec(stanza);
    if (files && files[1].includes('debian/*')) licence = /^License:\s*(\S+)/m.exec(stanza)?.[1] ?? null;
  }
  return licence && PERMISSIVE.test(licence) ? licence : null;
}

interface Entry {
  header: string;
  text: string;
  bullets: string[];
}

/** Entries of a Debian changelog, newest first, with their bullets (continuation lines joined). */
function debianEntries(text: string): Entry[] {
  const out: Entry[] = [];
  const blocks = text.split(/\n(?=\S+ \([^)]+\) [^;]+; urgency=)/);
  for (const block of blocks) {
    const lines = block.split('\n');
    const header = lines[0].trim();
    if (!/^\S+ \([^)]+\)/.test(header)) continue;
    const end = lines.findIndex((l) => /^ -- /.test(l));
    const body = lines.slice(1, end < 0 ? undefined : end);
    const bullets: string[] = [];
    for (const l of body) {
      const m = /^\s+[*+-]\s+(.*)$/.exec(l);
      if (m) bullets.push(m[1].trim());
      else if (/^\s{4,}\S/.test(l) && bullets.length && !/^\s+\[/.test(l)) bullets[bullets.length - 1] += ' ' + l.trim();
    }
    out.push({ header, text: [header, '', ...body].join('\n').trim(), bullets });
  }
  return out;
}

const MAINTAINER_RE = /\b(?:new maintainer|orphan(?:ing|ed)?(?: the)? package|set(?:ting)? (?:the )?maintainer (?:field )?to|adopt(?:ing|ed)?(?: the)? package|(?:take|taking|took) over (?:the )?(?:package|maintenance|maintainership)|new uploader|change(?:d)? maintainer|maintainer (?:is now|changed))\b/i;
const VCS_HOSTS = ['salsa', 'alioth', 'github', 'gitlab', 'svn', 'bzr', 'cvs', 'git'];

/** The attribute and value a Debian changelog bullet sets, or null (`entry` tells maintainer changes apart). */
function debianAttr(bullet: string, entry: number): { attr: string; value: string } | null {
  const b = bullet.replace(/\s+/g, ' ');
  if (b.length > 160) return null;
  // Who maintains the package: each such line names a new maintainer, so every entry is another value.
  if (MAINTAINER_RE.test(b)) return { attr: 'maintainer', value: `entry ${entry}` };
  if (/\bvcs-/i.test(b)) {
    const hosts = VCS_HOSTS.filter((h) => new RegExp(`\\b${h}\\b`, 'i').test(b));
    return hosts.length === 1 ? { attr: 'vcs', value: hosts[0] } : null;
  }
  if (/\bhomepage\b/i.test(b)) {
    const urls = b.match(/https?:\/\/[^\s,;)]+/g);
    return urls?.length === 1 ? { attr: 'homepage', value: urls[0].replace(/[./]+$/, '').toLowerCase() } : null;
  }
  if (/standards[- ]?version/i.test(b)) {
    const vs = b.match(/\b\d\.\d+\.\d+(?:\.\d+)?\b/g);
    if (vs && vs.length === 1) return { attr: 'standards-version', value: vs[0] };
    return null;
  }
  if (/debhelper|compat/i.test(b) && /compat/i.test(b) && !/standards/i.test(b)) {
    const vs = [...new Set(b.match(/(?<![\d.])\d{1,2}(?![\d.])/g) ?? [])].filter((v) => Number(v) >= 5 && Number(v) <= 14);
    if (vs.length === 1 && !/#\d/.test(b.replace(/Closes: #\d+/gi, ''))) return { attr: 'debhelper-compat', value: vs[0] };
    return null;
  }
  const up = /^new upstream (?:release|version|stable release|bugfix release)\b[^0-9]{0,20}(\d+(?:[.~+-]\w+)+)/i.exec(b);
  if (up) return { attr: 'upstream-version', value: up[1].replace(/[.,;:]+$/, '') };
  return null;
}

function debianOccurrences(): Occurrence[] {
  const out: Occurrence[] = [];
  const seen = new Set<string>();
  for (const name of readdirSync('/usr/share/doc').sort()) {
    const dir = join('/usr/share/doc', name);
    const file = join(dir, 'changelog.Debian.gz');
    if (!existsSync(file)) continue;
    const licence = debianLicence(dir);
    if (!licence) continue;
    let text: string;
    try {
      text = gunzipSync(readFileSync(file)).toString('utf8');
    } catch {
      continue;
    }
    const entries = debianEntries(text);
    if (entries.length === 0) continue;
    const source = /^(\S+)/.exec(entries[0].header)![1];
    if (seen.has(source)) continue; // binary packages of one source share a changelog
    seen.add(source);
    entries.forEach((e, i) => {
      for (const bullet of e.bullets) {
        const a = debianAttr(bullet, i);
        if (!a) continue;
        out.push({
          doc: `debian:${source}`, pkg: source, ...a, line: bullet, entry: e.text, order: entries.length - i,
          where: `/usr/share/doc/${name}/changelog.Debian.gz: ${e.header}`, licence: `debian/* ${licence}`,
        });
      }
    });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// npm HISTORY.md / CHANGELOG.md: "deps: name@version" lines of the jshttp family and alike.

function npmOccurrences(): Occurrence[] {
  const out: Occurrence[] = [];
  const seen = new Set<string>();
  for (const dir of packageDirs(root)) {
    let pj: { name: string; license?: string };
    try {
      pj = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    } catch {
      continue;
    }
    if (typeof pj.name !== 'string' || seen.has(pj.name) || !/^(?:MIT|ISC|BSD|Apache)/i.test(String(pj.license ?? ''))) continue;
    const file = readdirSync(dir).find((n) => /^(?:HISTORY|CHANGELOG)\.md$/i.test(n));
    if (!file) continue;
    seen.add(pj.name);
    const text = readFileSync(join(dir, file), 'utf8');
    // Sections start with "x.y.z / date" (then "===") or "## x.y.z".
    const sections = text.split(/\n(?=(?:#+ *)?v?\d+\.\d+\.\d+[^\n]*\n)/);
    sections.forEach((sec, i) => {
      const header = sec.split('\n')[0].trim();
      if (!/^(?:#+ *)?v?\d+\.\d+\.\d+/.test(header)) return;
      const body = sec.split('\n').slice(1).join('\n').replace(/^=+\n/, '').trim();
      for (const l of sec.split('\n')) {
        const m = /^\s*[*-] deps: (@?[\w./-]+)@([~^>=<]*\d[\w.-]*)\s*$/.exec(l);
        if (!m) continue;
        out.push({
          doc: `npm:${pj.name}`, pkg: pj.name, attr: `dep:${m[1]}`, value: m[2], line: `deps: ${m[1]}@${m[2]}`,
          entry: `${header}\n${body}`.slice(0, 1200), order: sections.length - i,
          where: `node_modules/${pj.name}/${file}: ${header}`, licence: String(pj.license),
        });
      }
    });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Pairs

const short = (o: Occurrence) => `${o.pkg}: ${o.line.replace(/\s+/g, ' ')}`;
/** A whole entry as a longer memory (cut at 1,000 characters, never before the line itself). */
function long(o: Occurrence): string {
  const at = o.entry.indexOf(o.line.split(' ').slice(0, 4).join(' '));
  const limit = Math.max(1000, at + o.line.length + 40);
  const t = o.entry.length > limit ? o.entry.slice(0, limit).replace(/\s+\S*$/, '') + ' …' : o.entry;
  return o.doc.startsWith('npm:') ? `${o.pkg} ${t}` : t;
}
const form = (o: Occurrence, longShare: number) => (rand() < longShare ? long(o) : short(o));

function prov(o: Occurrence) {
  return { where: o.where, licence: o.licence };
}

let seq = 0;
function pair(older: Occurrence, newer: Occurrence, label: DevPair['label'], kind: DevPair['kind'], longShare: number): DevPair {
  const docs = [...new Set([older.doc, newer.doc])];
  return {
    id: `s${String(++seq).padStart(4, '0')}`,
    split: splitOf(docs[0]),
    source: older.doc.split(':')[0] as DevPair['source'],
    docs,
    older: form(older, longShare),
    newer: form(newer, longShare),
    label,
    kind,
    provenance: { older: prov(older), newer: prov(newer) },
  };
}

function build(): DevPair[] {
  const occ = [...debianOccurrences(), ...npmOccurrences()];
  const byDoc = new Map<string, Occurrence[]>();
  for (const o of occ) byDoc.set(o.doc, [...(byDoc.get(o.doc) ?? []), o]);
  const pairs: DevPair[] = [];

  // Updates: a later entry of the same package gives the same attribute another value.
  const updatesPerAttr = new Map<string, number>();
  for (const [, list] of byDoc) {
    const byAttr = new Map<string, Occurrence[]>();
    for (const o of list) byAttr.set(o.attr, [...(byAttr.get(o.attr) ?? []), o]);
    for (const [attr, xs] of byAttr) {
      const sorted = [...xs].sort((a, b) => a.order - b.order);
      const cands: Array<[Occurrence, Occurrence]> = [];
      for (let i = 1; i < sorted.length; i++) {
        // Two lines saying the same words ("New maintainer.") cannot be told from a restatement: left out.
        const words = (o: Occurrence) => o.line.toLowerCase().replace(/\(?closes:[^)]*\)?/g, '').replace(/[^a-z0-9]+/g, ' ').trim();
        if (sorted[i].value !== sorted[i - 1].value && sorted[i].order !== sorted[i - 1].order && words(sorted[i]) !== words(sorted[i - 1])) {
          cands.push([sorted[i - 1], sorted[i]]);
        }
      }
      const kindKey = attr.startsWith('dep:') ? 'dep' : attr;
      for (const [o, n] of shuffle(cands).slice(0, 2)) {
        if ((updatesPerAttr.get(kindKey) ?? 0) >= (kindKey === 'dep' ? 60 : 55)) break;
        updatesPerAttr.set(kindKey, (updatesPerAttr.get(kindKey) ?? 0) + 1);
        pairs.push(pair(o, n, 'rdf_conflict', 'update', 0.3));
      }
    }
  }

  // The same package, two different attributes (short lines only: whole entries often share one).
  let sameDoc = 0;
  for (const [, list] of shuffle([...byDoc])) {
    if (sameDoc >= 100) break;
    const attrs = [...new Set(list.map((o) => o.attr))];
    if (attrs.length < 2) continue;
    const [a1, a2] = shuffle(attrs);
    const x = pick(list.filter((o) => o.attr === a1));
    const y = pick(list.filter((o) => o.attr === a2));
    const [o, n] = x.order <= y.order ? [x, y] : [y, x];
    if (o.order === n.order) continue;
    pairs.push(pair(o, n, 'none', 'other_attribute', 0));
    sameDoc++;
  }

  // Two packages of the same split, the same attribute, different values.
  const byAttrAll = new Map<string, Occurrence[]>();
  for (const o of occ) byAttrAll.set(o.attr, [...(byAttrAll.get(o.attr) ?? []), o]);
  let other = 0;
  for (const [, xs] of shuffle([...byAttrAll])) {
    const docs = shuffle([...new Set(xs.map((o) => o.doc))]);
    for (let i = 0; i + 1 < docs.length && other < 110; i += 2) {
      const a = pick(xs.filter((o) => o.doc === docs[i]));
      const candidates = xs.filter((o) => o.doc !== docs[i] && splitOf(o.doc) === splitOf(a.doc) && o.value !== a.value);
      if (!candidates.length) continue;
      const b = pick(candidates);
      pairs.push(pair(a, b, 'none', 'other_instance', 0.2));
      other++;
    }
  }
  return pairs;
}

// LoCoMo pairs (references to turns, labelled by hand) are kept in their own file and only
// resolved at run time: the data set's licence forbids copying it here.
const LOCOMO = join(root, 'test/fixtures/contradictions-dev-locomo.json');
const locomo = (JSON.parse(readFileSync(LOCOMO, 'utf8')) as Array<Omit<DevPair, 'id' | 'split' | 'source' | 'docs'>>).map((p, i): DevPair => {
  const doc = `locomo:${(p.older as { locomo: number }).locomo}`;
  return { id: `l${String(i + 1).padStart(4, '0')}`, split: splitOf(doc), source: 'locomo', docs: [doc], ...p };
});
const pairs = [...build(), ...locomo];
writeFileSync(OUT, JSON.stringify({
  about: 'Contradiction development set: real changelog lines from Debian packages (permissive debian/* licence) and npm packages (MIT/ISC/BSD/Apache), paired and labelled from the changelog structure by bench/contradictions-data/build-dev.ts. LoCoMo pairs are references to turns of ../shared/bench/locomo10.json (resolved at run time), labelled by hand in test/fixtures/contradictions-dev-locomo.json. The split is per source document (bench/contradictions-data/split.ts).',
  pairs,
}, null, 1) + '\n');
const count = (f: (p: DevPair) => boolean) => pairs.filter(f).length;
console.log(`${pairs.length} pairs → ${OUT}`);
for (const s of ['tune', 'heldout'] as const) {
  console.log(`${s}: ${count((p) => p.split === s)} (updates ${count((p) => p.split === s && p.label !== 'none')})`);
}
for (const k of [...new Set(pairs.map((p) => p.kind))]) console.log(`${k}: ${count((p) => p.kind === k)}`);
