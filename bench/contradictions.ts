// Contradiction-detector quality without an LLM: scores judgePair on the hand-labelled pairs
// in test/fixtures/contradictions.json (and the held-out set written after the rules), with
// similarity from the real USE-Lite embedder. Writes bench/results/contradictions.json.
// Run: npx tsx bench/contradictions.ts
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Embedder } from '../src/providers/embedder/types.js';
import { scorePairs, type LabelledPair, type ScoreReport } from '../src/core/contradictions/score.js';
import { SEMANTIC_SIMILARITY_THRESHOLD } from '../src/core/contradictions/detect.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');

const TARGET = { precision: 0.9, recall: 0.7 };

async function loadEmbedder(): Promise<Embedder | null> {
  try {
    const { UseLiteEmbedder } = await import('../src/providers/embedder/use-lite.js');
    const e = new UseLiteEmbedder({ workers: 1 });
    await e.init();
    return e;
  } catch (err) {
    console.warn(`USE-Lite embedder unavailable (${(err as Error).message}); falling back to lexical similarity`);
    return null;
  }
}

function brief(r: ScoreReport) {
  const { results: _results, ...rest } = r;
  return rest;
}

export async function runContradictionBench(): Promise<object> {
  const load = (f: string) => JSON.parse(readFileSync(join(root, 'test/fixtures', f), 'utf8')) as LabelledPair[];
  const fixture = load('contradictions.json');
  const holdout = load('contradictions-holdout.json');
  const embedder = await loadEmbedder();
  try {
    const t0 = performance.now();
    const main = await scorePairs(fixture, { embedder: embedder ?? undefined });
    const held = await scorePairs(holdout, { embedder: embedder ?? undefined });
    const ms = performance.now() - t0;
    const c = main.conflict_vs_none;
    const out = {
      bench: 'contradictions',
      at: new Date().toISOString(),
      similarity_source: main.similarity_source,
      threshold: SEMANTIC_SIMILARITY_THRESHOLD,
      target: TARGET,
      meets_target: c.precision >= TARGET.precision && c.recall >= TARGET.recall,
      elapsed_ms: Math.round(ms),
      fixture: { file: 'test/fixtures/contradictions.json', ...brief(main) },
      // Written after the rules and never used to tune them: the honest estimate.
      holdout: { file: 'test/fixtures/contradictions-holdout.json', ...brief(held) },
      pairs: main.results,
      holdout_pairs: held.results,
    };
    mkdirSync(join(here, 'results'), { recursive: true });
    writeFileSync(join(here, 'results', 'contradictions.json'), JSON.stringify(out, null, 2) + '\n');
    const line = (name: string, r: ScoreReport) => {
      const x = r.conflict_vs_none;
      const pc = r.per_class;
      console.log(
        `${name.padEnd(8)} n=${r.n}  conflict-vs-none P=${x.precision} R=${x.recall} F1=${x.f1}  ` +
          `rdf P=${pc.rdf_conflict.precision} R=${pc.rdf_conflict.recall}  semantic P=${pc.semantic_conflict.precision} R=${pc.semantic_conflict.recall}`,
      );
    };
    console.log(`similarity: ${main.similarity_source}, gate ${SEMANTIC_SIMILARITY_THRESHOLD}`);
    line('fixture', main);
    line('holdout', held);
    for (const [name, r] of [['fixture', main], ['holdout', held]] as const) {
      for (const e of r.errors) console.log(`  ${name} miss: expected ${e.expected}, got ${e.got} (${e.reason}, sim ${e.similarity}): "${e.older}" → "${e.newer}"`);
    }
    return out;
  } finally {
    await embedder?.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runContradictionBench();
}
