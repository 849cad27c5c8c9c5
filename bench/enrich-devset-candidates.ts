// Prints candidate sentences for the memory-type development set (bench/enrich-devset.ts):
// a seeded sample of segments from each source, with the locator the set stores. Labels are
// assigned by hand afterwards; sentences that are no memory (greetings, questions) are left out.
// Run: npx tsx bench/enrich-devset-candidates.ts > /tmp/candidates.tsv
import { loadLocomo, readSource, segmentId, type Split } from './enrich-devset.js';

export const FILE_SOURCES = [
  'node_modules/fastify/README.md', 'node_modules/pino/README.md', 'node_modules/zod/README.md',
  'node_modules/wink-nlp/README.md', 'node_modules/tsx/README.md', 'node_modules/undici/README.md',
  'node_modules/pino/CONTRIBUTING.md', 'node_modules/wink-nlp/CONTRIBUTING.md', 'node_modules/@mozilla/readability/CONTRIBUTING.md',
  'node_modules/readable-stream/GOVERNANCE.md', 'node_modules/wink-nlp/ROADMAP.md', 'node_modules/wink-nlp/CODE_OF_CONDUCT.md',
  'node_modules/typescript/SECURITY.md', 'node_modules/pino/SECURITY.md', 'node_modules/qs/CHANGELOG.md',
  'node_modules/form-data/CHANGELOG.md', 'node_modules/@xmldom/xmldom/CHANGELOG.md', 'node_modules/minimist/CHANGELOG.md',
  'node_modules/object-inspect/CHANGELOG.md', 'node_modules/mime-db/HISTORY.md',
  '/usr/share/doc/apt/changelog.gz', '/usr/share/doc/bash/changelog.Debian.gz', '/usr/share/doc/coreutils/changelog.Debian.gz',
  '/usr/share/doc/curl/changelog.Debian.gz', '/usr/share/doc/dpkg/changelog.gz', '/usr/share/doc/git/changelog.Debian.gz',
  '/usr/share/doc/openssl/changelog.Debian.gz', '/usr/share/doc/tar/changelog.Debian.gz', '/usr/share/doc/postgresql-15/changelog.Debian.gz',
  '/usr/share/doc/redis-server/changelog.Debian.gz',
  '/usr/share/doc/apt/NEWS.Debian.gz', '/usr/share/doc/openssh-client/NEWS.Debian.gz', '/usr/share/doc/systemd/NEWS.Debian.gz',
  '/usr/share/doc/mariadb-server/NEWS.Debian.gz', '/usr/share/doc/git/NEWS.Debian.gz', '/usr/share/doc/gnupg/NEWS.Debian.gz',
];

function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const usable = (s: string) =>
  s.length >= 25 && s.length <= 300 && s.split(/\s+/).length >= 4 && !/\?\s*$/.test(s) &&
  (s.match(/\p{L}/gu) ?? []).length / s.replace(/\s/g, '').length > 0.7;

function sample(segs: string[], k: number, seed: number): string[] {
  const pool = [...new Set(segs.filter(usable))];
  const r = rng(seed);
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return pool.slice(0, k);
}

const PER_LOCOMO = Number(process.env.PER_LOCOMO ?? 28);
const PER_FILE = Number(process.env.PER_FILE ?? 8);
const locomo = loadLocomo();
const rows: string[] = [];
[...(locomo?.keys() ?? [])].forEach((id, i) => {
  const split: Split = i < 5 ? 'dev' : 'test';
  for (const s of sample(readSource(`locomo:${id}`, locomo) ?? [], PER_LOCOMO, 1000 + i)) rows.push([`locomo:${id}`, segmentId(s), split, s].join('\t'));
});
const PER_OBS = Number(process.env.PER_OBS ?? 25);
[...(locomo?.keys() ?? [])].forEach((id, i) => {
  const split: Split = i < 5 ? 'dev' : 'test';
  for (const s of sample(readSource(`locomo-obs:${id}`, locomo) ?? [], PER_OBS, 3000 + i)) rows.push([`locomo-obs:${id}`, segmentId(s), split, s].join('\t'));
});
FILE_SOURCES.forEach((src, i) => {
  const split: Split = i % 2 === 0 ? 'dev' : 'test';
  for (const s of sample(readSource(`file:${src}`, null) ?? [], PER_FILE, 2000 + i)) rows.push([`file:${src}`, segmentId(s), split, s].join('\t'));
});
console.log(rows.join('\n'));
