// Search latency at scale, embedded mode: BENCH_ROWS memories (default 100k) in one tenant,
// searched over HTTP with distinct natural questions; plus a single-write latency with the
// vector index at that size, where a search's time goes (embedding, each leg, fusion, HTTP), and
// searches of a small second tenant (BENCH_SMALL memories) in the same store.
//
// Seeding: BENCH_BASE real sentences (default 3000) are embedded once with the real embedder
// (cached in the OS temp dir across runs) and their entities extracted; the rows are then made
// in SQL from them — each row's text is a base sentence plus a unique note, its vector a
// normalised 85/15 blend of two base vectors, its entity links those of its base sentence.
// BENCH_LONG (default 2,500) long memories of consecutive base sentences join them, with their
// passages. The HNSW indexes are dropped for the load and rebuilt after it with a large maintenance_work_mem.
// BENCH_SEARCH_STORE=dir keeps the seeded store there and measures it again on later runs.
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { percentiles, reportResult, startBenchServer, timeIt, type BenchServer } from './lib.js';
import { corpusQuestions, corpusSentences } from './search-corpus.js';
import { vectorLiteral } from '../src/store/db.js';
import { splitPassages } from '../src/core/passages/split.js';
import { meanVector } from '../src/core/skills/cluster.js';
import { normalize } from '../src/providers/embedder/vector.js';
import { LOCAL_OPERATOR } from '../src/core/caller.js';
import type { Extraction } from '../src/providers/entities/types.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const BASE = Math.min(Number(process.env.BENCH_BASE ?? 3000), ROWS);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 300);
const WRITES = Number(process.env.BENCH_WRITES ?? 100);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 100);
/** Long memories (2–5k characters) among the rows, with their passages as the service cuts them. */
const LONG = Number(process.env.BENCH_LONG ?? 2500);
const TENANT = 'default';
/** A second tenant in the same store, SMALL memories copied from the first: searched apart. */
const SMALL_TENANT = 'small';
const SMALL = Number(process.env.BENCH_SMALL ?? 500);
const TARGETS = { search_p50_ms: 25, search_p95_ms: 40, write_p50_ms: 60, list_p95_ms: 20 };

const log = (msg: string) => console.log(`[search bench] ${msg}`);

async function embedBase(srv: BenchServer, sentences: string[]): Promise<Float32Array[]> {
  const emb = srv.services.embedder;
  const key = createHash('sha256').update(`${emb.modelId}\n${sentences.join('\n')}`).digest('hex').slice(0, 16);
  const file = join(tmpdir(), `loci-bench-search-${key}.f32`);
  if (existsSync(file)) {
    const buf = readFileSync(file);
    const all = new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4);
    log(`base vectors read from ${file}`);
    return sentences.map((_, i) => all.slice(i * emb.dim, (i + 1) * emb.dim));
  }
  const out: Float32Array[] = [];
  for (let i = 0; i < sentences.length; i += 64) out.push(...(await emb.embed(sentences.slice(i, i + 64))));
  const all = new Float32Array(sentences.length * emb.dim);
  out.forEach((v, i) => all.set(v, i * emb.dim));
  writeFileSync(file, Buffer.from(all.buffer));
  return out;
}

export async function seed(srv: BenchServer) {
  const db = srv.services.db;
  const timings: Record<string, number> = {};
  const step = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    const t = performance.now();
    const out = await fn();
    timings[name] = Math.round(performance.now() - t);
    log(`${name}: ${timings[name]} ms`);
    return out;
  };

  // The vector indexes are dropped for the load and built again after it, as the migrations define them.
  const { rows: vectorIndexes } = await db.query<{ indexdef: string }>(
    `SELECT indexdef FROM pg_indexes WHERE indexname IN ('memories_embedding', 'memory_passages_embedding')`);
  const sentences = corpusSentences(BASE);
  const vectors = await step('embed_base', () => embedBase(srv, sentences));
  const extractions = await step('extract_base', () =>
    Promise.all(sentences.map((s) => srv.services.entities.extract(s).catch((): Extraction => ({ entities: [], relations: [] })))));

  await step('load_base', async () => {
    await db.query('DROP TABLE IF EXISTS bench_base');
    await db.query('DROP TABLE IF EXISTS bench_base_entity');
    await db.query(`CREATE TABLE bench_base (b int PRIMARY KEY, content text NOT NULL, embedding vector(${srv.services.embedder.dim}) NOT NULL)`);
    await db.query(`CREATE TABLE bench_base_entity (b int NOT NULL, entity_id uuid NOT NULL, role text NOT NULL)`);
    for (let i = 0; i < BASE; i += 250) {
      const idx = sentences.slice(i, i + 250).map((_, j) => i + j);
      await db.query(
        `INSERT INTO bench_base SELECT x.b, x.c, x.e::vector FROM unnest($1::int[], $2::text[], $3::text[]) AS x(b, c, e)`,
        [idx, idx.map((k) => sentences[k]), idx.map((k) => vectorLiteral(vectors[k]))]);
    }
    // Entities of the tenant, one per (normalised name, type), and which base sentence names which.
    const ents = new Map<string, { name: string; normalized: string; type: string }>();
    const pairs: [number, string][] = [];
    extractions.forEach((x, b) => {
      for (const e of x.entities) {
        const k = `${e.type}|${e.normalized}`;
        if (!ents.has(k)) ents.set(k, { name: e.name, normalized: e.normalized, type: e.type });
        pairs.push([b, k]);
      }
    });
    const list = [...ents.entries()];
    const { rows } = await db.query<{ id: string; k: string }>(
      `INSERT INTO entities (tenant_id, name, normalized_name, entity_type, aliases)
       SELECT $1, x.n, x.k, x.t, ARRAY[x.n] FROM unnest($2::text[], $3::text[], $4::text[]) AS x(n, k, t)
       ON CONFLICT (tenant_id, normalized_name, entity_type) DO UPDATE SET name = entities.name
       RETURNING id, entity_type || '|' || normalized_name AS k`,
      [TENANT, list.map(([, e]) => e.name), list.map(([, e]) => e.normalized), list.map(([, e]) => e.type)]);
    const idOf = new Map(rows.map((r) => [r.k, r.id]));
    const uniq = [...new Map(pairs.map(([b, k]) => [`${b}|${k}`, [b, idOf.get(k)!] as const])).values()];
    await db.query(`INSERT INTO bench_base_entity (b, entity_id, role) SELECT x.b, x.e, 'mention' FROM unnest($1::int[], $2::uuid[]) AS x(b, e)`,
      [uniq.map((u) => u[0]), uniq.map((u) => u[1])]);
  });

  await step('insert_rows', async () => {
    await db.query('DROP INDEX IF EXISTS memories_embedding');
    const dim = srv.services.embedder.dim;
    const w = (x: number) => `[${Array(dim).fill(x).join(',')}]`;
    for (let start = 1; start <= ROWS; start += 10_000) {
      const end = Math.min(ROWS, start + 9_999);
      // Row g: base sentence g % BASE (plus a unique note, a ticket code on every seventh row),
      // vector 0.85·base + 0.15·another base, normalised. Fleets, agents, types and visibility vary.
      await db.query(
        `INSERT INTO memories (id, tenant_id, fleet_id, agent_id, memory_type, content, content_hash, weight, visibility,
                               created_at, embedding, embedding_model, metadata)
         SELECT gen_random_uuid(), $1, 'fleet-' || (g % 10), 'agent-' || (g % 50),
                (ARRAY['fact','episode','decision','preference','task'])[1 + g % 5],
                c.content, md5(c.content), (g % 100) / 100.0,
                (ARRAY['scope_team','scope_org','scope_team','scope_agent'])[1 + g % 4],
                now() - (g || ' minutes')::interval,
                l2_normalize(a.embedding * $4::vector + o.embedding * $5::vector), $6, jsonb_build_object('base', a.b)
         FROM generate_series($2::int, $3::int) AS g
         JOIN bench_base a ON a.b = g % ${BASE}
         JOIN bench_base o ON o.b = (g * 7919 + 13) % ${BASE}
         CROSS JOIN LATERAL (SELECT a.content || CASE WHEN g % 7 = 0 THEN ' Ref ' || 'TCK-' || g ELSE ' (note ' || g || ')' END AS content) AS c`,
        [TENANT, start, end, w(0.85), w(0.15), srv.services.embedder.modelId]);
    }
  });

  await step('insert_long', async () => {
    await db.query('DROP INDEX IF EXISTS memory_passages_embedding');
    // Long memory i: consecutive base sentences up to 2–5k characters. Its vector is its first
    // sentence's (the default embedder reads a text's first ~500 characters); its passages are cut
    // as the service cuts them, each with the normalised mean of its sentences' vectors.
    const mean = (vs: Float32Array[]) => normalize(Float32Array.from(meanVector(vs)));
    for (let start = 0; start < LONG; start += 100) {
      const mems: { id: string; content: string; first: number }[] = [];
      const units: { id: string; ord: number; content: string; vector: Float32Array }[] = [];
      for (let i = start; i < Math.min(LONG, start + 100); i++) {
        const target = 2_000 + ((i * 977) % 3_001);
        const first = (i * 31) % BASE;
        const parts: number[] = [];
        let len = 0;
        for (let k = first; len < target; k = (k + 1) % BASE) {
          parts.push(k);
          len += sentences[k].length + 1;
        }
        const id = randomUUID();
        const content = `${parts.map((k) => sentences[k]).join(' ')} (long ${i})`;
        mems.push({ id, content, first });
        splitPassages(content).forEach((text, ord) => {
          const inside = parts.filter((k) => text.includes(sentences[k]));
          units.push({ id, ord, content: text, vector: mean((inside.length ? inside : [first]).map((k) => vectors[k])) });
        });
      }
      await db.query(
        `INSERT INTO memories (id, tenant_id, fleet_id, agent_id, memory_type, content, content_hash, visibility, created_at, embedding, embedding_model, metadata)
         SELECT x.id, $1, 'fleet-' || (x.n % 10), 'agent-' || (x.n % 50), 'episode', x.c, md5(x.c), 'scope_team',
                now() - (x.n || ' minutes')::interval, x.e::vector, $2, '{}'::jsonb
         FROM unnest($3::uuid[], $4::text[], $5::text[], $6::int[]) AS x(id, c, e, n)`,
        [TENANT, srv.services.embedder.modelId, mems.map((m) => m.id), mems.map((m) => m.content),
          mems.map((m) => vectorLiteral(vectors[m.first])), mems.map((_, j) => start + j)]);
      await db.query(
        `INSERT INTO memory_passages (memory_id, ord, tenant_id, kind, content, embedding)
         SELECT x.id, x.o, $1, 'passage', x.c, x.e::vector FROM unnest($2::uuid[], $3::int[], $4::text[], $5::text[]) AS x(id, o, c, e)`,
        [TENANT, units.map((u) => u.id), units.map((u) => u.ord), units.map((u) => u.content), units.map((u) => vectorLiteral(u.vector))]);
    }
  });

  await step('link_entities', async () => {
    await db.query(
      `INSERT INTO entity_links (memory_id, entity_id, tenant_id, role, created_at)
       SELECT m.id, be.entity_id, m.tenant_id, be.role, m.created_at FROM memories m JOIN bench_base_entity be ON be.b = (m.metadata->>'base')::int
       WHERE m.tenant_id = $1 AND m.metadata ? 'base'`, [TENANT]);
    await db.query(
      `UPDATE entities e SET mention_count = l.n
       FROM (SELECT entity_id, count(*)::int AS n FROM entity_links WHERE tenant_id = $1 GROUP BY entity_id) AS l
       WHERE e.tenant_id = $1 AND e.id = l.entity_id`, [TENANT]);
  });

  await step('insert_small_tenant', () => db.query(
    `INSERT INTO memories (id, tenant_id, fleet_id, agent_id, memory_type, content, content_hash, weight, visibility, created_at, embedding, embedding_model, metadata)
     SELECT gen_random_uuid(), $1, fleet_id, agent_id, memory_type, content, content_hash, weight, visibility, created_at, embedding, embedding_model, '{}'::jsonb
     FROM memories WHERE tenant_id = $2 ORDER BY md5(id::text) LIMIT $3`, [SMALL_TENANT, TENANT, SMALL]));

  await step('build_hnsw', async () => {
    await db.tx(async (q) => {
      await q.query(`SET LOCAL maintenance_work_mem = '512MB'`);
      for (const { indexdef } of vectorIndexes) await q.query(indexdef);
    });
  });
  await step('vacuum_analyze', async () => {
    await db.query('DROP TABLE bench_base');
    await db.query('DROP TABLE bench_base_entity');
    await db.query('VACUUM ANALYZE');
  });
  return timings;
}

function cpuMsPer(start: NodeJS.CpuUsage, n: number): number {
  const d = process.cpuUsage(start);
  return Math.round(((d.user + d.system) / 1000 / Math.max(1, n)) * 100) / 100;
}

const stat = (xs: number[]) => {
  const p = percentiles(xs);
  return { p50_ms: p.p50_ms, p95_ms: p.p95_ms, mean_ms: p.mean_ms };
};

export async function runSearchBench() {
  // BENCH_SEARCH_STORE: a directory kept across runs; seeded when empty, measured as it is after
  // (A/B comparisons of one store; its rows must be of the same BENCH_* settings).
  const kept = process.env.BENCH_SEARCH_STORE;
  if (kept && existsSync(join(kept, 'pg', 'PG_VERSION'))) {
    log(`measuring the seeded store at ${kept}`);
    return measure(await startBenchServer({}, { dataDir: kept }), {});
  }
  const dataDir = kept ?? mkdtempSync(join(tmpdir(), 'loci-bench-search-'));
  try {
    // Seeding rebuilds the vector indexes over all rows in one statement each: minutes, not the
    // service's 30 s statement limit.
    const loader = await startBenchServer({ LOCI_DB_STATEMENT_TIMEOUT_MS: String(3_600_000) }, { dataDir });
    log(`seeding ${ROWS} rows from ${BASE} base sentences`);
    const seedTimings = await seed(loader).finally(() => loader.close());
    // Measured on a server started on the seeded store, as a deployment serves one: the loader's
    // process ends with the seed's garbage and the index builds' memory (searches there took
    // p50 37.9 ms where a server started on the seeded store took 26.7).
    return await measure(await startBenchServer({}, { dataDir }), seedTimings);
  } finally {
    if (!kept) rmSync(dataDir, { recursive: true, force: true });
  }
}

async function measure(srv: BenchServer, seedTimings: Record<string, number>) {
  try {
    // A standard (trust 1) key viewing as one agent: the visibility rule applies as for a real caller.
    const { key } = await srv.services.keys.create(LOCAL_OPERATOR, { tenant_id: TENANT, trust_level: 1, name: 'bench-search' });
    const small = await srv.services.keys.create(LOCAL_OPERATOR, { tenant_id: SMALL_TENANT, trust_level: 1, name: 'bench-search-small' });
    const search = async (body: Record<string, unknown>, path = '/api/v1/search', tenant = TENANT) => {
      const t = performance.now();
      const res = await fetch(srv.url + path, {
        method: 'POST', headers: { 'x-api-key': tenant === TENANT ? key : small.key, 'content-type': 'application/json' },
        body: JSON.stringify({ tenant_id: tenant, agent_id: 'agent-1', top_k: 10, ...body }),
      });
      const json = await res.json();
      if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(json)}`);
      return { ms: performance.now() - t, body: json as any };
    };

    // Distinct questions throughout: a repeated one would be answered from the query-embedding cache.
    const questions = corpusQuestions(WARMUP + 3 * QUERIES + 150);
    let next = 0;
    const q = () => questions[next++];
    // Warm-up: the first requests of a fresh server are slower (JIT, caches).
    for (let i = 0; i < WARMUP; i++) await search({ query: q() });

    // Plain and diagnostic searches alternate, so both samples see the same conditions.
    log(`${QUERIES} searches, and ${QUERIES} more with diagnostic timings`);
    const plain: number[] = [];
    let empty = 0;
    let searchCpuUs = 0;
    const steps: Record<string, number[]> = { embed: [], analyze: [], keyword: [], entity: [], vector: [], fuse: [], hydrate: [], server_total: [], http_and_client: [] };
    const candidates: Record<string, number[]> = { vector: [], keyword: [], entity: [] };
    for (let i = 0; i < QUERIES; i++) {
      const c0 = process.cpuUsage();
      const r = await search({ query: q() });
      const c = process.cpuUsage(c0);
      searchCpuUs += c.user + c.system;
      plain.push(r.ms);
      if (r.body.items.length === 0) empty++;

      const rd = await search({ query: q(), diagnostic: true });
      const d = rd.body.diagnostic;
      for (const k of ['embed', 'analyze', 'keyword', 'entity', 'vector', 'fuse', 'hydrate']) steps[k].push(d.timings_ms[k]);
      steps.server_total.push(d.timings_ms.total);
      steps.http_and_client.push(rd.ms - d.timings_ms.total);
      for (const k of Object.keys(candidates)) candidates[k].push(d.candidates[k] ?? 0);
    }
    const searchCpu = Math.round((searchCpuUs / 1000 / Math.max(1, QUERIES)) * 100) / 100;

    log(`${Math.min(100, QUERIES)} searches of a tenant with ${SMALL} memories in the same store`);
    const smallTenant: number[] = [];
    for (let i = 0; i < Math.min(100, QUERIES); i++) smallTenant.push((await search({ query: q() }, '/api/v1/search', SMALL_TENANT)).ms);

    log('query embedding alone');
    const cpu1 = process.cpuUsage();
    const embedOnly = await timeIt(QUERIES, async () => {
      await srv.services.embedder.embed([`${q() ?? randomUUID()} ${randomUUID().slice(0, 8)}`]);
    });
    const embedCpu = cpuMsPer(cpu1, QUERIES);

    log('list, first page');
    const list = await timeIt(QUERIES, async (i) => {
      const res = await fetch(`${srv.url}/api/v1/memories?tenant_id=${TENANT}&agent_id=agent-1&limit=20${i % 2 ? '&sort=weight' : ''}`, { headers: { 'x-api-key': key } });
      await res.text();
      if (res.status !== 200) throw new Error(`list answered ${res.status}`);
    });

    log('recall (extractive)');
    const recall: number[] = [];
    for (let i = 0; i < Math.min(50, QUERIES); i++) recall.push((await search({ query: q() }, '/api/v1/recall')).ms);

    log(`${WRITES} single writes`);
    const writeTexts = corpusSentences(WRITES, 99);
    const cpu2 = process.cpuUsage();
    const write = await timeIt(WRITES, async (i) => {
      const res = await fetch(`${srv.url}/api/v1/memories`, {
        method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ tenant_id: TENANT, agent_id: 'agent-1', content: `${writeTexts[i]} (bench ${randomUUID().slice(0, 8)})` }),
      });
      await res.text();
      if (res.status !== 201) throw new Error(`write answered ${res.status}`);
    });
    const writeCpu = cpuMsPer(cpu2, WRITES);
    await srv.services.search.settled();

    const searchStats = percentiles(plain);
    const result = {
      rows: ROWS,
      long_rows: LONG,
      base_sentences: BASE,
      queries: QUERIES,
      warmup: WARMUP,
      seed_ms: seedTimings,
      search: searchStats,
      search_empty_results: empty,
      search_small_tenant: { memories: SMALL, ...stat(smallTenant) },
      search_breakdown_ms: Object.fromEntries(Object.entries(steps).map(([k, v]) => [k, stat(v)])),
      candidates_per_leg: Object.fromEntries(Object.entries(candidates).map(([k, v]) => [k, stat(v).p50_ms])),
      query_embedding_alone: embedOnly,
      recall: percentiles(recall),
      list_first_page: list,
      single_write: write,
      // CPU of the whole process (HTTP client, server, database, embedder and extractor threads) per
      // operation: unlike wall time, it hardly depends on what else the machine is running.
      cpu_ms_per_op: { search: searchCpu, query_embedding: embedCpu, single_write: writeCpu },
      targets: TARGETS,
      pass: {
        search_p50: searchStats.p50_ms <= TARGETS.search_p50_ms,
        search_p95: searchStats.p95_ms <= TARGETS.search_p95_ms,
        write_p50: write.p50_ms <= TARGETS.write_p50_ms,
        list_p95: list.p95_ms <= TARGETS.list_p95_ms,
      },
      note: 'Sequential requests on one machine; figures from a shared machine are noisy. Leg timings overlap: embed runs beside keyword and entity.',
    };
    return reportResult('search', result);
  } finally {
    await srv.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runSearchBench();
