// The embedded database's share of real writes: LoCoMo conversation lines (speaker and text, as a
// client writes them: bare content) in bulk by 4 clients until the detector and the search units
// are done, then quiet searches, then single writes. Per operation: the database worker's busy
// time (its event-loop utilisation: PGlite runs each statement synchronously in that thread), the
// process's CPU (all threads) and the wall time. The benchmark's own texts (bulk.ts) are one
// sentence each; conversation lines of several sentences get a search unit per sentence and one
// for their context, so this is where the units' index inserts show.
// Run: npm run bench dbwork   (BENCH_DBWORK_BULK, default 600; BENCH_DBWORK_SEARCHES 100;
// BENCH_DBWORK_SINGLE 50; LOCI_LOCOMO_PATH as for the locomo benchmark). Writes bench/results/dbwork.json.
import { randomUUID } from 'node:crypto';
import type { Worker } from 'node:worker_threads';
import { batchesOf, byClients, drained, sendBatch } from './bulk.js';
import { loadSamples, sessionsOf } from './locomo.js';
import { reportResult, startBenchServer, type BenchServer } from './lib.js';

const BULK = Number(process.env.BENCH_DBWORK_BULK ?? 600);
const SEARCHES = Number(process.env.BENCH_DBWORK_SEARCHES ?? 100);
const SINGLE = Number(process.env.BENCH_DBWORK_SINGLE ?? 50);
const CLIENTS = 4;
const BATCH = 100;

const round = (x: number) => Math.round(x * 100) / 100;

async function phase(srv: BenchServer, count: number, work: () => Promise<void>) {
  // The embedded database's worker thread (PgliteDb); absent on a Postgres server.
  const worker = (srv.services.db as unknown as { worker?: Worker }).worker;
  const elu0 = worker?.performance.eventLoopUtilization();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await work();
  await drained(srv);
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const busy = worker && elu0 ? worker.performance.eventLoopUtilization(elu0).active : null;
  return {
    n: count,
    db_busy_ms_per_op: busy === null ? null : round(busy / count),
    process_cpu_ms_per_op: round((cpu.user + cpu.system) / 1000 / count),
    wall_ms_per_op: round(wall / count),
  };
}

export async function runDbWorkBench() {
  const data = loadSamples();
  if (!data) {
    console.log('[dbwork] skipped: no LoCoMo data (LOCI_LOCOMO_PATH)');
    return null;
  }
  // Speaker and text alone: the photo captions the locomo benchmark adds are not part of a line.
  const lines = data.samples.flatMap((s) => sessionsOf(s).flatMap((x) => x.turns)).map((t) => `${t.speaker}: ${t.text}`);
  const texts = [...new Set(lines)].slice(0, BULK + SINGLE);
  const questions = data.samples.flatMap((s) => s.qa.map((q) => q.question)).slice(0, SEARCHES);
  const srv = await startBenchServer();
  try {
    const bulk = texts.slice(0, BULK);
    const bulkWrites = await phase(srv, bulk.length, async () => {
      await byClients(batchesOf(bulk, BATCH), CLIENTS, async (batch) => {
        const out = await sendBatch(srv, randomUUID(), batch);
        if (out.status !== 200) throw new Error(`bulk write answered ${out.status}`);
      });
    });
    const searches = await phase(srv, questions.length, async () => {
      for (const query of questions) {
        const r = await srv.call('POST', '/api/v1/search', { tenant_id: 'default', query });
        if (r.status !== 200) throw new Error(`search answered ${r.status}`);
      }
    });
    const singles = texts.slice(BULK);
    const singleWrites = await phase(srv, singles.length, async () => {
      for (const content of singles) {
        const r = await srv.call('POST', '/api/v1/memories', { tenant_id: 'default', agent_id: 'bench', content });
        if (r.status !== 201) throw new Error(`single write answered ${r.status}`);
      }
    });
    return reportResult('dbwork', {
      data: data.path, clients: CLIENTS, batch: BATCH,
      bulk_write: bulkWrites, search: searches, single_write: singleWrites,
      note: 'db_busy: the embedded database worker\'s event-loop busy time; each phase ends when the detector and the search units are done.',
    });
  } finally {
    await srv.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runDbWorkBench();
