// LoCoMo retrieval benchmark (docs/retrieval.md): every turn of the ten LoCoMo conversations is
// written as one memory through POST /api/v1/memories/bulk (one fleet per conversation), every
// question asked through POST /api/v1/search restricted to its conversation; evidence recall@5/10/20
// and MRR per category, beside the published BM25 and DRAGON figures.
// Data: ../shared/bench/locomo10.json from the repository root, or LOCI_LOCOMO_PATH (not part of
// the repository: CC BY-NC, evaluation only). LOCI_LOCOMO_LIMIT=n runs the first n conversations.
// The search configuration is the service's own (LOCI_SEARCH_CONFIG overrides it, as for the server).
// LOCI_LOCOMO_ANALYZE=0 skips the statistics pass after the writes (refreshStatistics).
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { percentiles, startBenchServer, writeResult, type BenchServer } from './lib.js';
import {
  emptyRepairCounts, repairEvidence, scoreQuestion, summarise, type QuestionScore, type RepairCounts,
} from './locomo-metric.js';

const DEFAULT_PATH = fileURLToPath(new URL('../../shared/bench/locomo10.json', import.meta.url));
const TENANT = 'default';
const BATCH = 100;
const TOP_K = 20;
/** Characters of each previous turn quoted in a turn's title (the API allows 500 in all). */
const CONTEXT_TURN_CHARS = 200;
const TITLE_MAX = 500;
const TARGETS = { r10: 70, r5: 62 };

/** Published reference points (see the data README). */
const REFERENCES = {
  'BM25 (excl. adversarial)': { r5: 53.6, r10: 60.3, r20: 66.7, mrr: 46.2 },
  'DRAGON (paper, incl. adversarial)': { r5: 56.7, r10: 66.2, r20: null, mrr: null },
};

const log = (msg: string) => console.log(`[locomo bench] ${msg}`);

interface Turn { speaker: string; dia_id: string; text: string; blip_caption?: string }
interface Qa { question: string; evidence: unknown[]; category: number }
export interface Sample { sample_id: string; conversation: Record<string, unknown>; qa: Qa[] }

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** "1:56 pm on 8 May, 2023" → ISO instant (UTC); null when it does not read. */
export function sessionDate(s: unknown): string | null {
  const m = /(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})/i.exec(String(s ?? ''));
  if (!m) return null;
  const month = MONTHS.indexOf(m[5].toLowerCase());
  if (month < 0) return null;
  const hour = (Number(m[1]) % 12) + (m[3].toLowerCase() === 'pm' ? 12 : 0);
  return new Date(Date.UTC(Number(m[6]), month, Number(m[4]), hour, Number(m[2]))).toISOString();
}

const clip = (s: string, n: number) => (s.length <= n ? s : `${s.slice(0, n - 1).trimEnd()}…`);

/** A turn's content: "Speaker: text", and the caption of a photo it shares. */
export const turnContent = (t: Turn) => `${t.speaker}: ${t.text}${t.blip_caption ? ` [shares a photo: ${t.blip_caption}]` : ''}`;

/** A turn's title: the previous two turns of its session, as context ("A: … / B: …"); null for the first turn. */
export function turnTitle(session: readonly Turn[], i: number): string | null {
  const prev = session.slice(Math.max(0, i - 2), i);
  if (prev.length === 0) return null;
  return clip(prev.map((t) => `${t.speaker}: ${clip(t.text, CONTEXT_TURN_CHARS)}`).join(' / '), TITLE_MAX);
}

interface Item { content: string; title: string | null; ts_valid_start?: string; metadata: Record<string, unknown> }

/** The conversation's turns as bulk items, session by session, and every dia_id in it. */
function conversationItems(sample: Sample): { items: Item[]; diaIds: Set<string> } {
  const c = sample.conversation;
  const sessions = Object.keys(c).map((k) => /^session_(\d+)$/.exec(k)).filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1])).sort((a, b) => a - b);
  const items: Item[] = [];
  const diaIds = new Set<string>();
  for (const n of sessions) {
    const turns = c[`session_${n}`] as Turn[];
    const date = sessionDate(c[`session_${n}_date_time`]);
    turns.forEach((t, i) => {
      diaIds.add(t.dia_id);
      items.push({
        content: turnContent(t),
        title: turnTitle(turns, i),
        ...(date ? { ts_valid_start: date } : {}),
        metadata: { dia_id: t.dia_id, session: n, speaker: t.speaker, ...(date ? { session_date: c[`session_${n}_date_time`] } : {}) },
      });
    });
  }
  return { items, diaIds };
}

interface BulkResult { status: string; id: string | null; duplicate_of: string | null; error: { code: string; message: string } | null }

/** Writes one batch, retrying 429/503/504 with the same attempt id; throws on any item error. */
async function writeBatch(srv: BenchServer, fleet: string, attempt: string, items: Item[]): Promise<BulkResult[]> {
  for (let tries = 1; ; tries++) {
    const res = await fetch(`${srv.url}/api/v1/memories/bulk`, {
      method: 'POST',
      headers: { 'x-api-key': srv.key, 'content-type': 'application/json', 'x-bulk-attempt-id': attempt },
      body: JSON.stringify({ tenant_id: TENANT, agent_id: 'locomo', fleet_id: fleet, items: items.map((it) => ({ memory_type: 'episode', ...it })) }),
    });
    const body = await res.json() as { results?: BulkResult[] };
    if ([429, 503, 504].includes(res.status) && tries < 5) {
      await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after') ?? 2 ** (tries - 1)) * 1000));
      continue;
    }
    if (res.status !== 200 || !body.results) throw new Error(`bulk write ${attempt} answered ${res.status}: ${JSON.stringify(body).slice(0, 500)}`);
    const bad = body.results.filter((r) => r.error || (r.status !== 'created' && r.status !== 'duplicate_content'));
    if (bad.length) throw new Error(`bulk write ${attempt}: ${bad.length} item(s) failed, first: ${JSON.stringify(bad[0])}`);
    return body.results;
  }
}

const round1 = (x: number) => Math.round(x * 10) / 10;

export function printTable(rows: [string, { n?: number; r5: number | null; r10: number | null; r20: number | null; mrr: number | null }][]) {
  const f = (x: number | null | undefined) => (x === null || x === undefined ? '—' : x.toFixed(1)).padStart(6);
  console.log(`${'set'.padEnd(36)} ${'n'.padStart(5)} ${'R@5'.padStart(6)} ${'R@10'.padStart(6)} ${'R@20'.padStart(6)} ${'MRR'.padStart(6)}`);
  for (const [name, a] of rows) {
    console.log(`${name.padEnd(36)} ${String(a.n ?? '').padStart(5)} ${f(a.r5)} ${f(a.r10)} ${f(a.r20)} ${f(a.mrr)}`);
  }
}

export interface Written {
  /** Per conversation (fleet): memory id → the dia_ids it stands for. */
  dia: Map<string, Map<string, string[]>>;
  /** Per conversation: every dia_id in it. */
  known: Map<string, Set<string>>;
  turns: number;
  duplicates: number;
  batchMs: number[];
  writeS: number;
}

/** Writes every turn of the samples, in bulk batches of 100, conversation after conversation. */
export async function writeConversations(srv: BenchServer, samples: readonly Sample[]): Promise<Written> {
  const w: Written = { dia: new Map(), known: new Map(), turns: 0, duplicates: 0, batchMs: [], writeS: 0 };
  const t0 = performance.now();
  for (const s of samples) {
    const { items, diaIds } = conversationItems(s);
    w.known.set(s.sample_id, diaIds);
    const ids = new Map<string, string[]>();
    for (let b = 0; b < items.length; b += BATCH) {
      const batch = items.slice(b, b + BATCH);
      const t = performance.now();
      const results = await writeBatch(srv, s.sample_id, `locomo-${s.sample_id}-${b / BATCH}`, batch);
      w.batchMs.push(performance.now() - t);
      results.forEach((r, i) => {
        // A turn repeating an earlier one word for word is stored once; that memory stands for both.
        const id = r.status === 'created' ? r.id! : r.duplicate_of!;
        if (r.status === 'duplicate_content') w.duplicates++;
        ids.set(id, [...(ids.get(id) ?? []), batch[i].metadata.dia_id as string]);
      });
    }
    w.dia.set(s.sample_id, ids);
    w.turns += items.length;
    log(`${s.sample_id}: ${items.length} turns written`);
  }
  w.writeS = (performance.now() - t0) / 1000;
  return w;
}

export interface Asked {
  scored: { category: number; question: string; score: QuestionScore }[];
  searchMs: number[];
  repairs: RepairCounts;
}

/** Asks every question (evidence repaired first) through the search endpoint, within its conversation. */
export async function askQuestions(srv: BenchServer, samples: readonly Sample[], w: Written): Promise<Asked> {
  const out: Asked = { scored: [], searchMs: [], repairs: emptyRepairCounts() };
  for (const s of samples) {
    const ids = w.dia.get(s.sample_id)!;
    for (const qa of s.qa) {
      const evidence = repairEvidence(qa.evidence ?? [], w.known.get(s.sample_id)!, out.repairs);
      if (evidence.length === 0) continue;
      const t = performance.now();
      const res = await fetch(`${srv.url}/api/v1/search`, {
        method: 'POST', headers: { 'x-api-key': srv.key, 'content-type': 'application/json' },
        body: JSON.stringify({ tenant_id: TENANT, fleet_id: s.sample_id, query: qa.question, top_k: TOP_K }),
      });
      const body = await res.json() as { items?: { id: string; metadata: { dia_id?: string } }[] };
      out.searchMs.push(performance.now() - t);
      if (res.status !== 200 || !body.items) throw new Error(`search answered ${res.status}: ${JSON.stringify(body).slice(0, 500)}`);
      const ranked = body.items.map((it) => ids.get(it.id) ?? (it.metadata.dia_id ? [it.metadata.dia_id] : []));
      out.scored.push({ category: qa.category, question: qa.question, score: scoreQuestion(ranked, evidence) });
    }
  }
  return out;
}

/** The samples to run (LOCI_LOCOMO_PATH, LOCI_LOCOMO_LIMIT); null when the data is not there. */
export function loadSamples(): { path: string; samples: Sample[] } | null {
  const path = process.env.LOCI_LOCOMO_PATH || DEFAULT_PATH;
  if (!existsSync(path)) return null;
  const all = JSON.parse(readFileSync(path, 'utf8')) as Sample[];
  return { path, samples: all.slice(0, Number(process.env.LOCI_LOCOMO_LIMIT || all.length)) };
}

/**
 * PGlite has no autovacuum; the server refreshes planner statistics on a timer (every 10 min),
 * and the keyword leg's word frequencies come from them. The benchmark runs that pass once after
 * the writes, as a server up for a while would have, so results do not depend on the timer.
 */
export const refreshStatistics = (srv: BenchServer) => srv.services.db.query('VACUUM (ANALYZE)');

export async function runLocomoBench() {
  const data = loadSamples();
  if (!data) {
    log(`LoCoMo data not found at ${process.env.LOCI_LOCOMO_PATH || DEFAULT_PATH}: skipped. ` +
      'Put locomo10.json there or set LOCI_LOCOMO_PATH (see docs/retrieval.md).');
    return { skipped: true };
  }
  const { path, samples } = data;
  const analyze = process.env.LOCI_LOCOMO_ANALYZE !== '0';

  const srv = await startBenchServer();
  try {
    const w = await writeConversations(srv, samples);
    log(`${w.turns} turns in ${w.writeS.toFixed(1)} s (${(w.turns / w.writeS).toFixed(1)}/s); ${w.duplicates} repeated an earlier turn word for word`);
    if (analyze) await refreshStatistics(srv);

    const a = await askQuestions(srv, samples, w);
    const { repairs } = a;
    const summary = summarise(a.scored);
    const o = summary.overall_excl_adversarial;
    const search = percentiles(a.searchMs);
    const result = {
      data: { path, conversations: samples.length, turns: w.turns, duplicate_turns: w.duplicates, questions_asked: a.scored.length },
      representation: {
        content: '"<speaker>: <text>" + " [shares a photo: <blip_caption>]" when the turn shared one',
        title: `previous two turns of the session, "<speaker>: <text>" joined by " / " (each clipped to ${CONTEXT_TURN_CHARS} chars)`,
        ts_valid_start: 'session date', metadata: 'dia_id, session, speaker, session_date',
        fleet: 'one per conversation (sample_id)', analyze_after_writes: analyze,
      },
      search_config_overrides: process.env.LOCI_SEARCH_CONFIG ?? null,
      search_config: srv.services.search.config,
      evidence_repairs: { ...repairs, dropped_ids_count: repairs.dropped_ids.length },
      ...summary,
      references: REFERENCES,
      targets: { ...TARGETS, met: o.r10 >= TARGETS.r10 && o.r5 >= TARGETS.r5 },
      write: { turns: w.turns, wall_s: round1(w.writeS), turns_per_s: round1(w.turns / w.writeS), batch_latency: percentiles(w.batchMs) },
      search_latency: search,
    };
    const file = writeResult('locomo', result);

    console.log('');
    printTable([
      ...Object.entries(summary.by_category),
      ['overall excl. adversarial (Loci)', o],
      ['overall incl. adversarial (Loci)', summary.overall_incl_adversarial],
      ...Object.entries(REFERENCES),
    ]);
    console.log(`\nevidence repairs: ${repairs.split_strings} strings split, ${repairs.fixed_ids} ids fixed, ` +
      `${repairs.dropped_ids.length} ids dropped (${repairs.dropped_ids.join(', ') || 'none'}), ${repairs.dropped_questions} questions without evidence not asked`);
    console.log(`writes: ${round1(w.turns / w.writeS)} turns/s; search p50 ${search.p50_ms} ms, p95 ${search.p95_ms} ms`);
    console.log(`targets (excl. adversarial) R@10 >= ${TARGETS.r10}, R@5 >= ${TARGETS.r5}: ${result.targets.met ? 'met' : 'NOT met'}`);
    log(`results written to ${file}`);
    return result;
  } finally {
    await srv.close();
  }
}
