// Forge clustering quality: on hand-written agent notes (bench/data/forge-*.json), does each
// practice several agents hit come out as one cluster that would pass the volume and diversity
// gates, and does unrelated work stay out? Parameters are chosen on the dev split and reported
// on the held-out test split. Real USE-Lite embeddings and the real entity extractor.
import { readFileSync } from 'node:fs';
import { clusterMemories, DEFAULT_CLUSTER_PARAMS, type ClusterItem, type ClusterParams } from '../src/core/skills/cluster.js';
import { UseLiteEmbedder } from '../src/providers/embedder/index.js';
import { createEntityExtractor } from '../src/providers/entities/index.js';
import { BACKGROUND_SENTENCES } from '../src/core/skills/background.js';
import { meanVector } from '../src/core/skills/cluster.js';
import { machine, reportResult } from './lib.js';

interface Split { topics: { id: string; notes: Note[] }[]; noise: Note[] }
interface Note { agent: string; type: string; text: string }

const GATES = { minSize: 3, minAgents: 3 };

async function items(split: Split, embed: UseLiteEmbedder): Promise<{ items: ClusterItem[]; topicOf: Map<string, string> }> {
  const extractor = createEntityExtractor();
  const notes: { id: string; topic: string | null; n: Note }[] = [];
  split.topics.forEach((t) => t.notes.forEach((n, i) => notes.push({ id: `${t.id}#${i}`, topic: t.id, n })));
  split.noise.forEach((n, i) => notes.push({ id: `noise#${i}`, topic: null, n }));
  const vecs = await embed.embed(notes.map((x) => x.n.text));
  const out: ClusterItem[] = [];
  for (let i = 0; i < notes.length; i++) {
    const ex = await extractor.extract(notes[i].n.text);
    out.push({
      id: notes[i].id, agent_id: notes[i].n.agent, fleet_id: null, memory_type: notes[i].n.type, content: notes[i].n.text,
      observed_at: new Date().toISOString(), domain: null, vector: vecs[i], entities: [...new Set(ex.entities.map((e) => e.normalized))],
    });
  }
  return { items: out, topicOf: new Map(notes.filter((x) => x.topic).map((x) => [x.id, x.topic!])) };
}

function score(split: Split, data: { items: ClusterItem[]; topicOf: Map<string, string> }, p: ClusterParams) {
  const clusters = clusterMemories(data.items, p).map((c) => c.members);
  const eligible = clusters.filter((m) => m.length >= GATES.minSize && new Set(m.map((x) => x.agent_id)).size >= GATES.minAgents);
  let found = 0;
  for (const t of split.topics) {
    const ok = eligible.some((m) => {
      const hit = m.filter((x) => data.topicOf.get(x.id) === t.id).length;
      return hit / t.notes.length >= 0.75 && hit / m.length >= 0.75;
    });
    if (ok) found++;
  }
  const falseSkills = eligible.filter((m) => {
    const counts = new Map<string, number>();
    for (const x of m) { const t = data.topicOf.get(x.id) ?? 'noise'; counts.set(t, (counts.get(t) ?? 0) + 1); }
    const [top, n] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0];
    return top === 'noise' || n / m.length < 0.75;
  }).length;
  return { topics: split.topics.length, found, false_skills: falseSkills, clusters: clusters.length, score: found - falseSkills };
}

export async function runForgeBench() {
  const load = (f: string) => JSON.parse(readFileSync(new URL(`./data/${f}`, import.meta.url), 'utf8')) as Split;
  const dev = load('forge-dev.json');
  const test = load('forge-test.json');
  const embed = new UseLiteEmbedder({ workers: 1 });
  await embed.init();
  try {
    const devData = await items(dev, embed);
    const testData = await items(test, embed);
    const background = meanVector(await embed.embed([...BACKGROUND_SENTENCES]));
    const grid: { params: ClusterParams & { centred: boolean }; dev: ReturnType<typeof score> }[] = [];
    for (const centred of [false, true]) {
      for (let link = 0.2; link <= 0.801; link += 0.05) {
        for (const entityWeight of [0, 0.15, 0.3, 0.5]) {
          const params = { link: Math.round(link * 100) / 100, entityWeight, background: centred ? background : null, centred };
          grid.push({ params, dev: score(dev, devData, params) });
        }
      }
    }
    const best = [...grid].sort((a, b) => b.dev.score - a.dev.score)[0];
    const result = {
      machine: machine(),
      defaults: DEFAULT_CLUSTER_PARAMS,
      dev_with_defaults: score(dev, devData, { ...DEFAULT_CLUSTER_PARAMS, background }),
      test_with_defaults: score(test, testData, { ...DEFAULT_CLUSTER_PARAMS, background }),
      best_on_dev: { params: { link: best.params.link, entityWeight: best.params.entityWeight, centred: best.params.centred }, dev: best.dev },
      test_with_best_on_dev: score(test, testData, best.params),
      grid: grid.map((g) => ({ params: { link: g.params.link, entityWeight: g.params.entityWeight, centred: g.params.centred }, dev: g.dev })),
    };
    return reportResult('forge', result);
  } finally {
    await embed.close();
  }
}
