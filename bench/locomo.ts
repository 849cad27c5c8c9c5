// LoCoMo retrieval benchmark (docs/retrieval.md): every turn of the ten LoCoMo conversations is
// written as one memory through POST /api/v1/memories/bulk (one fleet per conversation), every
// question asked through POST /api/v1/search restricted to its conversation; evidence recall@5/10/20
// and MRR per category, beside the published BM25 and DRAGON figures.
// Data: ../shared/bench/locomo10.json from the repository root, or LOCI_LOCOMO_PATH (not part of
// the repository: CC BY-NC, evaluation only). LOCI_LOCOMO_LIMIT=n runs the first n conversations.
// The search configuration is the service's own (LOCI_SEARCH_CONFIG overrides it, as for the server).
// LOCI_LOCOMO_ANALYZE=0 skips the statistics pass after the writes (refreshStatistics).
// LOCI_LOCOMO_DEV=1 runs the development split only. LOCI_LOCOMO_STORE=dir keeps the written store
// there: a later run with the same dir (and the same conversations) asks again without writing;
// LOCI_LOCOMO_WRITE_ONLY=1 (with a store) writes it and stops. LOCI_LOCOMO_PLAIN=1 writes each turn
// as bare content (no run_id, date or metadata).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { percentiles, startBenchServer, statusCounts, writeResult, type BenchServer } from './lib.js';
import { resolveSearchConfig, type SearchConfig } from '../src/core/search/config.js';
import { Bm25Index, lexemeBags, queryLexemes } from './bm25.js';
import {
  type Aggregate, emptyRepairCounts, repairEvidence, scoreQuestion, summarise, type QuestionScore, type RepairCounts,
} from './locomo-metric.js';

const DEFAULT_PATH = fileURLToPath(new URL('../../shared/bench/locomo10.json', import.meta.url));
const TENANT = 'default';
const BATCH = 100;
const TOP_K = 20;
const TARGETS = { r10: 70, bm25Margin10: 10 };
/** Conversations the defaults were chosen on; the rest is the reported split. */
export const DEV_CONVERSATIONS = 5;

const log = (msg: string) => console.log(`[locomo bench] ${msg}`);

export interface Turn { speaker: string; dia_id: string; text: string; blip_caption?: string }
export interface Qa { question: string; evidence: unknown[]; category: number }
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

/**
 * LOCI_LOCOMO_PLAIN=1: a turn is written as its text alone ("Speaker: text"), without run_id, date
 * or metadata, as a client that stores bare content writes it.
 */
const PLAIN = process.env.LOCI_LOCOMO_PLAIN === '1';

/** What a chat client writes for a turn: the text, its session as run_id, the session date, metadata. */
export interface Item { content: string; run_id?: string; ts_valid_start?: string; metadata: Record<string, unknown> }
/** An item and the dia_ids its memory stands for. */
export interface Written1 { item: Item; diaIds: string[] }

/** The sessions of a conversation in order: number, date (ISO or null), the raw date text, turns. */
export function sessionsOf(sample: Sample): { n: number; date: string | null; dateText: unknown; turns: Turn[] }[] {
  const c = sample.conversation;
  return Object.keys(c).map((k) => /^session_(\d+)$/.exec(k)).filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1])).sort((a, b) => a - b)
    .map((n) => ({ n, date: sessionDate(c[`session_${n}_date_time`]), dateText: c[`session_${n}_date_time`], turns: c[`session_${n}`] as Turn[] }));
}

/** The conversation's turns as bulk items, session by session, and every dia_id in it. */
function conversationItems(sample: Sample): { items: Written1[]; diaIds: Set<string> } {
  const items: Written1[] = [];
  const diaIds = new Set<string>();
  for (const { n, date, dateText, turns } of sessionsOf(sample)) {
    for (const t of turns) {
      diaIds.add(t.dia_id);
      items.push({
        item: PLAIN ? { content: turnContent(t), metadata: {} } : {
          content: turnContent(t),
          run_id: `${sample.sample_id}/session_${n}`,
          ...(date ? { ts_valid_start: date } : {}),
          metadata: { dia_id: t.dia_id, session: n, speaker: t.speaker, ...(date ? { session_date: dateText } : {}) },
        },
        diaIds: [t.dia_id],
      });
    }
  }
  return { items, diaIds };
}

interface BulkResult { status: string; id: string | null; duplicate_of: string | null; error: { code: string; message: string } | null }

/** Writes one batch, retrying 429/503/504 with the same attempt id; throws on any item error. */
async function writeBatch(srv: BenchServer, fleet: string, attempt: string, items: readonly Item[]): Promise<BulkResult[]> {
  for (let tries = 1; ; tries++) {
    const res = await fetch(`${srv.url}/api/v1/memories/bulk`, {
      method: 'POST',
      headers: { 'x-api-key': srv.key, 'content-type': 'application/json', 'x-bulk-attempt-id': attempt },
      body: JSON.stringify({ tenant_id: TENANT, agent_id: 'locomo', fleet_id: fleet, items: items.map((it) => ({ memory_type: 'episode', ...it })) }),
    });
    const body = await res.json() as { results?: BulkResult[] };
    if ([429, 503, 504].includes(res.status) && tries < 30) {
      await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after') ?? 2 ** (tries - 1)) * 1000));
      continue;
    }
    if (res.status !== 200 || !body.results) throw new Error(`bulk write ${attempt} answered ${res.status}: ${JSON.stringify(body).slice(0, 500)}`);
    // On a loaded machine enrichment may time out: the same attempt id retries only those items.
    if (body.results.some((r) => r.error?.code === 'enrichment_timeout') && tries < 30) {
      log(`${attempt}: enrichment timed out for some items, retrying`);
      continue;
    }
    const bad = body.results.filter((r) => r.error || (r.status !== 'created' && r.status !== 'duplicate_content' && r.status !== 'duplicate_attempt'));
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
  /** Per fleet: memory id → the dia_ids it stands for. */
  dia: Map<string, Map<string, string[]>>;
  /** Per fleet: every dia_id in it. */
  known: Map<string, Set<string>>;
  /** Per fleet: plain BM25 over the stored contents (the reference ranking). */
  bm25: Map<string, Bm25Index>;
  /** Per fleet: memory id → stored content. */
  contents: Map<string, Map<string, string>>;
  turns: number;
  duplicates: number;
  batchMs: number[];
  writeS: number;
}

export const emptyWritten = (): Written => ({ dia: new Map(), known: new Map(), bm25: new Map(), contents: new Map(), turns: 0, duplicates: 0, batchMs: [], writeS: 0 });

/** Writes one fleet's items in bulk batches (of 100 by default), and indexes what was stored for BM25. */
export async function writeFleet(srv: BenchServer, w: Written, fleet: string, items: readonly Written1[], known: Set<string>, batchSize = BATCH) {
  const t0 = performance.now();
  w.known.set(fleet, known);
  const ids = new Map<string, string[]>();
  const contents = new Map<string, string>();
  for (let b = 0; b < items.length; b += batchSize) {
    const batch = items.slice(b, b + batchSize);
    const t = performance.now();
    const results = await writeBatch(srv, fleet, `bench-${fleet}-${b / batchSize}`, batch.map((x) => x.item));
    w.batchMs.push(performance.now() - t);
    results.forEach((r, i) => {
      // A text repeating an earlier one word for word is stored once; that memory stands for both.
      const id = r.status === 'duplicate_content' ? r.duplicate_of! : r.id!;
      if (r.status === 'duplicate_content') w.duplicates++;
      else contents.set(id, batch[i].item.content);
      ids.set(id, [...(ids.get(id) ?? []), ...batch[i].diaIds]);
    });
  }
  const index = new Bm25Index();
  const entries = [...contents];
  const bags = await lexemeBags(srv.services.db, entries.map(([, c]) => c));
  entries.forEach(([id], i) => index.add(id, bags[i]));
  w.bm25.set(fleet, index);
  w.contents.set(fleet, contents);
  w.dia.set(fleet, ids);
  w.turns += items.length;
  w.writeS += (performance.now() - t0) / 1000;
}

/** Writes every turn of the samples, in bulk batches of 100, conversation after conversation. */
export async function writeConversations(srv: BenchServer, samples: readonly Sample[]): Promise<Written> {
  const w = emptyWritten();
  for (const s of samples) {
    const { items, diaIds } = conversationItems(s);
    await writeFleet(srv, w, s.sample_id, items, diaIds);
    log(`${s.sample_id}: ${items.length} turns written`);
  }
  return w;
}

export interface ScoredQuestion {
  conversation: number; category: number; question: string; score: QuestionScore; bm25: QuestionScore;
  /** The evidence and both top-10 rankings (dia_ids), for LOCI_LOCOMO_DUMP. */
  evidence: string[]; ranked: string[][]; bm25Ranked: string[][];
}

export interface Asked {
  scored: ScoredQuestion[];
  searchMs: number[];
  repairs: RepairCounts;
}

/** One search through the API, mapped to the dia_ids of each result. */
export async function searchFleet(srv: BenchServer, fleet: string, query: string, ids: Map<string, string[]>, extra: Record<string, unknown> = {}): Promise<string[][]> {
  const res = await fetch(`${srv.url}/api/v1/search`, {
    method: 'POST', headers: { 'x-api-key': srv.key, 'content-type': 'application/json' },
    body: JSON.stringify({ tenant_id: TENANT, fleet_id: fleet, query, top_k: TOP_K, ...extra }),
  });
  const body = await res.json() as { items?: { id: string; metadata: { dia_id?: string } }[] };
  if (res.status !== 200 || !body.items) throw new Error(`search answered ${res.status}: ${JSON.stringify(body).slice(0, 500)}`);
  return body.items.map((it) => ids.get(it.id) ?? (it.metadata.dia_id ? [it.metadata.dia_id] : []));
}

/** The plain BM25 ranking of a question within a fleet, as dia_id lists. */
export async function bm25Fleet(srv: BenchServer, w: Written, fleet: string, query: string): Promise<string[][]> {
  const ids = w.dia.get(fleet)!;
  return w.bm25.get(fleet)!.search(await queryLexemes(srv.services.db, query), TOP_K).map((id) => ids.get(id) ?? []);
}

/** What a kept store needs besides the database: the dia_ids of each memory and the stored contents. */
interface StoredWritten { dia: [string, [string, string[]][]][]; known: [string, string[]][]; contents: [string, [string, string][]][]; turns: number; duplicates: number }

export function saveWritten(dir: string, w: Written) {
  const s: StoredWritten = {
    dia: [...w.dia].map(([f, m]) => [f, [...m]]), known: [...w.known].map(([f, k]) => [f, [...k]]),
    contents: [...w.contents].map(([f, m]) => [f, [...m]]), turns: w.turns, duplicates: w.duplicates,
  };
  writeFileSync(join(dir, 'locomo-written.json'), JSON.stringify(s));
}

export async function loadWritten(srv: BenchServer, dir: string): Promise<Written | null> {
  const file = join(dir, 'locomo-written.json');
  if (!existsSync(file)) return null;
  const s = JSON.parse(readFileSync(file, 'utf8')) as StoredWritten;
  const w = emptyWritten();
  w.turns = s.turns;
  w.duplicates = s.duplicates;
  for (const [f, m] of s.dia) w.dia.set(f, new Map(m));
  for (const [f, k] of s.known) w.known.set(f, new Set(k));
  for (const [f, entries] of s.contents) {
    const index = new Bm25Index();
    const bags = await lexemeBags(srv.services.db, entries.map(([, c]) => c));
    entries.forEach(([id], i) => index.add(id, bags[i]));
    w.bm25.set(f, index);
  }
  return w;
}

/** Asks every question (evidence repaired first) through the search endpoint, within its conversation, and of BM25. */
export async function askQuestions(srv: BenchServer, samples: readonly Sample[], w: Written): Promise<Asked> {
  const out: Asked = { scored: [], searchMs: [], repairs: emptyRepairCounts() };
  for (const [conversation, s] of samples.entries()) {
    const ids = w.dia.get(s.sample_id)!;
    for (const qa of s.qa) {
      const evidence = repairEvidence(qa.evidence ?? [], w.known.get(s.sample_id)!, out.repairs);
      if (evidence.length === 0) continue;
      const t = performance.now();
      const ranked = await searchFleet(srv, s.sample_id, qa.question, ids);
      out.searchMs.push(performance.now() - t);
      const bm25 = await bm25Fleet(srv, w, s.sample_id, qa.question);
      out.scored.push({
        conversation, category: qa.category, question: qa.question, score: scoreQuestion(ranked, evidence), bm25: scoreQuestion(bm25, evidence),
        evidence, ranked: ranked.slice(0, 10), bm25Ranked: bm25.slice(0, 10),
      });
    }
  }
  return out;
}

/** The samples to run (LOCI_LOCOMO_PATH, LOCI_LOCOMO_LIMIT); null when the data is not there. */
export function loadSamples(): { path: string; samples: Sample[] } | null {
  const path = process.env.LOCI_LOCOMO_PATH || DEFAULT_PATH;
  if (!existsSync(path)) return null;
  const all = JSON.parse(readFileSync(path, 'utf8')) as Sample[];
  const limit = process.env.LOCI_LOCOMO_DEV === '1' ? DEV_CONVERSATIONS : Number(process.env.LOCI_LOCOMO_LIMIT || all.length);
  return { path, samples: all.slice(0, limit) };
}

/**
 * PGlite has no autovacuum; the server refreshes planner statistics on a timer (every 10 min),
 * and the keyword leg's word frequencies come from them. The benchmark runs that pass once after
 * the writes, as a server up for a while would have, so results do not depend on the timer.
 */
export const refreshStatistics = (srv: BenchServer) => srv.services.db.query('VACUUM (ANALYZE)');

/** Loci and BM25 per category and overall, for one split of the questions. */
export function splitSummary(scored: readonly ScoredQuestion[]) {
  const loci = summarise(scored);
  const bm25 = summarise(scored.map((q) => ({ category: q.category, score: q.bm25 })));
  return { loci, bm25 };
}

export function printSplit(name: string, s: ReturnType<typeof splitSummary>) {
  console.log(`\n${name}`);
  const rows: [string, Aggregate][] = [];
  for (const [cat, a] of Object.entries(s.loci.by_category)) rows.push([`${cat}`, a], [`  BM25`, s.bm25.by_category[cat]]);
  rows.push(['overall excl. adversarial (Loci)', s.loci.overall_excl_adversarial], ['overall excl. adversarial (BM25)', s.bm25.overall_excl_adversarial]);
  rows.push(['overall incl. adversarial (Loci)', s.loci.overall_incl_adversarial], ['overall incl. adversarial (BM25)', s.bm25.overall_incl_adversarial]);
  printTable(rows);
}

/** Waits until the service has written every memory's passages and in-context units; seconds waited. */
export async function unitsIndexed(srv: BenchServer): Promise<number> {
  const t = performance.now();
  await srv.services.bus.drain(3_600_000);
  await srv.services.passages.settled();
  return (performance.now() - t) / 1000;
}

/** Swaps the running server's search configuration (benchmark variants only). */
export function setSearchConfig(srv: BenchServer, config: SearchConfig) {
  (srv.services.search as unknown as { deps: { config: SearchConfig } }).deps.config = config;
}

export async function runLocomoBench() {
  const data = loadSamples();
  if (!data) {
    log(`LoCoMo data not found at ${process.env.LOCI_LOCOMO_PATH || DEFAULT_PATH}: skipped. ` +
      'Put locomo10.json there or set LOCI_LOCOMO_PATH (see docs/retrieval.md).');
    return { skipped: true };
  }
  const { path, samples } = data;
  const analyze = process.env.LOCI_LOCOMO_ANALYZE !== '0';

  const store = process.env.LOCI_LOCOMO_STORE || undefined;
  const srv = await startBenchServer({}, { dataDir: store });
  try {
    const kept = store ? await loadWritten(srv, store) : null;
    let indexed = 0;
    let w: Written;
    if (kept) {
      w = kept;
      log(`reusing the store in ${store}: ${w.turns} turns`);
    } else {
      w = await writeConversations(srv, samples);
      indexed = await unitsIndexed(srv);
      log(`passages and in-context units written ${indexed.toFixed(1)} s after the last write`);
      log(`${w.turns} turns in ${w.writeS.toFixed(1)} s (${(w.turns / w.writeS).toFixed(1)}/s); ${w.duplicates} repeated an earlier turn word for word`);
      if (analyze) await refreshStatistics(srv);
      if (store) saveWritten(store, w);
      if (store && process.env.LOCI_LOCOMO_WRITE_ONLY === '1') {
        log(`store written to ${store}; no questions asked (LOCI_LOCOMO_WRITE_ONLY)`);
        return { written: w.turns, write_s: round1(w.writeS), units_indexed_after_writes_s: round1(indexed), load: loadavg() };
      }
    }

    const statuses = await statusCounts(srv);
    log(`memories per status after detection: ${JSON.stringify(statuses)}`);

    // Variants (LOCI_LOCOMO_VARIANTS, JSON {name: search config overrides}) ask the same written
    // data again with another search configuration; the first is the one reported in full.
    const base = srv.services.search.config;
    const variants = Object.entries(JSON.parse(process.env.LOCI_LOCOMO_VARIANTS || '{"service defaults": {}}') as Record<string, unknown>);
    const compared: Record<string, unknown> = {};
    let a: Asked | null = null;
    for (const [name, overrides] of variants) {
      setSearchConfig(srv, resolveSearchConfig(overrides, base));
      const asked = await askQuestions(srv, samples, w);
      a ??= asked;
      const dev = splitSummary(asked.scored.filter((q) => q.conversation < DEV_CONVERSATIONS));
      const rep = splitSummary(asked.scored.filter((q) => q.conversation >= DEV_CONVERSATIONS));
      const line = (s: ReturnType<typeof splitSummary>) => ({
        r5: s.loci.overall_excl_adversarial.r5, r10: s.loci.overall_excl_adversarial.r10, mrr: s.loci.overall_excl_adversarial.mrr,
        multi_hop_r10: s.loci.by_category['1 multi-hop'].r10, open_domain_r10: s.loci.by_category['3 open-domain'].r10,
        bm25_r10: s.bm25.overall_excl_adversarial.r10,
      });
      compared[name] = { overrides, dev: line(dev), reported: line(rep) };
      log(`variant ${name}: dev ${JSON.stringify(line(dev))}${rep.loci.overall_excl_adversarial.n ? ` reported ${JSON.stringify(line(rep))}` : ''}`);
    }
    setSearchConfig(srv, base);
    const { repairs } = a!;
    const splits = {
      [`dev (conversations 0-${DEV_CONVERSATIONS - 1})`]: splitSummary(a!.scored.filter((q) => q.conversation < DEV_CONVERSATIONS)),
      [`reported (conversations ${DEV_CONVERSATIONS}-9)`]: splitSummary(a!.scored.filter((q) => q.conversation >= DEV_CONVERSATIONS)),
      all: splitSummary(a!.scored),
    };
    const reported = Object.values(splits)[1];
    const o = reported.loci.overall_excl_adversarial;
    const b = reported.bm25.overall_excl_adversarial;
    const search = percentiles(a!.searchMs);
    const result = {
      data: { path, conversations: samples.length, turns: w.turns, duplicate_turns: w.duplicates, questions_asked: a!.scored.length },
      representation: {
        content: '"<speaker>: <text>" + " [shares a photo: <blip_caption>]" when the turn shared one',
        ...(PLAIN ? { run_id: null, ts_valid_start: null, metadata: null } : {
          run_id: '<sample_id>/session_<n>', ts_valid_start: 'session date', metadata: 'dia_id, session, speaker, session_date' }),
        fleet: 'one per conversation (sample_id)', analyze_after_writes: analyze,
      },
      search_config_overrides: process.env.LOCI_SEARCH_CONFIG ?? null,
      search_config: srv.services.search.config,
      keyword_ranking: srv.services.search.keywordRanking,
      statuses_after_detection: statuses,
      evidence_repairs: { ...repairs, dropped_ids_count: repairs.dropped_ids.length },
      splits,
      variants: compared,
      targets: { ...TARGETS, split: 'reported', met: o.n > 0 && o.r10 >= TARGETS.r10 && o.r10 >= b.r10 + TARGETS.bm25Margin10 },
      units_indexed_after_writes_s: round1(indexed),
      // A reused store was written by an earlier run, which reported its writes.
      write: kept ? null : { turns: w.turns, wall_s: round1(w.writeS), turns_per_s: round1(w.turns / w.writeS), batch_latency: percentiles(w.batchMs) },
      search_latency: search,
      load: loadavg().map((x) => Math.round(x * 100) / 100),
    };
    const file = writeResult('locomo', result);
    // Every question with its evidence and both rankings, to read what a configuration misses.
    if (process.env.LOCI_LOCOMO_DUMP) writeFileSync(process.env.LOCI_LOCOMO_DUMP, JSON.stringify(a!.scored));

    for (const [name, s] of Object.entries(splits)) if (s.loci.overall_incl_adversarial.n > 0) printSplit(name, s);
    console.log(`\nevidence repairs: ${repairs.split_strings} strings split, ${repairs.fixed_ids} ids fixed, ` +
      `${repairs.dropped_ids.length} ids dropped (${repairs.dropped_ids.join(', ') || 'none'}), ${repairs.dropped_questions} questions without evidence not asked`);
    console.log(`writes: ${kept ? 'store reused' : `${round1(w.turns / w.writeS)} turns/s`}; search p50 ${search.p50_ms} ms, p95 ${search.p95_ms} ms; load ${result.load.join(' ')}`);
    console.log(`targets (reported split, excl. adversarial) R@10 >= ${TARGETS.r10} and >= BM25 + ${TARGETS.bm25Margin10}: ${result.targets.met ? 'met' : 'NOT met'}`);
    log(`results written to ${file}`);
    return result;
  } finally {
    await srv.close();
  }
}
