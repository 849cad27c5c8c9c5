// Candidate pairs for the change-phrasing development set (test/fixtures/contradictions-changes.json):
// real changelog lines, from the HISTORY/CHANGELOG files of npm packages in node_modules
// (MIT/ISC/BSD/Apache) and Debian changelogs (/usr/share/doc, permissive debian/* licence), where
// the newer line states a change as people write one ("is now", "no longer", "switched from X to
// Y", "bumped to", "replaced X with Y", "instead of", "renamed", "dropped support for"). Each is
// paired with an earlier line of the same package that shares its words (a candidate update, or a
// hard negative: another attribute of the same package, an addition) and with a line of another
// package that shares them (another instance). This script only proposes: every pair is read and
// labelled by hand, without the detector (changes-labels.txt beside this file), before it enters
// the fixture. Added by structure: each labelled update's newer line against a line of another
// package that shares its words (another instance, never an update of it). A third of the pairs
// carry the line inside its whole changelog entry (one sentence of a longer memory).
// Run: npx tsx bench/contradictions-data/mine-changes.ts          → test/fixtures/contradictions-changes.json
//      npx tsx bench/contradictions-data/mine-changes.ts --list   → the numbered candidates, for labelling
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { splitOf, type DevPair } from './split.js';
import { packageDirs } from './package-dirs.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CHANGE = /\b(?:is now|are now|now (?:uses?|requires?|defaults?|supports?|is|runs?|points?|lives?)|no longer|switch(?:ed|es)? (?:from|to|back)|bump(?:ed|s)? .{0,40}\bto\b|replac(?:e|ed|es) .{3,60} with|instead of|renamed? .{3,60}\bto\b|drop(?:ped|s)? support for|minimum .{0,30}(?:is|to)|default .{0,40}(?:changed|is now|to)|changed? .{0,40} from .{1,40} to|mov(?:e|ed) .{0,40}\bto\b|take over|took over|new maintainer|upgrad(?:e|ed) .{0,40}\bto\b|raised? .{0,30}\bto\b|increas(?:e|ed) .{0,30}\bto\b|lower(?:ed)? .{0,30}\bto\b|reduc(?:e|ed) .{0,30}\bto\b)\b/i;

interface Line { pkg: string; doc: string; order: number; text: string; where: string; licence: string; entry: string[] }

const STOP = new Set('the a an to of in on for and or with from by is are be now no longer use uses used support when this that it its as at into was were has have not new fix fixed add added update updated bump bumped remove removed'.split(' '));
const words = (t: string) => new Set((t.toLowerCase().match(/[a-z][a-z0-9.+-]{2,}/g) ?? []).filter((w) => !STOP.has(w)));

function npmLines(): Line[] {
  const out: Line[] = [];
  const seen = new Set<string>();
  for (const dir of packageDirs(root)) {
    let pj: { name: string; license?: string };
    try { pj = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')); } catch { continue; }
    if (typeof pj.name !== 'string' || seen.has(pj.name) || !/^(?:MIT|ISC|BSD|Apache)/i.test(String(pj.license ?? ''))) continue;
    const file = readdirSync(dir).find((n) => /^(?:HISTORY|CHANGELOG|CHANGES)\.md$/i.test(n));
    if (!file) continue;
    seen.add(pj.name);
    const sections = readFileSync(join(dir, file), 'utf8').split(/\n(?=(?:#+ *)?\[?v?\d+\.\d+\.\d+[^\n]*\n)/);
    sections.forEach((sec, i) => {
      const header = sec.split('\n')[0].trim();
      const entry: string[] = [];
      for (const l of sec.split('\n')) {
        const m = /^\s*[*-]\s+(.{20,220})$/.exec(l);
        if (!m) continue;
        const text = m[1].replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/`/g, '').replace(/\s*\((?:#|\w+\/\w+#)\d+\)\s*$/, '').replace(/\s+/g, ' ').trim();
        if (text.length < 20) continue;
        entry.push(text);
        out.push({ pkg: pj.name, doc: `npm:${pj.name}`, order: sections.length - i, text, where: `node_modules/${pj.name}/${file}: ${header}`, licence: String(pj.license), entry });
      }
    });
  }
  return out;
}

const PERMISSIVE = /^(?:mit|expat|bsd|isc|apache|x11|public-domain|pd-debian|curl|bsl|zlib|artistic)/i;
function debianLines(): Line[] {
  const out: Line[] = [];
  const seen = new Set<string>();
  for (const name of readdirSync('/usr/share/doc').sort()) {
    const dir = join('/usr/share/doc', name);
    const file = join(dir, 'changelog.Debian.gz');
    if (!existsSync(file) || !existsSync(join(dir, 'copyright'))) continue;
    let licence: string | null = null;
    for (const stanza of readFileSync(join(dir, 'copyright'), 'utf8').split(/\n\s*\n/)) {
      const files = /^Files:(.*(?:\n[ \t]+.*)*)/m.exec(stanza);
      if (files && files[1].includes('debian/*')) licence = /^License:\s*(\S+)/m.exec(stanza)?.[1] ?? null;
    }
    if (!licence || !PERMISSIVE.test(licence)) continue;
    let text: string;
    try { text = gunzipSync(readFileSync(file)).toString('utf8'); } catch { continue; }
    const blocks = text.split(/\n(?=\S+ \([^)]+\) [^;]+; urgency=)/);
    const source = /^(\S+)/.exec(blocks[0])?.[1];
    if (!source || seen.has(source)) continue;
    seen.add(source);
    blocks.forEach((block, i) => {
      const header = block.split('\n')[0].trim();
      const bullets: string[] = [];
      for (const l of block.split('\n').slice(1)) {
        const m = /^\s+[*+-]\s+(.*)$/.exec(l);
        if (m) bullets.push(m[1].trim());
        else if (/^\s{4,}\S/.test(l) && bullets.length && !/^\s+\[/.test(l) && !/^ -- /.test(l)) bullets[bullets.length - 1] += ' ' + l.trim();
      }
      const entry: string[] = [];
      for (const b of bullets) {
        const t = b.replace(/\s*\(?closes:?\s*#?\d+[^)]*\)?\.?/gi, '').replace(/\s+/g, ' ').trim();
        if (t.length >= 20 && t.length <= 220) {
          entry.push(t);
          out.push({ pkg: source, doc: `debian:${source}`, order: blocks.length - i, text: t, where: `/usr/share/doc/${name}/changelog.Debian.gz: ${header}`, licence: `debian/* ${licence}`, entry });
        }
      }
    });
  }
  return out;
}

const lines = [...npmLines(), ...debianLines()];
const byDoc = new Map<string, Line[]>();
for (const l of lines) byDoc.set(l.doc, [...(byDoc.get(l.doc) ?? []), l]);
interface Candidate { doc: string; older: Line; newer: Line }
const out: Candidate[] = [];
const used = new Set<string>();
for (const [doc, list] of [...byDoc].sort()) {
  const anchors = list.filter((l) => CHANGE.test(l.text));
  for (const n of anchors) {
    const wn = words(n.text);
    const best = list.filter((o) => o.order < n.order && o.text !== n.text)
      .map((o) => ({ o, s: [...words(o.text)].filter((w) => wn.has(w)).length })).filter((x) => x.s >= 2).sort((a, b) => b.s - a.s)[0];
    if (!best || used.has(best.o.text + n.text)) continue;
    used.add(best.o.text + n.text);
    out.push({ doc, older: best.o, newer: n });
  }
}
if (process.argv.includes('--list')) {
  out.forEach((c, i) => console.log(`${i} ${c.doc} || ${c.older.text} => ${c.newer.text}`));
  process.exit(0);
}

const labels = new Map<number, { label: 'rdf_conflict' | 'none'; kind: DevPair['kind'] }>();
for (const l of readFileSync(join(root, 'bench/contradictions-data/changes-labels.txt'), 'utf8').split('\n')) {
  const m = /^(\d+) ([rn]) (\w+)$/.exec(l.trim());
  if (m) labels.set(Number(m[1]), { label: m[2] === 'r' ? 'rdf_conflict' : 'none', kind: m[3] as DevPair['kind'] });
}
const h = (t: string) => createHash('sha1').update(t).digest().readUInt32BE(0) / 2 ** 32;
/** The memory: "package: line", or for a third of them the whole entry the line belongs to. */
/** Commit ids and PR numbers around a line are bookkeeping, not content. */
const clean = (t: string) => t.replace(/^(?:[0-9a-f]{7,40}|#\d+):\s*/, '').replace(/(?:\s+\(?#?\d+\)?)?\s+[0-9a-f]{7,40}$/, '').trim();
// (lines of the entry that share words with the other memory's entry, or that set a version, a
// standard, a compat level or a maintainer, are left out: they could carry a change of their own
// and make the label wrong)
const SETS_VALUE = /upstream|standards|std-vers|compat|debhelper|version|bump|maintainer|uploader|\d+\.\d+/i;
function memory(l: Line, other: Line): string {
  if (h(`long:${l.doc}:${l.text}`) >= 1 / 3 || l.entry.length < 2) return `${l.pkg}: ${clean(l.text)}`;
  const wo = new Set(other.entry.flatMap((x) => [...words(x)]));
  for (const w of words(other.text)) wo.add(w);
  const entry = l.entry.filter((x) => x === l.text || ([...words(x)].filter((w) => wo.has(w)).length < 2 && !SETS_VALUE.test(x)));
  const at = entry.indexOf(l.text);
  const around = entry.slice(Math.max(0, at - 3), at + 4);
  if (around.length < 2) return `${l.pkg}: ${clean(l.text)}`;
  return `${l.pkg}:\n${around.map((x) => `- ${clean(x)}`).join('\n')}`;
}
// Texts already in the other development sets are left out (no pair on both sides of two sets).
const known = new Set<string>();
for (const f of ['contradictions-dev.json', 'contradictions-agent.json']) {
  for (const p of (JSON.parse(readFileSync(join(root, 'test/fixtures', f), 'utf8')) as { pairs: DevPair[] }).pairs) {
    for (const t of [p.older, p.newer]) if (typeof t === 'string') known.add(t.replace(/^[^:]+:\s*/, '').replace(/\s*\(closes:[^)]*\)/i, '').trim());
  }
}
const pairs: DevPair[] = [];
let seq = 0;
const add = (o: Line, n: Line, label: DevPair['label'], kind: DevPair['kind']) => {
  const docs = [...new Set([o.doc, n.doc])];
  pairs.push({
    id: `c${String(++seq).padStart(4, '0')}`, split: splitOf(docs[0]), source: o.doc.split(':')[0] as DevPair['source'], docs,
    older: memory(o, n), newer: memory(n, o), label, kind,
    provenance: { older: { where: o.where, licence: o.licence }, newer: { where: n.where, licence: n.licence } },
  });
};
let dup = 0;
for (const [i, c] of out.entries()) {
  const lab = labels.get(i);
  if (!lab || clean(c.older.text) === clean(c.newer.text)) continue;
  if (known.has(c.older.text) && known.has(c.newer.text)) {
    dup++;
    continue;
  }
  add(c.older, c.newer, lab.label, lab.kind);
  if (lab.label === 'none') continue;
  // Another package making a change in the same words: another instance.
  const wn = words(c.newer.text);
  const other = lines.filter((l) => l.doc !== c.doc && splitOf(l.doc) === splitOf(c.doc) && CHANGE.test(l.text))
    .map((l) => ({ l, s: [...words(l.text)].filter((w) => wn.has(w)).length })).filter((x) => x.s >= 2)
    .sort((a, b) => b.s - a.s || h(a.l.text) - h(b.l.text))[0];
  if (other) add(other.l, c.newer, 'none', 'other_instance');
}
writeFileSync(join(root, 'test/fixtures/contradictions-changes.json'), JSON.stringify({
  about: 'Change-phrasing contradiction set: real changelog lines (npm HISTORY/CHANGELOG files in node_modules, MIT/ISC/BSD/Apache; Debian changelogs with a permissive debian/* licence) where the newer line states a change as people write one ("is now", "no longer", "instead of", "switch to", "bump … to", "replace X with Y", "drop support for"), paired with an earlier line of the same package and labelled by hand (bench/contradictions-data/changes-labels.txt), plus that newer line against another package making a change in the same words (another instance). A third of the memories are the whole changelog entry around the line. Built by bench/contradictions-data/mine-changes.ts; split per source document (split.ts).',
  pairs,
}, null, 1) + '\n');
const count = (f: (p: DevPair) => boolean) => pairs.filter(f).length;
console.log(`${pairs.length} pairs (${dup} left out: already in another set); conflicts ${count((p) => p.label !== 'none')}; held out ${count((p) => p.split === 'heldout')} (conflicts ${count((p) => p.split === 'heldout' && p.label !== 'none')})`);
for (const k of [...new Set(pairs.map((p) => p.kind))]) console.log(`${k}: ${count((p) => p.kind === k)}`);
