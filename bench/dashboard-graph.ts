// The dashboard's graph drawing at 5,000 nodes, in Debian's chromium driven by playwright-core: time to
// the first frame and the frame gaps while ForceAtlas2 runs, with the page's own drawing code
// (web/pages/graph.js) on a synthetic graph. Software WebGL when the machine has no GPU.
import { loadavg } from 'node:os';
import { chromium } from 'playwright-core';
import { percentiles, reportResult, startBenchServer } from './lib.js';
import { findChromium } from '../test/helpers/browser.js';

const NODES = Number(process.env.BENCH_DASHBOARD_NODES ?? 5000);
const REPS = Number(process.env.BENCH_DASHBOARD_REPS ?? 3);
const WATCH_MS = 5000;

export async function runDashboardGraphBench() {
  const executable = findChromium();
  if (!executable) {
    console.log('SKIPPED dashboard-graph: chromium not found');
    return null;
  }
  const srv = await startBenchServer();
  const browser = await chromium.launch({ executablePath: executable, args: ['--no-sandbox', '--disable-dev-shm-usage', '--use-gl=swiftshader', '--enable-unsafe-swiftshader'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(srv.url + '/#/graph');
    await page.locator('main h1').waitFor();
    const runs: { first_frame_ms: number; frames: number; gaps: number[] }[] = [];
    const loadBefore = loadavg()[0];
    for (let r = 0; r < REPS; r++) {
      runs.push(await page.evaluate(`(async () => {
        const { drawGraph, loadGraphLibraries } = await import('/ui/pages/graph.js');
        await loadGraphLibraries();
        const box = document.createElement('div');
        box.style.cssText = 'width:1200px;height:800px;position:fixed;left:0;top:0;z-index:50;background:#fff';
        document.body.append(box);
        const N = ${NODES}, entities = [], relations = [];
        let seed = 7; const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
        for (let i = 0; i < N; i++) entities.push({ id: 'n' + i, name: 'Entity ' + i, entity_type: 'person', mention_count: 1 + (i % 17) });
        for (let i = 1; i < N; i++) {
          relations.push({ id: 'r' + i, subject_entity_id: 'n' + i, object_entity_id: 'n' + Math.floor(rnd() * i), predicate: 'knows', mention_count: 1 });
          if (i % 2) relations.push({ id: 's' + i, subject_entity_id: 'n' + i, object_entity_id: 'n' + Math.floor(rnd() * N), predicate: 'knows', mention_count: 1 });
        }
        const t0 = performance.now();
        const d = drawGraph(box, { entities, relations }, { layoutMs: ${WATCH_MS} });
        await new Promise((r) => requestAnimationFrame(() => r()));
        const first_frame_ms = performance.now() - t0;
        const gaps = [];
        let last = performance.now();
        const until = last + ${WATCH_MS};
        while (performance.now() < until) {
          await new Promise((r) => requestAnimationFrame(() => r()));
          const now = performance.now();
          gaps.push(now - last);
          last = now;
        }
        d.stop();
        box.remove();
        return { first_frame_ms, frames: gaps.length, gaps };
      })()`) as { first_frame_ms: number; frames: number; gaps: number[] });
    }
    return reportResult('dashboard-graph', {
      nodes: NODES, edges: Math.floor((NODES - 1) * 1.5), reps: REPS, watch_ms: WATCH_MS, renderer: 'sigma 3 WebGL (SwiftShader when no GPU)',
      load_avg_1m: { before: loadBefore, after: loadavg()[0] },
      first_frame: percentiles(runs.map((r) => r.first_frame_ms)),
      frames_per_s: runs.map((r) => Math.round((r.frames / WATCH_MS) * 1000 * 10) / 10),
      frame_gap: percentiles(runs.flatMap((r) => r.gaps)),
    });
  } finally {
    await browser.close();
    await srv.close();
  }
}
