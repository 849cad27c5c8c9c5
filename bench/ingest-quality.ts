// Quality side of `npm run bench ingest`: what ingest keeps of real documents, how well memory
// types are inferred, and what enrichment costs per write.
//
// - Documents: the real public documents of test/fixtures/docs (a README, a README with a
//   navigation bar, a changelog, a policy page in HTML, a security policy, a slide deck, a
//   spreadsheet, a Word document), each previewed over HTTP with explain=true, as a client would:
//   facts per document and dropped units per reason.
// - Type accuracy: the hand-labelled development set (bench/enrich-devset.ts), on the dev half
//   (the rules were tuned on it) and the test half (never tuned on), with 95% Wilson intervals,
//   per-type precision and recall, and the always-"fact" baseline. The same for nearest-centroid
//   over the embedder's vectors of prototype sentences (bench/enrich-prototypes.ts), measured to
//   decide whether the write path should use them.
// - Cost: CPU of the rules enrichment (type, title, tags from the write's own entity extraction)
//   per memory, on the main thread, measured in-process over the development set's sentences.
import { loadavg } from 'node:os';
import type { Embedder } from '../src/providers/embedder/types.js';
import { extractSync } from '../src/providers/entities/nlp.js';
import { classifyType } from '../src/core/enrich/classify.js';
import { Enricher } from '../src/core/enrich/enricher.js';
import { INFERRED_TYPES } from '../src/core/enrich/types.js';
import { codeOfConductDocx, debianReleasesSheet, pinoSecurityDeck, readDoc } from '../test/fixtures/real-docs.js';
import { loadDevSet, type DevItem } from './enrich-devset.js';
import { PROTOTYPES } from './enrich-prototypes.js';
import type { BenchServer } from './lib.js';

const MIME = {
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

const DOCUMENTS: Array<{ name: string; type: string; filename: string; data: () => Buffer | string }> = [
  { name: 'readme (fastify)', type: 'text/markdown', filename: 'README.md', data: () => readDoc('fastify-README.md') },
  { name: 'readme with navigation (zod, first 7 KB)', type: 'text/markdown', filename: 'README.md', data: () => readDoc('zod-README.md') },
  { name: 'changelog (qs, first 6 KB)', type: 'text/markdown', filename: 'CHANGELOG.md', data: () => readDoc('qs-CHANGELOG.md') },
  { name: 'policy page (rustc target tier policy, html)', type: 'text/html', filename: 'policy.html', data: () => readDoc('rustc-target-tier-policy.html') },
  { name: 'security policy (typescript, md)', type: 'text/markdown', filename: 'SECURITY.md', data: () => readDoc('typescript-SECURITY.md') },
  { name: 'slide deck (pino security policy, pptx)', type: MIME.pptx, filename: 'deck.pptx', data: pinoSecurityDeck },
  { name: 'spreadsheet (debian releases, xlsx)', type: MIME.xlsx, filename: 'releases.xlsx', data: debianReleasesSheet },
  { name: 'word document (contributor covenant, docx)', type: MIME.docx, filename: 'coc.docx', data: codeOfConductDocx },
];

async function previewDocument(srv: BenchServer, d: (typeof DOCUMENTS)[number]) {
  const form = new FormData();
  form.set('tenant_id', 'default');
  form.set('explain', 'true');
  form.set('max_facts', '1000');
  const raw = d.data();
  const bytes = typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw;
  form.set('file', new Blob([new Uint8Array(bytes)], { type: d.type }), d.filename);
  const res = await fetch(`${srv.url}/api/v1/ingest/file`, { method: 'POST', headers: { 'x-api-key': srv.key }, body: form });
  const body = await res.json() as any;
  if (res.status !== 200) throw new Error(`preview of ${d.name} answered ${res.status}`);
  const types: Record<string, number> = {};
  for (const f of body.facts) types[f.suggested_type] = (types[f.suggested_type] ?? 0) + 1;
  return {
    document: d.name, format: body.format, chars: body.content_length, sections: body.sections, facts: body.facts.length,
    types, dropped: body.dropped_counts, first_facts: body.facts.slice(0, 3).map((f: any) => `[${f.suggested_type}] ${f.title}`),
  };
}

/** Wilson score interval for a proportion (95%). */
export function wilson(k: number, n: number, z = 1.96): [number, number] {
  if (n === 0) return [0, 0];
  const p = k / n;
  const d = 1 + (z * z) / n;
  const c = (p + (z * z) / (2 * n)) / d;
  const h = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / d;
  return [Math.max(0, c - h), Math.min(1, c + h)];
}

const r3 = (x: number) => Math.round(x * 1000) / 1000;

function score(items: DevItem[], predict: (i: DevItem) => string) {
  let ok = 0;
  const perType = new Map<string, { tp: number; fp: number; fn: number }>();
  const get = (t: string) => perType.get(t) ?? perType.set(t, { tp: 0, fp: 0, fn: 0 }).get(t)!;
  for (const i of items) {
    const p = predict(i);
    if (p === i.label) {
      ok++;
      get(p).tp++;
    } else {
      get(p).fp++;
      get(i.label).fn++;
    }
  }
  const [lo, hi] = wilson(ok, items.length);
  return {
    n: items.length, accuracy: r3(ok / Math.max(1, items.length)), ci95: [r3(lo), r3(hi)],
    per_type: Object.fromEntries([...perType].filter(([, v]) => v.tp + v.fn > 0).map(([t, v]) => [t, {
      support: v.tp + v.fn, precision: r3(v.tp / Math.max(1, v.tp + v.fp)), recall: r3(v.tp / Math.max(1, v.tp + v.fn)),
    }])),
  };
}

async function centroidPredictor(embedder: Embedder, items: DevItem[]) {
  const centroids = new Map<string, Float32Array>();
  for (const t of INFERRED_TYPES) {
    const vs = await embedder.embed([...PROTOTYPES[t]]);
    const c = new Float32Array(embedder.dim);
    for (const v of vs) for (let k = 0; k < c.length; k++) c[k] += v[k];
    const norm = Math.hypot(...c) || 1;
    centroids.set(t, c.map((x) => x / norm));
  }
  const vectors = new Map<DevItem, Float32Array>();
  const embedded = await embedder.embed(items.map((i) => i.text));
  items.forEach((i, k) => vectors.set(i, embedded[k]));
  return (i: DevItem) => {
    const v = vectors.get(i)!;
    let best = 'fact';
    let bestSim = -Infinity;
    for (const [t, c] of centroids) {
      let s = 0;
      for (let k = 0; k < c.length; k++) s += v[k] * c[k];
      if (s > bestSim) {
        bestSim = s;
        best = t;
      }
    }
    return best;
  };
}

async function typeAccuracy(embedder: Embedder) {
  const { items, missing } = loadDevSet();
  const out: Record<string, unknown> = { items: items.length, missing_sources: missing };
  const rules = (i: DevItem) => classifyType(i.text).type;
  const fact = () => 'fact';
  const centroid = process.env.BENCH_ENRICH_CENTROIDS === '0' ? null : await centroidPredictor(embedder, items);
  for (const split of ['dev', 'test'] as const) {
    for (const sample of ['random', 'keyword'] as const) {
      const xs = items.filter((i) => i.split === split && i.sample === sample);
      if (xs.length === 0) continue;
      out[`${split}_${sample}`] = {
        rules: score(xs, rules),
        always_fact: score(xs, fact).accuracy,
        ...(centroid ? { nearest_centroid: score(xs, centroid).accuracy } : {}),
      };
    }
  }
  return out;
}

/** CPU of the rules enrichment per memory (entity extraction excluded: the write runs it anyway). */
async function enrichmentCost() {
  const { items } = loadDevSet();
  const texts = items.map((i) => i.text);
  const extractions = texts.map((t) => extractSync(t));
  const enricher = new Enricher({ mode: 'rules', llm: null, llmTimeoutMs: 1 });
  const once = async (k: number) => enricher.begin({ content: texts[k] }).finish(extractions[k]);
  for (let k = 0; k < Math.min(200, texts.length); k++) await once(k); // warm-up
  const samples: number[] = [];
  for (let round = 0; round < 3; round++) {
    for (let k = 0; k < texts.length; k++) {
      const t = performance.now();
      await once(k);
      samples.push((performance.now() - t) * 1000);
    }
  }
  samples.sort((a, b) => a - b);
  const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
  const chars = texts.reduce((a, t) => a + t.length, 0) / texts.length;
  return {
    memories: texts.length, mean_chars: Math.round(chars),
    us_per_memory: {
      p50: Math.round(samples[Math.floor(samples.length / 2)]), p95: Math.round(samples[Math.floor(samples.length * 0.95)]),
      p99: Math.round(samples[Math.floor(samples.length * 0.99)]), mean: Math.round(mean),
    },
    load_average_1m: Math.round(loadavg()[0] * 10) / 10,
    note: 'type + title + tags on the main thread, rules mode; entity extraction (already part of every write) excluded. ' +
      'On a shared machine the mean and p99 carry preemption and GC pauses; p50 is the cost of the work.',
  };
}

export async function runIngestQuality(srv: BenchServer) {
  const documents = [];
  for (const d of DOCUMENTS) documents.push(await previewDocument(srv, d));
  for (const d of documents) console.log(`${d.document}: ${d.facts} facts, ${d.sections} sections, dropped ${JSON.stringify(d.dropped)}`);
  const types = await typeAccuracy(srv.services.embedder);
  const cost = await enrichmentCost();
  return { documents, type_accuracy: types, enrichment_cost: cost };
}
