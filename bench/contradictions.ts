// Contradiction-detector quality without an LLM, scored on the hand-labelled pairs of
// test/fixtures/contradictions.json and the held-out set written after the rules.
//  - service: each pair through the real service path — write the older memory, write the newer
//    one (each pair in its own tenant), drain the bus, read the older row's status and the newer
//    row's supersedes_id. outdated → rdf_conflict, conflicted → semantic_conflict, else none.
//  - judge: judgePair alone on the same pairs, with USE-Lite similarity (for comparison).
// Writes bench/results/contradictions.json.
// Run: npm run bench contradictions   (LOCI_BENCH_CONTRADICTIONS_LIMIT=N: first N pairs of each set)
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Embedder } from '../src/providers/embedder/types.js';
import { scorePairs, summarize, type LabelledPair, type PairResult, type ScoreReport } from '../src/core/contradictions/score.js';
import type { MemoryFacts, Verdict } from '../src/core/contradictions/detect.js';
import { SEMANTIC_SIMILARITY_THRESHOLD } from '../src/core/contradictions/detect.js';
import { normalizeSubject } from '../src/core/contradictions/triples.js';
import { startBenchServer, writeResult, type BenchServer } from './lib.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');

const TARGET = { precision: 0.9, recall: 0.7 };
const LIMIT = Number(process.env.LOCI_BENCH_CONTRADICTIONS_LIMIT ?? 0) || Infinity;

const asFacts = (x: string | MemoryFacts): MemoryFacts => (typeof x === 'string' ? { content: x } : x);

/** The same subject name always maps to the same entity id, as a writer reusing an entity would. */
function subjectId(subject: string): string {
  const h = createHash('sha256').update(normalizeSubject(subject)).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

function body(tenantId: string, f: MemoryFacts) {
  return {
    tenant_id: tenantId,
    agent_id: 'bench',
    content: f.content,
    ...(f.subject && f.predicate && f.object_value
      ? { subject_entity_id: subjectId(f.subject), predicate: f.predicate, object_value: f.object_value }
      : {}),
  };
}

interface ServiceResult extends PairResult {
  /** The newer row points to the older one (conflicts) or neither row changed (none). */
  link_ok: boolean;
}

/** Writes every pair through HTTP, drains the bus, and reads what the detector recorded. */
async function scoreThroughService(srv: BenchServer, pairs: LabelledPair[], set: string, run: string) {
  const written: Array<{ tenantId: string; older: string; newer: string } | { error: string }> = [];
  const t0 = performance.now();
  for (const [i, p] of pairs.entries()) {
    const tenantId = `bench-contra-${run}-${set}-${i}`;
    const o = await srv.call('POST', '/api/v1/memories', body(tenantId, asFacts(p.older)));
    const n = await srv.call('POST', '/api/v1/memories', body(tenantId, asFacts(p.newer)));
    if (o.status !== 201 || n.status !== 201) written.push({ error: `write answered ${o.status}/${n.status}` });
    else written.push({ tenantId, older: o.body.id, newer: n.body.id });
  }
  await srv.services.bus.drain(120_000);
  const elapsedMs = performance.now() - t0;

  const results: ServiceResult[] = [];
  for (const [i, p] of pairs.entries()) {
    const w = written[i];
    const base = { older: asFacts(p.older).content, newer: asFacts(p.newer).content, expected: p.expected, note: p.note };
    if ('error' in w) {
      results.push({ ...base, got: 'none', similarity: 0, reason: 'no_signal', signals: [w.error], link_ok: false });
      continue;
    }
    const { rows } = await srv.services.db.query<{ id: string; status: string; supersedes_id: string | null; similarity: number | null }>(
      `SELECT m.id, m.status, m.supersedes_id, 1 - (m.embedding <=> o.embedding) AS similarity
       FROM memories m, memories o WHERE m.tenant_id = $1 AND o.tenant_id = $1 AND o.id = $2 AND m.id = ANY($3::uuid[])`,
      [w.tenantId, w.older, [w.older, w.newer]]);
    const older = rows.find((r) => r.id === w.older)!;
    const newer = rows.find((r) => r.id === w.newer)!;
    const got: Verdict = older.status === 'outdated' ? 'rdf_conflict' : older.status === 'conflicted' ? 'semantic_conflict' : 'none';
    const linkOk = got === 'none'
      ? newer.supersedes_id === null && newer.status === 'active'
      : newer.supersedes_id === older.id && newer.status === 'active';
    results.push({
      ...base, got, similarity: Math.round(Number(newer.similarity ?? 0) * 1000) / 1000,
      reason: got === 'none' ? 'no_signal' : 'different_object', signals: [`older:${older.status}`, `newer:${newer.status}`], link_ok: linkOk,
    });
  }
  return {
    ...summarize(results),
    write_errors: written.filter((w) => 'error' in w).length,
    link_errors: results.filter((r) => !r.link_ok).length,
    elapsed_ms: Math.round(elapsedMs),
    results,
  };
}

async function loadEmbedder(): Promise<Embedder | null> {
  try {
    const { UseLiteEmbedder } = await import('../src/providers/embedder/use-lite.js');
    const e = new UseLiteEmbedder({ workers: 1 });
    await e.init();
    return e;
  } catch (err) {
    console.warn(`USE-Lite embedder unavailable (${(err as Error).message}); judge scores use lexical similarity`);
    return null;
  }
}

const brief = <T extends { results: unknown }>(r: T): Omit<T, 'results'> => {
  const { results: _results, ...rest } = r;
  return rest;
};

const line = (name: string, r: Pick<ScoreReport, 'n' | 'conflict_vs_none' | 'per_class'>) => {
  const x = r.conflict_vs_none;
  const pc = r.per_class;
  console.log(
    `${name.padEnd(16)} n=${r.n}  conflict-vs-none P=${x.precision} R=${x.recall} F1=${x.f1}  ` +
      `rdf P=${pc.rdf_conflict.precision} R=${pc.rdf_conflict.recall}  semantic P=${pc.semantic_conflict.precision} R=${pc.semantic_conflict.recall}`,
  );
};

const meets = (r: Pick<ScoreReport, 'conflict_vs_none'>) =>
  r.conflict_vs_none.precision >= TARGET.precision && r.conflict_vs_none.recall >= TARGET.recall;

export async function runContradictionBench(): Promise<object> {
  const load = (f: string) => (JSON.parse(readFileSync(join(root, 'test/fixtures', f), 'utf8')) as LabelledPair[]).slice(0, LIMIT);
  const fixture = load('contradictions.json');
  const holdout = load('contradictions-holdout.json');
  const run = randomBytes(3).toString('hex');

  // The service as wired, rules only (no LLM): the targets are for the rule-based detector.
  const srv = await startBenchServer({ LOCI_LLM_URL: '' });
  let service;
  try {
    service = {
      bus: srv.services.bus.kind,
      cache: srv.services.cache.kind,
      fixture: await scoreThroughService(srv, fixture, 'fixture', run),
      holdout: await scoreThroughService(srv, holdout, 'holdout', run),
    };
  } finally {
    await srv.close();
  }

  const embedder = await loadEmbedder();
  let judge;
  try {
    judge = {
      fixture: await scorePairs(fixture, { embedder: embedder ?? undefined }),
      holdout: await scorePairs(holdout, { embedder: embedder ?? undefined }),
    };
  } finally {
    await embedder?.close();
  }

  const out = {
    bench: 'contradictions',
    similarity_gate: SEMANTIC_SIMILARITY_THRESHOLD,
    target: TARGET,
    llm: null,
    // The headline: the detector as wired (write older, write newer, drain, read statuses).
    meets_target: meets(service.fixture),
    meets_target_holdout: meets(service.holdout),
    service: {
      bus: service.bus,
      cache: service.cache,
      fixture: { file: 'test/fixtures/contradictions.json', ...brief(service.fixture) },
      // Written after the rules and never used to tune them: the honest estimate.
      holdout: { file: 'test/fixtures/contradictions-holdout.json', ...brief(service.holdout) },
    },
    judge: {
      similarity_source: judge.fixture.similarity_source,
      fixture: brief(judge.fixture),
      holdout: brief(judge.holdout),
    },
    pairs: service.fixture.results,
    holdout_pairs: service.holdout.results,
  };
  const file = writeResult('contradictions', out);
  console.log(`similarity gate ${SEMANTIC_SIMILARITY_THRESHOLD}; service path over the ${service.bus} bus; no LLM`);
  line('service fixture', service.fixture);
  line('service holdout', service.holdout);
  line('judge fixture', judge.fixture);
  line('judge holdout', judge.holdout);
  console.log(`write errors ${service.fixture.write_errors + service.holdout.write_errors}, link errors ${service.fixture.link_errors + service.holdout.link_errors}; ` +
    `${service.fixture.elapsed_ms + service.holdout.elapsed_ms} ms for ${fixture.length + holdout.length} pairs (write, write, drain)`);
  for (const [name, r] of [['fixture', service.fixture], ['holdout', service.holdout]] as const) {
    for (const e of r.errors) console.log(`  ${name} miss: expected ${e.expected}, got ${e.got} (sim ${e.similarity}): "${e.older}" → "${e.newer}"`);
  }
  console.log(`wrote ${file}`);
  return out;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runContradictionBench();
}
