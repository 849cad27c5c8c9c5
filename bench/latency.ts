// Write and list latency over HTTP at 100k memories in one tenant (embedded mode).
// The 100k rows are seeded with one SQL statement (list latency does not depend on how rows came in).
import { randomUUID } from 'node:crypto';
import { reportResult, startBenchServer, timeIt } from './lib.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);

export async function runLatencyBench() {
  // The seeding statement writes 100k rows with every index: longer than the service's 30 s statement limit.
  const srv = await startBenchServer({ LOCI_DB_STATEMENT_TIMEOUT_MS: String(3_600_000) });
  try {
    const db = srv.services.db;
    const t0 = performance.now();
    await db.query(
      `INSERT INTO memories (id, tenant_id, fleet_id, agent_id, memory_type, content, content_hash, weight, visibility, created_at)
       SELECT gen_random_uuid(), 'default', 'fleet-' || (g % 10), 'agent-' || (g % 50),
              (ARRAY['fact','episode','decision','preference','task'])[1 + g % 5],
              'seeded memory number ' || g, md5('seeded ' || g), (g % 100) / 100.0,
              (ARRAY['scope_team','scope_org','scope_agent'])[1 + g % 3],
              now() - (g || ' seconds')::interval
       FROM generate_series(1, $1::int) AS g`,
      [ROWS],
    );
    await db.query('ANALYZE memories');
    const seedMs = Math.round(performance.now() - t0);

    // Warm up the model and the query plans.
    for (let i = 0; i < 5; i++) await srv.call('GET', '/api/v1/memories?tenant_id=default&limit=50');

    const list = await timeIt(300, async () => {
      const r = await srv.call('GET', '/api/v1/memories?tenant_id=default&limit=50');
      if (r.status !== 200) throw new Error(`list answered ${r.status}`);
    });
    let cursor: string | null = null;
    const listCursor = await timeIt(200, async () => {
      const r = await srv.call('GET', `/api/v1/memories?tenant_id=default&limit=50${cursor ? `&cursor=${cursor}` : ''}`);
      if (r.status !== 200) throw new Error(`list answered ${r.status}`);
      cursor = r.body.next_cursor;
    });
    const listFiltered = await timeIt(200, async (i) => {
      const r = await srv.call('GET', `/api/v1/memories?tenant_id=default&fleet_id=fleet-${i % 10}&memory_type=fact&limit=50`);
      if (r.status !== 200) throw new Error(`list answered ${r.status}`);
    });
    const listByWeight = await timeIt(200, async (i) => {
      const r = await srv.call('GET', `/api/v1/memories?tenant_id=default&sort=weight&order=desc&offset=${i * 50}&limit=50`);
      if (r.status !== 200) throw new Error(`list answered ${r.status}`);
    });
    const write = await timeIt(200, async (i) => {
      const r = await srv.call('POST', '/api/v1/memories', {
        tenant_id: 'default', agent_id: 'bench', content: `Bench write ${i} ${randomUUID()}: Alice met Bob in Paris to discuss the Q3 roadmap.`,
      });
      if (r.status !== 201) throw new Error(`write answered ${r.status}: ${JSON.stringify(r.body)}`);
    });
    const result = {
      rows: ROWS,
      seed_ms: seedMs,
      list_default: list,
      list_cursor_pages: listCursor,
      list_filtered: listFiltered,
      list_sort_weight_offset: listByWeight,
      single_write: write,
      targets: { list_p95_ms: 20, write_p50_ms: 60 },
      pass: { list_p95: list.p95_ms <= 20, write_p50: write.p50_ms <= 60 },
    };
    return reportResult('latency', result);
  } finally {
    await srv.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runLatencyBench();
