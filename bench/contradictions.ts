// Contradiction-detector quality through the real service path, on the HELD-OUT split of the
// development set (test/fixtures/contradictions-dev.json: real changelog lines and LoCoMo text,
// split per source document before any tuning; nothing is trained or tuned on it).
//  - For each pair, as a client would: write the older memory, write the newer one (HTTP, plain
//    content), drain the bus, then read GET …/memories/{newer}/contradictions (HTTP). A link from
//    the newer memory to the older one is a finding; its reason is the class.
//  - Each pair in its own tenant, and again all held-out pairs in ONE tenant (every other pair's
//    memories are candidates too; links to memories of other pairs are counted as `stray` — some
//    are right, several pairs come from one package — and left out of precision).
//  - Beside it, the same run with LOCI_CONTRADICTION_JUDGE=rules (today's rule judge) as the baseline.
//  - The hand-written fixtures (test/fixtures/contradictions*.json) run too, as regression sets:
//    they were written alongside the rules and are not the result; so do the lists of writers who
//    never saw the rules (contradictions-independent.json), development and held-back lists apart.
// Metrics: any-conflict precision and recall, class accuracy (right class among the conflicts
// found), 3-way accuracy, each with a Wilson 95 % interval; false alarms by hard-negative kind;
// the detector's time per memory (its whole run and the judging CPU within it).
// Writes bench/results/contradictions.json.
// Run: npm run bench contradictions
//   LOCI_BENCH_CONTRADICTIONS_LIMIT=N  first N pairs of each set
//   LOCI_BENCH_CONTRADICTIONS_SPLIT=tune  score the tune split instead (development only)
//   LOCI_BENCH_CONTRADICTIONS_BASELINE=0  skip the rule-judge baseline
//   LOCI_LOCOMO_PATH  where locomo10.json is (default ../shared/bench/locomo10.json)
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startBenchServer, writeResult, type BenchServer } from './lib.js';
import { DEV_FILES, devSets } from './contradictions-data/dev-set.js';
import type { DetectionResult } from '../src/core/contradictions/detector.js';
import { wilson } from '../src/core/contradictions/score.js';
import { analyzeMemory, judgeLearned } from '../src/core/contradictions/classifier.js';
import { judgePair, triplesOf } from '../src/core/contradictions/detect.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const TARGET = { precision: 0.9, recall: 0.7, class_accuracy: 0.8 };
const LIMIT = Number(process.env.LOCI_BENCH_CONTRADICTIONS_LIMIT ?? 0) || Infinity;

type Verdict = 'rdf_conflict' | 'semantic_conflict' | 'none';

interface BenchPair {
  id: string;
  older: string;
  newer: string;
  expected: Verdict;
  kind: string;
  source: string;
}

interface Outcome extends BenchPair {
  got: Verdict;
  /** Links from the newer memory to anything but its own older memory (one-tenant runs). */
  stray: number;
}

const ratio = (k: number, n: number) => ({ value: n ? Math.round((k / n) * 1000) / 1000 : null, k, n, ci95: wilson(k, n) });

export function metrics(rows: Outcome[]) {
  const conflict = (v: Verdict) => v !== 'none';
  const tp = rows.filter((r) => conflict(r.expected) && conflict(r.got)).length;
  const fp = rows.filter((r) => !conflict(r.expected) && conflict(r.got)).length;
  const fn = rows.filter((r) => conflict(r.expected) && !conflict(r.got)).length;
  const classOk = rows.filter((r) => conflict(r.expected) && r.got === r.expected).length;
  const exact = rows.filter((r) => r.got === r.expected).length;
  const stray = rows.reduce((a, r) => a + r.stray, 0);
  const byKind = new Map<string, { n: number; flagged: number }>();
  for (const r of rows) {
    const k = conflict(r.expected) ? `conflict:${r.source}` : r.kind;
    const e = byKind.get(k) ?? { n: 0, flagged: 0 };
    e.n++;
    if (conflict(r.got)) e.flagged++;
    byKind.set(k, e);
  }
  return {
    n: rows.length,
    conflicts: rows.filter((r) => conflict(r.expected)).length,
    hard_negatives: rows.filter((r) => !conflict(r.expected)).length,
    precision: ratio(tp, tp + fp),
    recall: ratio(tp, tp + fn),
    class_accuracy: ratio(classOk, tp),
    accuracy_3way: ratio(exact, rows.length),
    tp, fp, fn, stray_links: stray,
    flagged_by_kind: Object.fromEntries([...byKind].sort()),
  };
}

const body = (tenantId: string, content: string) => ({ tenant_id: tenantId, agent_id: 'bench', content });

/** Timings of every detection the service runs (wrapped around the detector's entry point). */
function timeDetections(srv: BenchServer) {
  const total: number[] = [];
  const judge: number[] = [];
  const detector = srv.services.detector;
  const original = detector.detect.bind(detector);
  detector.detect = async (tenantId: string, memoryId: string): Promise<DetectionResult> => {
    const t = performance.now();
    const r = await original(tenantId, memoryId);
    total.push(performance.now() - t);
    if (r.judge_ms !== undefined) judge.push(r.judge_ms);
    return r;
  };
  const pct = (xs: number[], p: number) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length ? Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] * 100) / 100 : null;
  };
  return () => ({
    detections: total.length,
    detection_ms: { p50: pct(total, 50), p95: pct(total, 95) },
    judge_cpu_ms: { p50: pct(judge, 50), p95: pct(judge, 95), mean: judge.length ? Math.round((judge.reduce((a, b) => a + b, 0) / judge.length) * 100) / 100 : null },
  });
}

/** Writes a memory; a text written before in the same tenant (one-tenant runs reuse some) answers 409 with its id. */
async function write(srv: BenchServer, tenantId: string, content: string): Promise<string> {
  const r = await srv.call('POST', '/api/v1/memories', body(tenantId, content));
  if (r.status === 409 && typeof r.body?.existing_id === 'string') return r.body.existing_id;
  if (r.status !== 201) throw new Error(`write answered ${r.status}: ${JSON.stringify(r.body).slice(0, 200)}`);
  return r.body.id;
}

/** What the contradictions endpoint says the newer memory replaced. */
async function linked(srv: BenchServer, tenantId: string, newerId: string): Promise<Array<{ id: string; reason: Verdict }>> {
  const r = await srv.call('GET', `/api/v1/memories/${newerId}/contradictions?tenant_id=${encodeURIComponent(tenantId)}`);
  if (r.status !== 200) throw new Error(`contradictions answered ${r.status}`);
  return (r.body.contradictions as Array<{ id: string; reason: Verdict; direction: string }>)
    .filter((c) => c.direction === 'supersedes').map((c) => ({ id: c.id, reason: c.reason }));
}

/** Every pair in its own tenant, or all in one (`shared`). */
async function runSet(srv: BenchServer, pairs: BenchPair[], run: string, shared: boolean): Promise<Outcome[]> {
  const ids: Array<{ tenantId: string; older: string; newer: string }> = [];
  const one = `bench-contra-${run}-all`;
  for (const [i, p] of pairs.entries()) {
    const tenantId = shared ? one : `bench-contra-${run}-${i}`;
    const older = await write(srv, tenantId, p.older);
    if (shared) await srv.services.bus.drain(120_000);
    const newer = await write(srv, tenantId, p.newer);
    if (shared) await srv.services.bus.drain(120_000);
    ids.push({ tenantId, older, newer });
  }
  await srv.services.bus.drain(300_000);
  const out: Outcome[] = [];
  for (const [i, p] of pairs.entries()) {
    const links = await linked(srv, ids[i].tenantId, ids[i].newer);
    const own = links.find((l) => l.id === ids[i].older);
    out.push({ ...p, got: own ? own.reason : 'none', stray: links.filter((l) => l.id !== ids[i].older).length });
  }
  return out;
}

/**
 * The judging CPU one detection adds for a short memory (80–200 characters, like the ~130-character
 * writes of the bulk benchmark) against `k` candidates of the same size: the triple extraction, the
 * rule judge and the learned judge (text analysis of the memory and each candidate, features,
 * model), in process, no database. Candidates are the memory's own tenant neighbours in the
 * service; here other short texts of the development set stand in for them.
 */
function judgeCpu(texts: string[], k = 10) {
  const short = [...new Set(texts.filter((t) => t.length >= 80 && t.length <= 200))];
  const rounds = Math.min(300, short.length);
  const time = (learned: boolean) => {
    const t0 = performance.now();
    for (let i = 0; i < rounds; i++) {
      const self = short[i];
      triplesOf({ content: self });
      const info = learned ? analyzeMemory(self) : null;
      for (let j = 1; j <= k; j++) {
        const other = short[(i + j * 7) % short.length];
        const rule = judgePair({ content: self }, { content: other }, { similarity: 0.7 });
        if (learned) judgeLearned(info!, analyzeMemory(other), { cosine: 0.7, sharedEntities: 1, rule: rule.verdict });
      }
    }
    return Math.round(((performance.now() - t0) / rounds) * 1000) / 1000;
  };
  time(true); // warm up
  return { memories: rounds, candidates_each: k, mean_chars: Math.round(short.slice(0, rounds).reduce((a, t) => a + t.length, 0) / Math.max(1, rounds)), rules_ms_per_memory: time(false), model_ms_per_memory: time(true) };
}

function fixtures(): Record<string, BenchPair[]> {
  const out: Record<string, BenchPair[]> = {};
  type Row = { older: unknown; newer: unknown; expected: Verdict; note?: string; list?: number };
  const add = (name: string, rows: Row[]) => {
    out[name] = rows
      .filter((r) => typeof r.older === 'string' && typeof r.newer === 'string')
      .slice(0, LIMIT)
      .map((r, i) => ({ id: `${name}#${i}`, older: r.older as string, newer: r.newer as string, expected: r.expected, kind: r.expected === 'none' ? 'fixture_negative' : 'update', source: 'fixture' }));
  };
  for (const f of ['contradictions.json', 'contradictions-holdout.json']) add(f, JSON.parse(readFileSync(join(root, 'test/fixtures', f), 'utf8')) as Row[]);
  // The conversational lists, each on its own (they were written at different points of the rules' development).
  const conv = (JSON.parse(readFileSync(join(root, 'test/fixtures/contradictions-conversational.json'), 'utf8')) as { pairs: Row[] }).pairs;
  for (const list of [...new Set(conv.map((r) => r.list))]) add(`contradictions-conversational.json list ${list}`, conv.filter((r) => r.list === list));
  // The lists of writers who never saw the rules: the development lists together, the held-back ones together.
  const independent = (JSON.parse(readFileSync(join(root, 'test/fixtures/contradictions-independent.json'), 'utf8')) as { pairs: Array<Row & { split: string }> }).pairs;
  for (const split of ['dev', 'heldback']) add(`contradictions-independent.json ${split}`, independent.filter((r) => r.split === split));
  return out;
}

const line = (name: string, m: ReturnType<typeof metrics>) => {
  const f = (r: { value: number | null; ci95: [number, number] }) => `${r.value ?? '-'} [${r.ci95[0]}, ${r.ci95[1]}]`;
  console.log(`${name.padEnd(34)} n=${String(m.n).padEnd(4)} P ${f(m.precision).padEnd(22)} R ${f(m.recall).padEnd(22)} class ${f(m.class_accuracy).padEnd(22)} fp ${m.fp} stray ${m.stray_links}`);
};

export async function runContradictionBench(): Promise<object> {
  const split = process.env.LOCI_BENCH_CONTRADICTIONS_SPLIT === 'tune' ? 'tune' : 'heldout';
  // The changelog/LoCoMo set and the agent-style set, each scored on its own and combined.
  const sets = devSets();
  const skipped = sets.reduce((a, x) => a + x.skipped, 0);
  if (skipped) console.warn(`${skipped} LoCoMo pairs left out: no data set at ${sets[0].locomo ?? 'LOCI_LOCOMO_PATH / ../shared/bench/locomo10.json'}`);
  const heldBy = new Map(sets.map((x) => [x.name, x.pairs.filter((p) => p.split === split).slice(0, LIMIT)
    .map((p): BenchPair => ({ id: p.id, older: p.older, newer: p.newer, expected: p.label, kind: p.kind, source: p.source }))]));
  const held = heldBy.get('contradictions-dev.json')!;
  const dev = { pairs: sets.flatMap((x) => x.pairs) };
  const fx = fixtures();
  const run = randomBytes(3).toString('hex');

  const results: Record<string, { judge: string; set: string; tenants: string; metrics: ReturnType<typeof metrics>; timing?: unknown; misses?: unknown }> = {};
  const judges = process.env.LOCI_BENCH_CONTRADICTIONS_BASELINE === '0' ? (['model'] as const) : (['model', 'rules'] as const);
  for (const judge of judges) {
    const srv = await startBenchServer({ LOCI_LLM_URL: '', LOCI_CONTRADICTION_JUDGE: judge });
    try {
      const timing = timeDetections(srv);
      const all: Outcome[] = [];
      for (const [name, pairs] of heldBy) {
        const own = await runSet(srv, pairs, `${run}-${judge}-${name.replace(/\W/g, '')}`, false);
        all.push(...own);
        results[`${judge}/${split}:${name}`] = {
          judge, set: `${name} ${split}`, tenants: 'one per pair', metrics: metrics(own),
          misses: own.filter((o) => o.got !== o.expected).map((o) => ({ id: o.id, kind: o.kind, expected: o.expected, got: o.got, older: o.older.slice(0, 160), newer: o.newer.slice(0, 160) })),
        };
      }
      results[`${judge}/${split}`] = { judge, set: `both sets, ${split}`, tenants: 'one per pair', metrics: metrics(all), timing: timing() };
      if (judge === 'model') {
        const shared = await runSet(srv, held, `${run}-${judge}-shared`, true);
        results[`${judge}/${split}/one-tenant`] = {
          judge, set: `dev ${split}`, tenants: 'one for all pairs', metrics: metrics(shared),
          misses: shared.filter((o) => o.got !== o.expected).map((o) => ({ id: o.id, kind: o.kind, expected: o.expected, got: o.got, stray: o.stray })),
        };
      }
      for (const [name, pairs] of Object.entries(fx)) {
        results[`${judge}/${name}`] = { judge, set: `${name} (regression)`, tenants: 'one per pair', metrics: metrics(await runSet(srv, pairs, `${run}-${judge}-${name.replace(/\W/g, '')}`, false)) };
      }
    } finally {
      await srv.close();
    }
  }

  const cpu = judgeCpu(dev.pairs.flatMap((p) => [p.older, p.newer]));
  const head = results[`model/${split}`].metrics;
  const out = {
    bench: 'contradictions',
    split,
    data: { files: DEV_FILES, locomo: sets[0].locomo, locomo_pairs_left_out: skipped },
    target: TARGET,
    judge_cpu: cpu,
    meets_target: (head.precision.value ?? 0) >= TARGET.precision && (head.recall.value ?? 0) >= TARGET.recall && (head.class_accuracy.value ?? 0) >= TARGET.class_accuracy,
    results,
  };
  const file = writeResult('contradictions', out);
  console.log(`contradictions: ${split} split of the development set through HTTP (write older, write newer, drain, GET …/contradictions); 95 % Wilson intervals`);
  for (const [name, r] of Object.entries(results)) line(name, r.metrics);
  for (const [name, r] of Object.entries(results)) if (r.timing) console.log(`${name} timing ${JSON.stringify(r.timing)}`);
  console.log(`judging CPU per short memory against ${cpu.candidates_each} candidates (in process, shared machine): rules ${cpu.rules_ms_per_memory} ms, rules + model ${cpu.model_ms_per_memory} ms`);
  console.log(`false alarms by kind (model, ${split}): ${JSON.stringify(head.flagged_by_kind)}`);
  console.log(`wrote ${file}`);
  return out;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runContradictionBench();
}
