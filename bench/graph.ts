// Knowledge-graph read latency over HTTP (embedded mode): GET /entities and GET /graph on one
// tenant with BENCH_GRAPH_MEMORIES memories (default 100k). The graph is seeded with SQL — a
// synthetic one with hub entities, three links per memory and co-occurrence relations — since
// read latency does not depend on how rows came in; a third of the memories are scope_agent.
import { reportResult, startBenchServer, timeIt } from './lib.js';

const MEMORIES = Number(process.env.BENCH_GRAPH_MEMORIES ?? 100_000);
const REPS = Number(process.env.BENCH_GRAPH_REPS ?? 100);

export async function runGraphBench() {
  const srv = await startBenchServer();
  try {
    const db = srv.services.db;
    const entities = Math.max(100, Math.floor(MEMORIES / 5));
    const t0 = performance.now();
    await db.query(
      `INSERT INTO memories (id, tenant_id, fleet_id, agent_id, content, content_hash, visibility, created_at)
       SELECT md5('m' || g)::uuid, 'default', 'fleet-' || (g % 10), 'agent-' || (g % 50), 'seeded memory ' || g,
              md5('seeded ' || g), (ARRAY['scope_team','scope_org','scope_agent'])[1 + g % 3], now() - (g || ' seconds')::interval
       FROM generate_series(1, $1::int) AS g`, [MEMORIES]);
    await db.query(
      `INSERT INTO entities (id, tenant_id, name, normalized_name, entity_type, aliases)
       SELECT md5('e' || g)::uuid, 'default', 'Entity ' || g, 'entity ' || g,
              (ARRAY['person','organization','place','product','date','other'])[1 + g % 6], ARRAY['Entity ' || g]
       FROM generate_series(1, $1::int) AS g`, [entities]);
    // Each memory mentions a hub entity (1..97) and two spread over the rest.
    await db.query(
      `INSERT INTO entity_links (memory_id, entity_id, tenant_id, role)
       SELECT md5('m' || g)::uuid, md5('e' || x)::uuid, 'default', 'mention'
       FROM generate_series(1, $1::int) AS g,
            LATERAL (VALUES (1 + g % 97), (98 + (g * 31) % ($2::int - 97)), (98 + (g * 131) % ($2::int - 97))) AS v(x)
       ON CONFLICT DO NOTHING`, [MEMORIES, entities]);
    await db.query(
      `UPDATE entities e SET mention_count = c.n
       FROM (SELECT entity_id, count(*)::int AS n FROM entity_links WHERE tenant_id = 'default' GROUP BY entity_id) c
       WHERE e.tenant_id = 'default' AND e.id = c.entity_id`);
    await db.query(
      `INSERT INTO relations (tenant_id, subject_entity_id, predicate, object_entity_id, object_key, evidence_memory_ids, mention_count)
       SELECT 'default', s, 'co_occurs', o, 'e:' || o, (array_agg(m ORDER BY m))[1:100], count(*)::int
       FROM (SELECT md5('m' || g)::uuid AS m, md5('e' || (1 + g % 97))::uuid AS s,
                    md5('e' || (98 + (g * 31) % ($2::int - 97)))::uuid AS o
             FROM generate_series(1, $1::int) AS g) x
       GROUP BY s, o`, [MEMORIES, entities]);
    for (const t of ['memories', 'entities', 'entity_links', 'relations']) await db.query(`ANALYZE ${t}`);
    const seedMs = Math.round(performance.now() - t0);

    const hub = (await db.query<{ id: string }>(`SELECT md5('e1')::uuid AS id`)).rows[0].id;
    const get = async (path: string) => {
      const r = await srv.call('GET', path);
      if (r.status !== 200) throw new Error(`${path} answered ${r.status}: ${JSON.stringify(r.body)}`);
    };
    for (let i = 0; i < 5; i++) await get('/api/v1/entities?tenant_id=default');

    const result = {
      memories: MEMORIES,
      entities,
      seed_ms: seedMs,
      entities_default: await timeIt(REPS, () => get('/api/v1/entities?tenant_id=default')),
      entities_type_fleet: await timeIt(REPS, (i) => get(`/api/v1/entities?tenant_id=default&entity_type=person&fleet_id=fleet-${i % 10}`)),
      entities_search: await timeIt(REPS, (i) => get(`/api/v1/entities?tenant_id=default&search=entity%20${100 + i}`)),
      graph_default: await timeIt(REPS, () => get('/api/v1/graph?tenant_id=default')),
      graph_hub_depth2: await timeIt(REPS, () => get(`/api/v1/graph?tenant_id=default&entity_id=${hub}&depth=2&limit=100`)),
    };
    return reportResult('graph', result);
  } finally {
    await srv.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runGraphBench();
