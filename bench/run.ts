// `npm run bench [name…]`: runs the named benchmarks (all by default); each writes bench/results/<name>.json.
const BENCHES: Record<string, () => Promise<unknown>> = {
  latency: async () => (await import('./latency.js')).runLatencyBench(),
  contradictions: async () => (await import('./contradictions.js')).runContradictionBench(),
  graph: async () => (await import('./graph.js')).runGraphBench(),
  ingest: async () => (await import('./ingest.js')).runIngestBench(),
  search: async () => (await import('./search.js')).runSearchBench(),
  bulk: async () => (await import('./bulk.js')).runBulkBench(),
  dbwork: async () => (await import('./dbwork.js')).runDbWorkBench(),
  locomo: async () => (await import('./locomo.js')).runLocomoBench(),
  longmem: async () => (await import('./longmem.js')).runLongMemBench(),
  longdocs: async () => (await import('./longdocs.js')).runLongDocsBench(),
  forge: async () => (await import('./forge.js')).runForgeBench(),
  soak: async () => (await import('./soak.js')).runSoakBench(),
  'dashboard-graph': async () => (await import('./dashboard-graph.js')).runDashboardGraphBench(),
};

const names = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(BENCHES);
for (const name of names) {
  const run = BENCHES[name];
  if (!run) {
    console.error(`unknown benchmark "${name}"; known: ${Object.keys(BENCHES).join(', ')}`);
    process.exit(2);
  }
  console.log(`\n== ${name}`);
  await run();
}
