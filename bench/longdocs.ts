// Long-document retrieval benchmark (docs/retrieval.md, "Long documents"): the documentation the
// installed packages ship (bench/longdocs-corpus.ts: ~800 memories of 2–7k characters, technical
// prose with code) written as bare memories to one tenant and fleet, and questions about one detail
// in each asked memory's middle or end, written by six writers who never saw the service
// (longmem-data/docs-questions.json: `{key, question, quote}`, the quote a verbatim span holding the
// answer). R@1/5/10 and MRR of the right memory for the service's defaults, passages off, each leg
// alone, and plain BM25 over the same memories, in one run; per half (the packages of the
// development half, the rest), by a hash of the package name. LOCI_LONGDOCS_VARIANTS (JSON {name:
// search config overrides}) asks again with other configurations; LOCI_LONGDOCS_STORE=dir keeps
// the written store there, and a later run with it asks again without writing; LOCI_LONGDOCS_DUMP=file
// writes each question with its reciprocal rank under every system; LOCI_LONGDOCS_QUESTIONS=file asks
// another question file of the same shape.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolveSearchConfig } from '../src/core/search/config.js';
import { startBenchServer, statusCounts, writeResult } from './lib.js';
import {
  bm25Fleet, emptyWritten, loadWritten, refreshStatistics, saveWritten, searchFleet, setSearchConfig, unitsIndexed, writeFleet, type Written1,
} from './locomo.js';
import { scoreQuestion, type QuestionScore } from './locomo-metric.js';
import { longAggregate, printRows, type LongAggregate } from './longmem.js';
import { docMemories } from './longdocs-corpus.js';

const log = (msg: string) => console.log(`[longdocs bench] ${msg}`);
const FLEET = 'longdocs';
const BATCH = 20;
const QUESTIONS = process.env.LOCI_LONGDOCS_QUESTIONS || new URL('./longmem-data/docs-questions.json', import.meta.url);

interface DocQuestion { key: string; question: string; quote: string }

/** The development half: packages whose name hashes even (a package's memories stay in one half). */
const devPackage = (pkg: string) => createHash('sha256').update(pkg).digest()[0] % 2 === 0;

/** Reported configurations besides the defaults: what each leg brings alone. */
const BUILT_IN: [string, unknown][] = [
  ['Loci, passages off', { passages: { enabled: false } }],
  ['vector leg alone', { keyword: { enabled: false }, entity: { enabled: false } }],
  ['keyword leg alone', { vector: { enabled: false }, entity: { enabled: false } }],
];

export async function runLongDocsBench() {
  const memories = docMemories();
  if (memories.length < 100) {
    log(`only ${memories.length} long memories under node_modules: skipped (run npm install).`);
    return { skipped: true };
  }
  const byKey = new Map(memories.map((m) => [m.key, m]));
  const written = JSON.parse(readFileSync(QUESTIONS, 'utf8')) as DocQuestion[];
  // (a question whose quote is gone from its memory, after a package update, is left out and counted)
  const asked = written.filter((q) => byKey.get(q.key)?.content.includes(q.quote));
  const all = written.length;
  const store = process.env.LOCI_LONGDOCS_STORE || undefined;
  const srv = await startBenchServer({}, { dataDir: store });
  try {
    let w = store ? await loadWritten(srv, store) : null;
    // (null when a kept store was asked again: nothing was written)
    let indexed: number | null = null;
    if (!w) {
      w = emptyWritten();
      const items: Written1[] = memories.map((m) => ({ item: { content: m.content, metadata: {} }, diaIds: [m.key] }));
      await writeFleet(srv, w, FLEET, items, new Set(memories.map((m) => m.key)), BATCH);
      indexed = await unitsIndexed(srv);
      await refreshStatistics(srv);
      if (store) saveWritten(store, w);
    }
    const statuses = await statusCounts(srv);
    const lengths = memories.map((m) => m.content.length).sort((a, b) => a - b);
    log(`${memories.length} memories of ${new Set(memories.map((m) => m.pkg)).size} packages (median ${lengths[lengths.length >> 1]} chars) ` +
      `${indexed === null ? 'asked again from the kept store' : `written in ${w.writeS.toFixed(0)} s, units indexed ${indexed.toFixed(1)} s after`}; ` +
      `statuses ${JSON.stringify(statuses)}; ` +
      `${asked.length} of ${all} questions placed`);

    const base = srv.services.search.config;
    const variants: [string, unknown][] = [
      ['Loci (defaults)', {}], ...BUILT_IN,
      ...Object.entries(JSON.parse(process.env.LOCI_LONGDOCS_VARIANTS || '{}') as Record<string, unknown>),
    ];
    const ids = w.dia.get(FLEET)!;
    const systems: [string, QuestionScore[]][] = [];
    const t0 = performance.now();
    for (const [name, overrides] of variants) {
      setSearchConfig(srv, resolveSearchConfig(overrides, base));
      const scores: QuestionScore[] = [];
      for (const q of asked) scores.push(scoreQuestion(await searchFleet(srv, FLEET, q.question, ids), [q.key]));
      systems.push([name, scores]);
    }
    setSearchConfig(srv, base);
    const bm25: QuestionScore[] = [];
    for (const q of asked) bm25.push(scoreQuestion(await bm25Fleet(srv, w, FLEET, q.question), [q.key]));
    systems.push(['BM25 (k1 1.2, b 0.75)', bm25]);

    const dev = asked.map((q) => devPackage(byKey.get(q.key)!.pkg));
    const part = (scores: QuestionScore[], keep: (i: number) => boolean) => longAggregate(scores.filter((_, i) => keep(i)));
    const results: Record<string, { overall: LongAggregate; dev_half: LongAggregate; held_half: LongAggregate }> = {};
    if (process.env.LOCI_LONGDOCS_DUMP) {
      writeFileSync(process.env.LOCI_LONGDOCS_DUMP, JSON.stringify(asked.map((q, i) => ({
        ...q, dev: dev[i], rr: Object.fromEntries(systems.map(([name, scores]) => [name, scores[i].rr])),
      }))));
    }
    for (const [name, scores] of systems) {
      results[name] = { overall: part(scores, () => true), dev_half: part(scores, (i) => dev[i]), held_half: part(scores, (i) => !dev[i]) };
    }
    const result = {
      data: {
        memories: memories.length, packages: new Set(memories.map((m) => m.pkg)).size,
        median_chars: lengths[lengths.length >> 1], min_chars: lengths[0], max_chars: lengths[lengths.length - 1],
        questions: asked.length, questions_unplaced: all - asked.length,
        dev_half_questions: dev.filter(Boolean).length,
      },
      representation: 'bare content (no title, run or metadata): one memory per 2–7k-character stretch of a package\'s markdown docs, cut at headings',
      statuses_after_detection: statuses,
      results,
      search_s: Math.round((performance.now() - t0) / 100) / 10,
      units_indexed_after_writes_s: indexed === null ? null : Math.round(indexed * 10) / 10,
      load: loadavg().map((x) => Math.round(x * 100) / 100),
    };
    const file = writeResult('longdocs', result);
    for (const p of ['overall', 'dev_half', 'held_half'] as const) {
      console.log(`\n${p}`);
      printRows(systems.map(([name]) => [name, results[name][p]]));
    }
    log(`results written to ${file}`);
    return result;
  } finally {
    await srv.close();
  }
}
