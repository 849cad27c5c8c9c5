// Long-memory retrieval benchmark (docs/retrieval.md): the LoCoMo conversations rewritten as long
// memories, as a chat client that stores a stretch of conversation at a time would write them —
// consecutive turns of a session joined into non-overlapping windows of 2,000–5,000 characters
// ("Speaker: text" lines), with the session as run_id and its date. Every conversation's memories
// go to one tenant and fleet, so each question is searched among all of them (hundreds of similar
// chat memories). Only questions whose evidence lies in a single memory are asked, so each has one
// right memory, usually a passage in its middle. R@1/5/10 and MRR of that memory, with the
// service's passages on and off, beside plain BM25 over the same memories, in one run, overall,
// per split (conversations of the LoCoMo development split, the rest) and per category. Reporting
// only: no search default is chosen on it. Data as for the LoCoMo benchmark (LOCI_LOCOMO_PATH,
// LOCI_LOCOMO_LIMIT); LOCI_LONGMEM_VARIANTS adds search configurations to compare.
//
// Two question sets: LoCoMo's own questions (they mostly repeat their evidence's words, so BM25
// finds nearly all of them), and `paraphrased` (longmem-data/paraphrased.json): questions about one
// turn each, written by writers who never saw the service, in their own words, as someone who
// remembers the gist but not the wording asks. LOCI_LONGMEM_SETS=locomo|paraphrased picks one.
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolveSearchConfig } from '../src/core/search/config.js';
import { startBenchServer, statusCounts, writeResult } from './lib.js';
import {
  bm25Fleet, DEV_CONVERSATIONS, emptyWritten, loadSamples, refreshStatistics, searchFleet, sessionsOf, setSearchConfig, turnContent,
  unitsIndexed, writeFleet, type Sample, type Written1,
} from './locomo.js';
import { aggregate, ADVERSARIAL, CATEGORIES, emptyRepairCounts, repairEvidence, scoreQuestion, type QuestionScore } from './locomo-metric.js';

const MIN_CHARS = 2_000;
const MAX_CHARS = 5_000;
const log = (msg: string) => console.log(`[longmem bench] ${msg}`);
/** Every conversation's memories in one fleet: a question competes with all of them. */
const FLEET = 'longmem';
const LONG_BATCH = 20;

/** A turn's id across conversations (LoCoMo's dia_ids restart in each one). */
const turnKey = (sample: Sample, diaId: string) => `${sample.sample_id}#${diaId}`;

/**
 * A conversation as long memories: each session's turns packed into non-overlapping
 * 2–5k-character windows; `diaIds` and `chunkOf` use turnKey.
 */
export function longItems(sample: Sample): { items: Written1[]; chunkOf: Map<string, number> } {
  const items: Written1[] = [];
  const chunkOf = new Map<string, number>();
  for (const { n, date, dateText, turns } of sessionsOf(sample)) {
    let lines: string[] = [];
    let ids: string[] = [];
    const flush = () => {
      if (!lines.length) return;
      for (const id of ids) chunkOf.set(id, items.length);
      items.push({
        item: {
          content: lines.join('\n'), run_id: `${sample.sample_id}/session_${n}`,
          ...(date ? { ts_valid_start: date } : {}), metadata: { session: n, ...(date ? { session_date: dateText } : {}) },
        },
        diaIds: ids,
      });
      lines = [];
      ids = [];
    };
    for (const t of turns) {
      const line = turnContent(t);
      const len = lines.reduce((a, l) => a + l.length + 1, 0);
      if (len >= MIN_CHARS && len + line.length > MAX_CHARS) flush();
      lines.push(line);
      ids.push(turnKey(sample, t.dia_id));
      if (len + line.length >= MAX_CHARS) flush();
    }
    // A short last stretch joins the one before it when that stays within the maximum.
    const last = items[items.length - 1];
    if (lines.length && last && last.item.run_id === `${sample.sample_id}/session_${n}` &&
        last.item.content.length + lines.join('\n').length < MAX_CHARS) {
      last.item.content += '\n' + lines.join('\n');
      for (const id of ids) chunkOf.set(id, items.length - 1);
      last.diaIds.push(...ids);
      lines = [];
      ids = [];
    }
    flush();
  }
  return { items, chunkOf };
}

const SETS = ['locomo', 'paraphrased'] as const;
type QuestionSet = typeof SETS[number];
const PARAPHRASED = new URL('./longmem-data/paraphrased.json', import.meta.url);

interface LongQuestion { set: QuestionSet; conversation: number; category: number; question: string; evidence: string[] }

/** The paraphrased questions of the conversations written (evidence: one dia_id each). */
function paraphrasedQuestions(): Array<{ conversation: number; evidence: string; question: string }> {
  return JSON.parse(readFileSync(PARAPHRASED, 'utf8')) as Array<{ conversation: number; evidence: string; question: string }>;
}

export interface LongAggregate { n: number; r1: number; r5: number; r10: number; mrr: number }

/** R@1 (the right memory first), R@5, R@10 and MRR, percentages; one right memory per question. */
export function longAggregate(scores: readonly QuestionScore[]): LongAggregate {
  const a = aggregate(scores);
  const r1 = scores.length ? scores.filter((s) => s.rr === 1).length / scores.length : 0;
  return { n: a.n, r1: Math.round(r1 * 1000) / 10, r5: a.r5, r10: a.r10, mrr: a.mrr };
}

/** Overall, per split and per category, for one system's scores of one set (same order as the questions). */
function breakdown(questions: readonly LongQuestion[], scores: readonly QuestionScore[], set: QuestionSet) {
  const pick = (keep: (q: LongQuestion) => boolean) =>
    longAggregate(scores.filter((_, i) => questions[i].set === set && keep(questions[i])));
  const byCategory: Record<string, LongAggregate> = {};
  if (set === 'locomo') {
    for (const c of Object.keys(CATEGORIES).map(Number)) {
      if (c !== ADVERSARIAL) byCategory[`${c} ${CATEGORIES[c]}`] = pick((q) => q.category === c);
    }
  }
  return {
    overall: pick(() => true),
    dev_split: pick((q) => q.conversation < DEV_CONVERSATIONS),
    held_split: pick((q) => q.conversation >= DEV_CONVERSATIONS),
    by_category: byCategory,
  };
}

export function printRows(rows: [string, LongAggregate][]) {
  const f = (x: number) => x.toFixed(1).padStart(6);
  console.log(`${'set'.padEnd(44)} ${'n'.padStart(5)} ${'R@1'.padStart(6)} ${'R@5'.padStart(6)} ${'R@10'.padStart(6)} ${'MRR'.padStart(6)}`);
  for (const [name, a] of rows) console.log(`${name.padEnd(44)} ${String(a.n).padStart(5)} ${f(a.r1)} ${f(a.r5)} ${f(a.r10)} ${f(a.mrr)}`);
}

export async function runLongMemBench() {
  const data = loadSamples();
  if (!data) {
    log('LoCoMo data not found: skipped (see docs/retrieval.md).');
    return { skipped: true };
  }
  const srv = await startBenchServer();
  try {
    const w = emptyWritten();
    const sets = SETS.filter((x) => (process.env.LOCI_LONGMEM_SETS || SETS.join(',')).split(',').includes(x));
    const paraphrased = sets.includes('paraphrased') ? paraphrasedQuestions() : [];
    let unplaced = 0;
    const questions: LongQuestion[] = [];
    const all: Written1[] = [];
    const known = new Set<string>();
    data.samples.forEach((s, conversation) => {
      const { items, chunkOf } = longItems(s);
      // Items of one conversation, then the next: chunk numbers offset by what came before.
      const offset = all.length;
      all.push(...items);
      for (const id of chunkOf.keys()) known.add(id);
      const own = new Set([...chunkOf.keys()].map((k) => k.slice(k.indexOf('#') + 1)));
      for (const q of paraphrased) {
        if (q.conversation !== conversation) continue;
        const id = turnKey(s, q.evidence);
        if (chunkOf.has(id)) questions.push({ set: 'paraphrased', conversation, category: 0, question: q.question, evidence: [id] });
        else unplaced++;
      }
      const repairs = emptyRepairCounts();
      for (const qa of s.qa) {
        if (!sets.includes('locomo') || qa.category === ADVERSARIAL) continue;
        const ev = repairEvidence(qa.evidence ?? [], own, repairs).map((id) => turnKey(s, id));
        const chunks = new Set(ev.map((id) => offset + chunkOf.get(id)!));
        if (ev.length === 0 || chunks.size !== 1) continue;
        // The right memory stands for its own index: one evidence id per question.
        questions.push({ set: 'locomo', conversation, category: qa.category, question: qa.question, evidence: [ev[0]] });
      }
    });
    // Long texts take longer to enrich: small batches finish within the bulk enrichment timeout on a loaded machine.
    await writeFleet(srv, w, FLEET, all, known, LONG_BATCH);
    const lengths = all.map((i) => i.item.content.length).sort((a, b) => a - b);
    log(`${data.samples.length} conversations: ${all.length} memories written to one fleet in ${w.writeS.toFixed(0)} s`);
    const indexed = await unitsIndexed(srv);
    await refreshStatistics(srv);
    const statuses = await statusCounts(srv);
    log(`memories per status after detection: ${JSON.stringify(statuses)}`);
    log(`${lengths.length} memories (median ${lengths[lengths.length >> 1]} chars), ${questions.length} questions ` +
      `(${sets.map((x) => `${x} ${questions.filter((q) => q.set === x).length}`).join(', ')}${unplaced ? `; ${unplaced} paraphrased not placed` : ''}); ` +
      `units indexed ${indexed.toFixed(1)} s after the writes`);

    const base = srv.services.search.config;
    // LOCI_LONGMEM_VARIANTS (JSON {name: search config overrides}) asks the same memories again
    // with other search configurations, after the two reported ones.
    const variants: [string, unknown][] = [
      ['Loci, passages on (defaults)', {}], ['Loci, passages off', { passages: { enabled: false } }],
      ...Object.entries(JSON.parse(process.env.LOCI_LONGMEM_VARIANTS || '{}') as Record<string, unknown>),
    ];
    const systems: [string, QuestionScore[]][] = [];
    const bm25: QuestionScore[] = [];
    const ids = w.dia.get(FLEET)!;
    const t0 = performance.now();
    for (const [name, overrides] of variants) {
      setSearchConfig(srv, resolveSearchConfig(overrides, base));
      const scores: QuestionScore[] = [];
      for (const q of questions) {
        // Each memory stands for every turn in it: a hit is the memory holding the evidence.
        scores.push(scoreQuestion(await searchFleet(srv, FLEET, q.question, ids), q.evidence));
        if (bm25.length < questions.length) bm25.push(scoreQuestion(await bm25Fleet(srv, w, FLEET, q.question), q.evidence));
      }
      systems.push([name, scores]);
    }
    setSearchConfig(srv, base);
    systems.push(['BM25 (k1 1.2, b 0.75)', bm25]);
    const results = Object.fromEntries(sets.map((set) =>
      [set, Object.fromEntries(systems.map(([name, scores]) => [name, breakdown(questions, scores, set)]))]));
    const result = {
      data: {
        conversations: data.samples.length, memories: lengths.length, median_chars: lengths[lengths.length >> 1],
        min_chars: lengths[0], max_chars: lengths[lengths.length - 1],
        questions: Object.fromEntries(sets.map((x) => [x, questions.filter((q) => q.set === x).length])),
      },
      representation: 'consecutive turns of a session joined into non-overlapping 2–5k-char windows ("<speaker>: <text>" lines); ' +
        'run_id = session; ts_valid_start = session date; every conversation in one tenant and fleet',
      splits: `dev = conversations 0–${DEV_CONVERSATIONS - 1} (LoCoMo development split), held = the rest; no default was chosen on this benchmark`,
      statuses_after_detection: statuses,
      results,
      search_s: Math.round((performance.now() - t0) / 100) / 10,
      units_indexed_after_writes_s: Math.round(indexed * 10) / 10,
      load: loadavg().map((x) => Math.round(x * 100) / 100),
    };
    const file = writeResult('longmem', result);
    for (const set of sets) {
      for (const part of ['overall', 'dev_split', 'held_split'] as const) {
        console.log(`\n${set} questions: ${part}`);
        printRows(systems.map(([name]) => [name, results[set][name][part]]));
      }
      const cats = Object.keys(results[set][systems[0][0]].by_category);
      if (!cats.length) continue;
      console.log(`\n${set} questions by category`);
      const rows: [string, LongAggregate][] = [];
      for (const cat of cats) {
        for (const [name] of systems) rows.push([`${cat}: ${name}`, results[set][name].by_category[cat]]);
      }
      printRows(rows);
    }
    log(`results written to ${file}`);
    return result;
  } finally {
    await srv.close();
  }
}
