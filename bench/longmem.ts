// Long-memory retrieval benchmark (docs/retrieval.md): the LoCoMo conversations rewritten as long
// memories, as a chat client that stores a stretch of conversation at a time would write them —
// consecutive turns of a session joined into memories of 2,000–5,000 characters ("Speaker: text"
// lines), with the session as run_id and its date. Only questions whose evidence lies in a single
// memory are asked, so each has one right memory, usually a passage in its middle. Recall@k and
// MRR of that memory, with the service's passages on and off, beside plain BM25 over the same
// memories, in one run. Data as for the LoCoMo benchmark (LOCI_LOCOMO_PATH, LOCI_LOCOMO_LIMIT).
import { loadavg } from 'node:os';
import { resolveSearchConfig } from '../src/core/search/config.js';
import { startBenchServer, writeResult } from './lib.js';
import {
  bm25Fleet, emptyWritten, loadSamples, printTable, refreshStatistics, searchFleet, sessionsOf, setSearchConfig, turnContent,
  unitsIndexed, writeFleet, type Sample, type Written1,
} from './locomo.js';
import { aggregate, ADVERSARIAL, emptyRepairCounts, repairEvidence, scoreQuestion, type QuestionScore } from './locomo-metric.js';

const MIN_CHARS = 2_000;
const MAX_CHARS = 5_000;
const log = (msg: string) => console.log(`[longmem bench] ${msg}`);

/** A conversation as long memories: each session's turns packed into 2–5k-character stretches. */
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
      ids.push(t.dia_id);
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

export async function runLongMemBench() {
  const data = loadSamples();
  if (!data) {
    log('LoCoMo data not found: skipped (see docs/retrieval.md).');
    return { skipped: true };
  }
  const srv = await startBenchServer();
  try {
    const w = emptyWritten();
    const questions: { fleet: string; question: string; evidence: string[] }[] = [];
    const lengths: number[] = [];
    for (const s of data.samples) {
      const { items, chunkOf } = longItems(s);
      lengths.push(...items.map((i) => i.item.content.length));
      const known = new Set(chunkOf.keys());
      await writeFleet(srv, w, s.sample_id, items, known);
      const repairs = emptyRepairCounts();
      for (const qa of s.qa) {
        if (qa.category === ADVERSARIAL) continue;
        const ev = repairEvidence(qa.evidence ?? [], known, repairs);
        const chunks = new Set(ev.map((id) => chunkOf.get(id)));
        if (ev.length === 0 || chunks.size !== 1) continue;
        // The right memory stands for its own index: one evidence id per question.
        questions.push({ fleet: s.sample_id, question: qa.question, evidence: [ev[0]] });
      }
      log(`${s.sample_id}: ${items.length} memories written`);
    }
    const indexed = await unitsIndexed(srv);
    await refreshStatistics(srv);
    lengths.sort((a, b) => a - b);
    log(`${lengths.length} memories (median ${lengths[lengths.length >> 1]} chars), ${questions.length} questions; units indexed ${indexed.toFixed(1)} s after the writes`);

    const base = srv.services.search.config;
    const variants: [string, unknown][] = [['Loci (passages on)', {}], ['Loci, passages off', { passages: { enabled: false } }]];
    const rows: [string, ReturnType<typeof aggregate>][] = [];
    const bm25: QuestionScore[] = [];
    for (const [name, overrides] of variants) {
      setSearchConfig(srv, resolveSearchConfig(overrides, base));
      const scores: QuestionScore[] = [];
      for (const q of questions) {
        // Each memory stands for every dia_id in it: a hit is the memory holding the evidence.
        scores.push(scoreQuestion(await searchFleet(srv, q.fleet, q.question, w.dia.get(q.fleet)!), q.evidence));
        if (bm25.length < questions.length) bm25.push(scoreQuestion(await bm25Fleet(srv, w, q.fleet, q.question), q.evidence));
      }
      rows.push([name, aggregate(scores)]);
    }
    setSearchConfig(srv, base);
    rows.push(['BM25 (k1 1.2, b 0.75)', aggregate(bm25)]);
    const result = {
      data: { conversations: data.samples.length, memories: lengths.length, median_chars: lengths[lengths.length >> 1], min_chars: lengths[0], max_chars: lengths[lengths.length - 1], questions: questions.length },
      representation: 'consecutive turns of a session joined into 2–5k-char memories ("<speaker>: <text>" lines); run_id = session; ts_valid_start = session date',
      results: Object.fromEntries(rows),
      units_indexed_after_writes_s: Math.round(indexed * 10) / 10,
      load: loadavg().map((x) => Math.round(x * 100) / 100),
    };
    const file = writeResult('longmem', result);
    console.log('');
    printTable(rows);
    log(`results written to ${file}`);
    return result;
  } finally {
    await srv.close();
  }
}
