// Bulk write throughput over HTTP against its ceiling, the embedder alone, measured in the same run
// on the same texts with the same worker count. For short (~130-character) memories and long
// (2–5k-character) ones:
//   1. embedder alone: the texts in batches of the bulk size, CLIENTS batches at once; and, when
//      the service embeds more than the text itself (a long memory's passages), the embedder alone
//      over every text it embeds for those memories — the ceiling for a text read whole;
//   2. the full bulk path: the same texts over HTTP by CLIENTS clients, timed until the
//      contradiction detector and the passage indexer have drained their queues (entity extraction runs inside the write);
//   3. searches, one after another with a 100 ms pause, while other texts of the kind are written the
//      same way (BENCH_BULK_SEARCH_SHORT / _LONG, default half as many), against quiet searches just
//      before and just after (the larger store); the factor is against the larger quiet p95.
// Prints throughput, the ratio full/embedder (target ≥ 85 %), CPU per memory (all threads of the
// process: server, model and database workers) and so the non-embedding CPU per memory, the
// detector's backlog (peak depth, lag p50/p95) and the search latencies. Clients retry a
// 504/503/429 with the same attempt id, and the store is checked for exactly-once rows.
// Scale: BENCH_BULK_SHORT (short memories, default 3000), BENCH_BULK_LONG (long, default 300),
// BENCH_BULK_CLIENTS (default 4), BENCH_BULK_SIZE (short batch, default 100),
// BENCH_BULK_LONG_SIZE (long batch, default 20), BENCH_BULK_SINGLE (single writes per length, default 15).
// Then single writes of 130, 2,700 and 10,000 characters, p50 beside the embedding alone.
// Server settings come from the environment.
import { loadavg } from 'node:os';
import { percentiles, reportResult, startBenchServer, type BenchServer } from './lib.js';

const SHORT_N = Number(process.env.BENCH_BULK_SHORT ?? 3000);
const LONG_N = Number(process.env.BENCH_BULK_LONG ?? 300);
const CLIENTS = Number(process.env.BENCH_BULK_CLIENTS ?? 4);
const SHORT_SIZE = Number(process.env.BENCH_BULK_SIZE ?? 100);
const LONG_SIZE = Number(process.env.BENCH_BULK_LONG_SIZE ?? 20);
const SINGLE_N = Number(process.env.BENCH_BULK_SINGLE ?? 15);
/** Memories written while searches are timed (other texts than the throughput phase's). */
const SEARCH_SHORT_N = Number(process.env.BENCH_BULK_SEARCH_SHORT ?? Math.ceil(SHORT_N / 2));
const SEARCH_LONG_N = Number(process.env.BENCH_BULK_SEARCH_LONG ?? Math.ceil(LONG_N / 2));
const TARGET_RATIO = 0.85;
const TARGET_LAG_P95_MS = 2_000;
const TARGET_SEARCH_P95_FACTOR = 2;
/** Single-write p50 targets by length, on a quiet machine. */
const SINGLE_TARGET_MS: Record<number, number> = { 2_700: 100, 10_000: 300 };

const PEOPLE = ['Alice Martin', 'Bob Chen', 'Carol Diaz', 'Dan Okafor', 'Eve Larsen', 'Farid Haddad', 'Grace Kim', 'Hugo Petit'];
const PLACES = ['Paris', 'Berlin', 'Lisbon', 'Toronto', 'Nairobi', 'Osaka', 'Denver', 'Oslo'];
const ORGS = ['Acme Corp', 'Globex', 'Initech', 'Umbrella Labs', 'Stark Industries', 'Wayne Logistics'];
const TOPICS = ['the Q3 roadmap', 'the database migration', 'the pricing change', 'the incident review', 'the hiring plan', 'the API deprecation'];
const TURNS = [
  (p: string, q: string, pl: string, t: string, o: string, k: number) => `${p} said the work on ${t} at ${o} slipped by ${k} days because the vendor in ${pl} changed the delivery window again.`,
  (p: string, q: string, _pl: string, t: string, o: string, k: number) => `I asked ${q} whether ${o} still wants ${t} before the end of the quarter, and ${q} thinks ${k} more reviews are needed.`,
  (p: string, _q: string, pl: string, t: string, _o: string, k: number) => `We could move the ${pl} workshop to week ${k}; ${p} prefers that because ${t} needs another pass from legal.`,
  (_p: string, q: string, pl: string, t: string, o: string, k: number) => `The numbers for ${t} look better than expected: ${k * 7} signups in ${pl} last week, mostly from teams already using ${o}.`,
  (p: string, q: string, _pl: string, t: string, _o: string, k: number) => `${p} and ${q} disagree about ${t}; the compromise is a ${k}-week trial with a written review at the end.`,
  (p: string, _q: string, pl: string, _t: string, o: string, k: number) => `Remember that ${p} is travelling to ${pl} on day ${k} and will only answer messages about ${o} in the evening.`,
];

/** A varied, unique short memory (~130 characters; names, places and organisations give the extractor work). */
export function shortText(i: number): string {
  const n = i * 17 + 131;
  const p = PEOPLE[n % PEOPLE.length];
  const q = PEOPLE[(n + 3) % PEOPLE.length];
  return `${p} met ${q} in ${PLACES[(n >> 1) % PLACES.length]} to discuss ${TOPICS[(n >> 2) % TOPICS.length]} for ` +
    `${ORGS[(n >> 3) % ORGS.length]}; they agreed to revisit it in ${2 + (i % 9)} weeks (ref s-${i}).`;
}

/** A unique conversation-turn memory of 2,000–5,000 characters. */
export function longText(i: number): string {
  const target = 2_000 + ((i * 977) % 3_001);
  const parts: string[] = [];
  let len = 0;
  for (let k = 0; len < target; k++) {
    const n = i * 31 + k * 7;
    const s = TURNS[n % TURNS.length](PEOPLE[n % 8], PEOPLE[(n + 5) % 8], PLACES[(n >> 2) % 8], TOPICS[(n >> 1) % 6], ORGS[(n >> 3) % 6], 2 + (n % 23));
    parts.push(s);
    len += s.length + 1;
  }
  return `${parts.join(' ')} (turn l-${i})`;
}

const QUESTIONS = [
  'what did Alice decide about the pricing change', 'when is the Lisbon workshop', 'who disagrees about the hiring plan',
  'how many signups came from Osaka', 'is the database migration delayed', 'what does Globex want before the end of the quarter',
  'who is travelling to Berlin', 'why did the roadmap slip', 'trial period for the API deprecation', 'vendor delivery window Nairobi',
];

/** CPU time of this process, all threads (the server, its model and database workers run in it). */
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
/** Until the detector and the passage indexer have caught up: both are part of what a write costs. */
export async function drained(srv: BenchServer, ms = 600_000) {
  await srv.services.bus.drain(ms);
  await srv.services.passages.settled();
}
const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;
const load = () => loadavg().map((x) => round(x, 2));

interface Outcome { ms: number; status: number; created: number; errors: number; tries: number }

const MAX_TRIES = 20;

/** One batch as a careful client sends it: a 504/503/429 or a transient item error is retried with the same attempt id. */
export async function sendBatch(srv: BenchServer, attempt: string, contents: string[]): Promise<Outcome> {
  const items = contents.map((content) => ({ content }));
  const t = performance.now();
  const out: Outcome = { ms: 0, status: 0, created: 0, errors: items.length, tries: 0 };
  while (out.tries < MAX_TRIES) {
    out.tries++;
    const res = await fetch(`${srv.url}/api/v1/memories/bulk`, {
      method: 'POST',
      headers: { 'x-api-key': srv.key, 'content-type': 'application/json', 'x-bulk-attempt-id': attempt },
      body: JSON.stringify({ tenant_id: 'default', agent_id: 'bench', items }),
    });
    const body = await res.json() as { created?: number; errors?: number; results?: { error: { code: string } | null }[] };
    out.status = res.status;
    out.created += body.created ?? 0;
    out.errors = body.errors ?? items.length;
    const transient = (body.results ?? []).some((r) => r.error && r.error.code !== 'validation' && r.error.code !== 'forbidden');
    if (![429, 503, 504].includes(res.status) && !transient) break;
    await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after') ?? 1) * 1000));
  }
  out.ms = performance.now() - t;
  return out;
}

export const batchesOf = (texts: string[], size: number) =>
  Array.from({ length: Math.ceil(texts.length / size) }, (_, b) => texts.slice(b * size, (b + 1) * size));

/** Runs `work` over the batches with `clients` at once. */
export async function byClients<T>(batches: string[][], clients: number, work: (batch: string[], b: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  let next = 0;
  await Promise.all(Array.from({ length: clients }, async () => {
    while (next < batches.length) {
      const b = next++;
      out[b] = await work(batches[b], b);
    }
  }));
  return out;
}

/** Sequential searches until stopped; latencies in ms. */
function searchProbe(srv: BenchServer, label: string, pauseMs: number) {
  const samples: number[] = [];
  let stop = false;
  let i = 0;
  const done = (async () => {
    while (!stop) {
      const t = performance.now();
      const r = await srv.call('POST', '/api/v1/search', { tenant_id: 'default', agent_id: 'bench', top_k: 10, query: `${QUESTIONS[i % QUESTIONS.length]} ${label}${i}` });
      if (r.status !== 200) throw new Error(`search answered ${r.status}`);
      samples.push(performance.now() - t);
      i++;
      if (pauseMs) await new Promise((res) => setTimeout(res, pauseMs));
    }
  })();
  return { samples, async stop() { stop = true; await done; } };
}

async function quietSearch(srv: BenchServer, n: number, label: string) {
  const probe = searchProbe(srv, label, 0);
  while (probe.samples.length < n) await new Promise((r) => setTimeout(r, 20));
  await probe.stop();
  return percentiles(probe.samples);
}

async function measureClass(srv: BenchServer, name: 'short' | 'long', texts: string[], size: number, searchTexts: string[]) {
  const batches = batchesOf(texts, size);
  const chars = texts.reduce((n, t) => n + t.length, 0) / texts.length;
  const { embedder, backlog } = srv.services;
  console.log(`[bulk] ${name}: ${texts.length} texts of ${Math.round(chars)} chars on average, load ${load().join(' ')}`);

  // 1. The embedder alone, same texts, same batches, same concurrency.
  const uptimeEmbed = load();
  let t = performance.now();
  let c = cpuMs();
  await byClients(batches, CLIENTS, (b) => embedder.embed(b));
  const embedMs = performance.now() - t;
  const embedCpu = cpuMs() - c;
  const embedRate = texts.length / (embedMs / 1000);
  console.log(`[bulk] ${name}: embedder alone ${round(embedRate)}/s`);

  // 1b. The embedder alone over every text the service embeds for these memories: the memory and
  // its passages (USE-Lite reads a text's first 128 tokens, so the ceiling above reads only the
  // start of a long text), by the same batches of memories and the same concurrency.
  const whole = batches.map((b) => b.flatMap((text) => srv.services.passages.embeddedTexts(text)));
  const wholeTexts = whole.reduce((n, b) => n + b.length, 0);
  let wholeRate = embedRate;
  let wholeCpu = embedCpu;
  if (wholeTexts > texts.length) {
    t = performance.now();
    c = cpuMs();
    await byClients(whole, CLIENTS, (b) => embedder.embed(b));
    wholeRate = texts.length / ((performance.now() - t) / 1000);
    wholeCpu = cpuMs() - c;
    console.log(`[bulk] ${name}: embedder alone over the ${round(wholeTexts / texts.length, 2)} texts it embeds per memory ${round(wholeRate)} memories/s`);
  }

  // 2. The full bulk path over HTTP until the detector and the passages have drained. No searches
  // run here: their CPU would count against the writes, and faster searches would mean more of them.
  const peakBefore = backlog.stats().processed;
  backlog.resetWindow();
  const uptimeBulk = load();
  t = performance.now();
  c = cpuMs();
  let maxDepth = 0;
  const depthTimer = setInterval(() => { maxDepth = Math.max(maxDepth, backlog.stats().depth); }, 50);
  const outcomes = await byClients(batches, CLIENTS, (b, i) => sendBatch(srv, `${name}-${i}`, b));
  const writtenMs = performance.now() - t;
  await drained(srv);
  const bulkMs = performance.now() - t;
  const bulkCpu = cpuMs() - c;
  clearInterval(depthTimer);
  const lag = backlog.stats();
  const created = outcomes.reduce((n, o) => n + o.created, 0);
  const bulkRate = created / (bulkMs / 1000);
  const ratio = bulkRate / embedRate;
  const embedCpuPer = embedCpu / texts.length;
  const bulkCpuPer = bulkCpu / Math.max(1, created);
  const wholeCpuPer = wholeCpu / texts.length;

  // 3. Searches during another ingest of the same kind (other texts), one every 100 ms after the
  // last, against quiet searches just before and just after it (search cost grows with the store,
  // so the figure before alone would count that growth as interference).
  const quiet = await quietSearch(srv, 40, `${name}-quiet-`);
  const probe = searchProbe(srv, `${name}-busy-`, 100);
  const searchOutcomes = await byClients(batchesOf(searchTexts, size), CLIENTS, (b, i) => sendBatch(srv, `${name}-s${i}`, b));
  await drained(srv);
  await probe.stop();
  const busy = percentiles(probe.samples);
  const quietAfter = await quietSearch(srv, 40, `${name}-after-`);
  const quietRef = Math.max(quiet.p95_ms, quietAfter.p95_ms);
  console.log(`[bulk] ${name}: full path ${round(bulkRate)}/s = ${round(ratio * 100)} % of the embedder alone; ` +
    `non-embedding CPU ${round(bulkCpuPer - embedCpuPer, 2)} ms/memory; ` +
    `against every text it embeds ${round((bulkRate / wholeRate) * 100)} %, ${round(bulkCpuPer - wholeCpuPer, 2)} ms/memory besides; ` +
    `detection lag p95 ${lag.lag_p95_ms} ms; ` +
    `search p95 ${busy.p95_ms} ms during ingest vs ${quiet.p95_ms} ms quiet before / ${quietAfter.p95_ms} ms after`);
  return {
    texts: texts.length, mean_chars: Math.round(chars), batch_size: size,
    embedder_only: { load_avg: uptimeEmbed, wall_s: round(embedMs / 1000, 2), per_s: round(embedRate), cpu_ms_per_memory: round(embedCpuPer, 2) },
    // The memory and its passages or sentences, each embedded: what reading a text whole costs.
    embedder_every_text: { texts_per_memory: round(wholeTexts / texts.length, 2), per_s: round(wholeRate), cpu_ms_per_memory: round(wholeCpuPer, 2) },
    bulk_http: {
      load_avg: uptimeBulk, wall_s: round(bulkMs / 1000, 2), writes_done_s: round(writtenMs / 1000, 2), created, per_s: round(bulkRate),
      cpu_ms_per_memory: round(bulkCpuPer, 2),
      batch_latency: percentiles(outcomes.map((o) => o.ms)),
      final_statuses: outcomes.reduce<Record<string, number>>((m, o) => ({ ...m, [o.status]: (m[o.status] ?? 0) + 1 }), {}),
      retried_batches: outcomes.filter((o) => o.tries > 1).length,
      item_errors: outcomes.reduce((n, o) => n + o.errors, 0),
    },
    search_ingest: {
      texts: searchTexts.length, created: searchOutcomes.reduce((n, o) => n + o.created, 0),
      item_errors: searchOutcomes.reduce((n, o) => n + o.errors, 0),
      final_statuses: searchOutcomes.reduce<Record<string, number>>((m, o) => ({ ...m, [o.status]: (m[o.status] ?? 0) + 1 }), {}),
    },
    ratio: round(ratio, 3),
    non_embedding_cpu_ms_per_memory: round(bulkCpuPer - embedCpuPer, 2),
    ratio_to_every_text: round(bulkRate / wholeRate, 3),
    cpu_ms_per_memory_besides_every_text: round(bulkCpuPer - wholeCpuPer, 2),
    detector: { processed: lag.processed - peakBefore, peak_depth: lag.peak_depth, peak_depth_sampled: maxDepth, max_depth: lag.max_depth, lag_p50_ms: lag.lag_p50_ms, lag_p95_ms: lag.lag_p95_ms },
    search: {
      quiet, quiet_after: quietAfter, during_ingest: busy,
      // Against the larger of the two quiet p95s (the store before and after the ingest).
      p95_factor: round(busy.p95_ms / Math.max(0.01, quietRef), 2),
      p95_factor_vs_before: round(busy.p95_ms / Math.max(0.01, quiet.p95_ms), 2),
    },
  };
}

/**
 * Single writes of one length, sequential, beside the embedding of the same texts alone: the write's
 * p50 against its ceiling in the same conditions (each text is new, so nothing is cached).
 */
async function singleWrites(srv: BenchServer, chars: number, n: number) {
  const texts = Array.from({ length: n }, (_, i) => {
    let t = `(single ${chars}-${i}) `;
    for (let k = 0; t.length < chars; k++) t += `${longText(i * 13 + k + 77)} `;
    return t.slice(0, chars);
  });
  const embed: number[] = [];
  for (const t of texts) {
    const t0 = performance.now();
    await srv.services.embedder.embed([`${t} e`]);
    embed.push(performance.now() - t0);
  }
  const write: number[] = [];
  for (const t of texts) {
    const t0 = performance.now();
    const r = await srv.call('POST', '/api/v1/memories', { tenant_id: 'default', agent_id: 'single', content: t });
    if (r.status !== 201) throw new Error(`single write answered ${r.status}`);
    write.push(performance.now() - t0);
    await drained(srv, 120_000); // a quiet machine between writes: the detector and passages of the last one are done
  }
  return { chars, load_avg: load(), write: percentiles(write), embed_alone: percentiles(embed) };
}

export async function runBulkBench() {
  const srv = await startBenchServer();
  try {
    // Warm-up: loads the NLP models, warms the plans and gives searches something to find.
    await sendBatch(srv, 'warmup', Array.from({ length: 100 }, (_, i) => shortText(1_000_000 + i)));
    await sendBatch(srv, 'warmup-long', Array.from({ length: 10 }, (_, i) => longText(1_000_000 + i)));
    await drained(srv, 120_000);

    const texts = (n: number, make: (i: number) => string, from = 0) => Array.from({ length: n }, (_, i) => make(from + i));
    const short = await measureClass(srv, 'short', texts(SHORT_N, shortText), SHORT_SIZE, texts(SEARCH_SHORT_N, shortText, SHORT_N));
    const long = LONG_N > 0 ? await measureClass(srv, 'long', texts(LONG_N, longText), LONG_SIZE, texts(SEARCH_LONG_N, longText, LONG_N)) : null;

    const singles = [];
    for (const chars of [130, 2_700, 10_000]) singles.push(await singleWrites(srv, chars, SINGLE_N));
    for (const x of singles) console.log(`[bulk] single write of ${x.chars} chars: p50 ${x.write.p50_ms} ms (embedding alone ${x.embed_alone.p50_ms} ms)`);

    const expected = 110 + SHORT_N + SEARCH_SHORT_N + (LONG_N > 0 ? LONG_N + SEARCH_LONG_N : 0);
    const { rows } = await srv.services.db.query<{ n: number; contents: number; attempts: number }>(
      `SELECT count(*)::int AS n, count(DISTINCT content_hash)::int AS contents, count(DISTINCT client_request_id)::int AS attempts
       FROM memories WHERE tenant_id = 'default' AND agent_id = 'bench'`);
    const store = { expected_rows: expected, rows: rows[0].n, distinct_contents: rows[0].contents, distinct_request_ids: rows[0].attempts };
    const classes = [short, long].filter((x) => x !== null);
    const result = {
      config: {
        clients: CLIENTS, embed_workers: srv.services.config.embedWorkers, extract_workers: srv.services.config.extractWorkers,
        bulk_budget_ms: srv.services.config.bulkBudgetMs, detector_max_backlog: srv.services.config.detectorMaxBacklog,
      },
      short,
      long,
      single_writes: singles,
      store,
      targets: { ratio: TARGET_RATIO, lag_p95_ms: TARGET_LAG_P95_MS, search_p95_factor: TARGET_SEARCH_P95_FACTOR, single_write_p50_ms: SINGLE_TARGET_MS },
      pass: {
        no_errors: classes.every((s) => s.bulk_http.item_errors === 0 && s.search_ingest.item_errors === 0 &&
          [s.bulk_http.final_statuses, s.search_ingest.final_statuses].every((f) => Object.keys(f).every((k) => k === '200'))),
        exactly_once: store.rows === expected && store.distinct_contents === expected && store.distinct_request_ids === expected,
        ratio_short: short.ratio >= TARGET_RATIO,
        ratio_long: long ? long.ratio >= TARGET_RATIO : null,
        lag_p95: classes.every((s) => (s.detector.lag_p95_ms ?? 0) <= TARGET_LAG_P95_MS),
        search_p95_during_ingest: classes.every((s) => s.search.p95_factor <= TARGET_SEARCH_P95_FACTOR),
        single_write_p50: singles.every((x) => x.chars in SINGLE_TARGET_MS ? x.write.p50_ms <= SINGLE_TARGET_MS[x.chars] : true),
      },
    };
    return reportResult('bulk', result);
  } finally {
    await srv.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runBulkBench();
