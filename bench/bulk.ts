// Bulk write throughput over HTTP (embedded mode, default embedder): batches of 100 sent one after
// another, then by 20 concurrent clients. Clients retry a 504/503/429 with the same attempt id, as
// the API asks. Reports memories/s, CPU cost per memory and batch latency percentiles, and checks
// that every item was created exactly once (no errors left, no duplicate rows).
// Scale: BENCH_BULK_BATCHES (sequential batches, default 20), BENCH_BULK_CONCURRENT_BATCHES
// (default 60), BENCH_BULK_CLIENTS (default 20), BENCH_BULK_SIZE (items per batch, default 100).
// Server settings come from the environment as usual (LOCI_EMBED_WORKERS, LOCI_BULK_BUDGET_MS, …).
import { percentiles, reportResult, startBenchServer, type BenchServer } from './lib.js';

const SEQ_BATCHES = Number(process.env.BENCH_BULK_BATCHES ?? 20);
const CONC_BATCHES = Number(process.env.BENCH_BULK_CONCURRENT_BATCHES ?? 60);
const CLIENTS = Number(process.env.BENCH_BULK_CLIENTS ?? 20);
const SIZE = Number(process.env.BENCH_BULK_SIZE ?? 100);
const TARGET_PER_S = 150;

const PEOPLE = ['Alice Martin', 'Bob Chen', 'Carol Diaz', 'Dan Okafor', 'Eve Larsen', 'Farid Haddad', 'Grace Kim', 'Hugo Petit'];
const PLACES = ['Paris', 'Berlin', 'Lisbon', 'Toronto', 'Nairobi', 'Osaka', 'Denver', 'Oslo'];
const ORGS = ['Acme Corp', 'Globex', 'Initech', 'Umbrella Labs', 'Stark Industries', 'Wayne Logistics'];
const TOPICS = ['the Q3 roadmap', 'the database migration', 'the pricing change', 'the incident review', 'the hiring plan', 'the API deprecation'];

/** A varied, unique memory text (names, places and organisations give the entity extractor work). */
function text(batch: string, i: number): string {
  const n = batch.length * 131 + i * 17;
  const p = PEOPLE[n % PEOPLE.length];
  const q = PEOPLE[(n + 3) % PEOPLE.length];
  return `${p} met ${q} in ${PLACES[(n >> 1) % PLACES.length]} to discuss ${TOPICS[(n >> 2) % TOPICS.length]} for ` +
    `${ORGS[(n >> 3) % ORGS.length]}; they agreed to revisit it in ${2 + (i % 9)} weeks (ref ${batch}-${i}).`;
}

interface Outcome { ms: number; status: number; created: number; errors: number; serverMs: number; tries: number }

/** CPU time of this process, all threads (the server, its model and database workers run in it). */
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

// A refused batch is told when to come back (Retry-After), so a client may be refused a few times.
const MAX_TRIES = 10;

/**
 * Sends one batch as a careful client does: a 504, 503 or 429, or items that failed for a
 * transient cause, are retried with the same attempt id (the rows already stored come back as
 * duplicate_attempt). Latency covers every try.
 */
async function sendBatch(srv: BenchServer, attempt: string): Promise<Outcome> {
  const items = Array.from({ length: SIZE }, (_, i) => ({ content: text(attempt, i) }));
  const t = performance.now();
  const out: Outcome = { ms: 0, status: 0, created: 0, errors: SIZE, serverMs: 0, tries: 0 };
  while (out.tries < MAX_TRIES) {
    out.tries++;
    const res = await fetch(`${srv.url}/api/v1/memories/bulk`, {
      method: 'POST',
      headers: { 'x-api-key': srv.key, 'content-type': 'application/json', 'x-bulk-attempt-id': attempt },
      body: JSON.stringify({ tenant_id: 'default', agent_id: 'bench', items }),
    });
    const body = await res.json() as { created?: number; errors?: number; bulk_ms?: number; results?: { error: { code: string } | null }[] };
    out.status = res.status;
    out.created += body.created ?? 0;
    out.errors = body.errors ?? SIZE;
    out.serverMs += body.bulk_ms ?? 0;
    const transient = (body.results ?? []).some((r) => r.error && r.error.code !== 'validation' && r.error.code !== 'forbidden');
    if (![429, 503, 504].includes(res.status) && !transient) break;
    // Retry-After when given, otherwise back off 1, 2, 4… seconds.
    await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after') ?? 2 ** (out.tries - 1)) * 1000));
  }
  out.ms = performance.now() - t;
  return out;
}

function summarise(outcomes: Outcome[], wallMs: number, cpu: number) {
  const created = outcomes.reduce((n, o) => n + o.created, 0);
  const cpuPerMemory = created ? cpu / created : 0;
  return {
    batches: outcomes.length,
    memories: created,
    wall_s: Math.round(wallMs) / 1000,
    memories_per_s: Math.round((created / (wallMs / 1000)) * 10) / 10,
    // Less sensitive to other load on the machine than wall time: what the work costs, and the rate
    // two otherwise idle cores would reach if they were kept fully busy.
    cpu_ms_per_memory: Math.round(cpuPerMemory * 100) / 100,
    cpu_bound_memories_per_s_2_cores: cpuPerMemory ? Math.round(2000 / cpuPerMemory) : 0,
    batch_latency: percentiles(outcomes.map((o) => o.ms)),
    server_bulk_ms: percentiles(outcomes.map((o) => o.serverMs)),
    final_statuses: outcomes.reduce<Record<string, number>>((m, o) => ({ ...m, [o.status]: (m[o.status] ?? 0) + 1 }), {}),
    retried_batches: outcomes.filter((o) => o.tries > 1).length,
    item_errors: outcomes.reduce((n, o) => n + o.errors, 0),
  };
}

export async function runBulkBench() {
  const srv = await startBenchServer();
  try {
    await sendBatch(srv, 'warmup'); // loads the NLP models and warms the plans

    const seq: Outcome[] = [];
    const t0 = performance.now();
    const c0 = cpuMs();
    for (let b = 0; b < SEQ_BATCHES; b++) seq.push(await sendBatch(srv, `seq-${b}`));
    const sequential = summarise(seq, performance.now() - t0, cpuMs() - c0);

    const conc: Outcome[] = [];
    let next = 0;
    const t1 = performance.now();
    const c1 = cpuMs();
    await Promise.all(Array.from({ length: CLIENTS }, async () => {
      while (next < CONC_BATCHES) conc.push(await sendBatch(srv, `conc-${next++}`));
    }));
    const concurrent = summarise(conc, performance.now() - t1, cpuMs() - c1);

    const expected = SIZE * (1 + SEQ_BATCHES + CONC_BATCHES); // the warm-up batch too
    const { rows } = await srv.services.db.query<{ n: number; contents: number; attempts: number }>(
      `SELECT count(*)::int AS n, count(DISTINCT content_hash)::int AS contents, count(DISTINCT client_request_id)::int AS attempts
       FROM memories WHERE tenant_id = 'default'`);
    const store = { expected_rows: expected, rows: rows[0].n, distinct_contents: rows[0].contents, distinct_request_ids: rows[0].attempts };
    const clean = [sequential, concurrent].every((s) => s.item_errors === 0 && Object.keys(s.final_statuses).every((k) => k === '200'));
    const noDuplicates = store.rows === expected && store.distinct_contents === expected && store.distinct_request_ids === expected;

    const result = {
      config: {
        batch_size: SIZE, sequential_batches: SEQ_BATCHES, concurrent_batches: CONC_BATCHES, clients: CLIENTS,
        embed_workers: srv.services.config.embedWorkers, bulk_budget_ms: srv.services.config.bulkBudgetMs,
      },
      sequential,
      concurrent,
      store,
      targets: { memories_per_s: TARGET_PER_S },
      pass: {
        no_errors: clean,
        no_duplicates: noDuplicates,
        sequential_throughput: sequential.memories_per_s >= TARGET_PER_S,
        concurrent_throughput: concurrent.memories_per_s >= TARGET_PER_S,
      },
    };
    return reportResult('bulk', result);
  } finally {
    await srv.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runBulkBench();
