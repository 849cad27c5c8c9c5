// Soak: the real server as a child process (embedded PGlite, default limits), driven on loopback
// by one key at a fixed fraction of its rate limits with a mix of writes, searches, recalls and
// reads for SOAK_MINUTES (default 10). Every SOAK_SAMPLE_S seconds: the server's RSS, requests
// by outcome and latency percentiles. Reports error counts, p50/p95/p99 per operation and the RSS
// trend (growth between the first and last sampled minute, and the slope over the second half).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/config.js';
import { percentiles, reportResult } from './lib.js';
import { freePort } from '../test/helpers/free-port.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const SAMPLE_S = Number(process.env.SOAK_SAMPLE_S ?? 10);
/** Share of each rate limit the load runs at: just below it, so the limiter itself is not what is measured. */
const FRACTION = Number(process.env.SOAK_RATE_FRACTION ?? 0.9);
const MAX_IN_FLIGHT = 32;

type Op = 'write' | 'search' | 'recall' | 'list' | 'get';


const rssMb = (pid: number) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
};

/** Least-squares slope of y over x. */
function slope(xs: number[], ys: number[]) {
  const n = xs.length;
  if (n < 2) return 0;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i] - mx) * (ys[i] - my);
    den += (xs[i] - mx) ** 2;
  }
  return den ? num / den : 0;
}

const WORDS = ['harbour', 'ferry', 'invoice', 'Riga', 'Tartu', 'roadmap', 'deploy', 'pipeline', 'vault', 'Monday', 'Olga', 'Marek', 'depot', 'ledger'];
const pick = () => WORDS[Math.floor(Math.random() * WORDS.length)];
const sentence = (i: number) => `Soak note ${i} ${randomBytes(3).toString('hex')}: ${pick()} and ${pick()} met near the ${pick()} about the ${pick()}.`;

export async function runSoakBench() {
  const dataDir = mkdtempSync(join(tmpdir(), 'loci-soak-'));
  const port = await freePort();
  const admin = `loci_soak${randomBytes(12).toString('hex')}`;
  const limits = loadConfig({ LOCI_DATA_DIR: dataDir }).rateLimits;
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'serve'], {
    cwd: ROOT,
    env: {
      ...process.env, LOCI_DATA_DIR: dataDir, LOCI_PORT: String(port), LOCI_HOST: '127.0.0.1', LOCI_ADMIN_KEY: admin,
      LOCI_LOG_LEVEL: 'warn', LOCI_REDIS_URL: '', LOCI_NATS_URL: '', DATABASE_URL: '',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let serverLog = '';
  proc.stderr!.on('data', (d) => (serverLog = (serverLog + String(d)).slice(-4000)));
  const url = `http://127.0.0.1:${port}`;
  try {
    for (let until = Date.now() + 180_000; ; await new Promise((r) => setTimeout(r, 250))) {
      if (proc.exitCode !== null) throw new Error(`server exited: ${serverLog}`);
      if (Date.now() > until) throw new Error('server did not start');
      if (await fetch(`${url}/api/v1/health`).then((r) => r.ok, () => false)) break;
    }
    const minted = await fetch(`${url}/api/v1/admin/keys`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': admin },
      body: JSON.stringify({ tenant_id: 'soak', agent_id: 'soaker', trust_level: 1, name: 'soak' }),
    }).then((r) => r.json() as Promise<{ key: string }>);
    const key = minted.key;

    // Per second, per class: writes at the write limit; search and recall share the search limit; reads at "other".
    const perSecond: Record<Op, number> = {
      write: limits.write * FRACTION,
      search: (limits.search * FRACTION) / 2,
      recall: (limits.search * FRACTION) / 2,
      list: (limits.other * FRACTION) / 2,
      get: (limits.other * FRACTION) / 2,
    };
    const ids: string[] = [];
    let seq = 0;
    const request = (op: Op): [string, string, unknown?] => {
      switch (op) {
        case 'write': return ['POST', '/api/v1/memories', { tenant_id: 'soak', agent_id: 'soaker', content: sentence(seq++) }];
        case 'search': return ['POST', '/api/v1/search', { tenant_id: 'soak', query: `${pick()} ${pick()}`, top_k: 10 }];
        case 'recall': return ['POST', '/api/v1/recall', { tenant_id: 'soak', query: `what about the ${pick()}?`, top_k: 5 }];
        case 'list': return ['GET', '/api/v1/memories?tenant_id=soak&limit=50'];
        case 'get': return ['GET', ids.length ? `/api/v1/memories/${ids[Math.floor(Math.random() * ids.length)]}?tenant_id=soak` : '/api/v1/memories/count?tenant_id=soak'];
      }
    };

    interface Window { lat: Record<Op, number[]>; ok: number; limited: number; client_errors: number; server_errors: number; failed: number; skipped: number }
    const fresh = (): Window => ({ lat: { write: [], search: [], recall: [], list: [], get: [] }, ok: 0, limited: 0, client_errors: 0, server_errors: 0, failed: 0, skipped: 0 });
    let win = fresh();
    const all: Record<Op, number[]> = { write: [], search: [], recall: [], list: [], get: [] };
    const totals = { ok: 0, limited: 0, client_errors: 0, server_errors: 0, failed: 0, skipped: 0 };
    const examples: string[] = [];
    let inFlight = 0;

    const fire = async (op: Op) => {
      if (inFlight >= MAX_IN_FLIGHT) {
        win.skipped++;
        return;
      }
      inFlight++;
      const [method, path, body] = request(op);
      const t0 = performance.now();
      try {
        const res = await fetch(url + path, {
          method, signal: AbortSignal.timeout(30_000),
          headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        });
        const text = await res.text();
        const ms = performance.now() - t0;
        if (res.status < 300) {
          win.ok++;
          win.lat[op].push(ms);
          all[op].push(ms);
          if (op === 'write' && ids.length < 5_000) ids.push(JSON.parse(text).id);
        } else if (res.status === 429) win.limited++;
        else if (res.status >= 500) win.server_errors++;
        else win.client_errors++;
        if (res.status >= 400 && res.status !== 429 && examples.length < 5) examples.push(`${op} ${res.status} ${text.slice(0, 200)}`);
      } catch (err) {
        win.failed++;
        if (examples.length < 5) examples.push(`${op} ${String(err)}`);
      } finally {
        inFlight--;
      }
    };

    // Open loop: each operation at its own steady pace, whatever the latency.
    const started = Date.now();
    const end = started + MINUTES * 60_000;
    const timers = (Object.keys(perSecond) as Op[]).map((op) => setInterval(() => void fire(op), 1000 / perSecond[op]));
    const samples: object[] = [];
    const rssSeries: { t_s: number; rss_mb: number }[] = [];
    while (Date.now() < end) {
      await new Promise((r) => setTimeout(r, SAMPLE_S * 1000));
      const w = win;
      win = fresh();
      for (const k of Object.keys(totals) as (keyof typeof totals)[]) totals[k] += w[k];
      const t_s = Math.round((Date.now() - started) / 1000);
      const rss = rssMb(proc.pid!);
      rssSeries.push({ t_s, rss_mb: rss });
      const sample = {
        t_s, rss_mb: rss, ok: w.ok, limited: w.limited, client_errors: w.client_errors, server_errors: w.server_errors, failed: w.failed, skipped: w.skipped,
        p95_ms: Object.fromEntries((Object.keys(w.lat) as Op[]).map((op) => [op, percentiles(w.lat[op]).p95_ms ?? null])),
        load1: Math.round(loadavg()[0] * 100) / 100,
      };
      samples.push(sample);
      console.log(JSON.stringify(sample));
    }
    for (const t of timers) clearInterval(t);
    while (inFlight > 0) await new Promise((r) => setTimeout(r, 100));

    const minute = Math.max(1, Math.round(60 / SAMPLE_S));
    const mean = (xs: number[]) => Math.round(xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length));
    const firstMinute = mean(rssSeries.slice(0, minute).map((s) => s.rss_mb));
    const lastMinute = mean(rssSeries.slice(-minute).map((s) => s.rss_mb));
    const half = rssSeries.slice(Math.floor(rssSeries.length / 2));
    const requests = totals.ok + totals.limited + totals.client_errors + totals.server_errors + totals.failed;
    return reportResult('soak', {
      minutes: MINUTES,
      sample_s: SAMPLE_S,
      mode: 'embedded PGlite, one key, default rate limits, loopback',
      rate_limits_per_s: limits,
      offered_per_s: Object.fromEntries(Object.entries(perSecond).map(([k, v]) => [k, Math.round(v * 10) / 10])),
      requests,
      achieved_per_s: Math.round((requests / (MINUTES * 60)) * 10) / 10,
      outcomes: totals,
      error_rate: requests ? Math.round(((totals.server_errors + totals.failed + totals.client_errors) / requests) * 1e5) / 1e5 : null,
      error_examples: examples,
      latency: Object.fromEntries((Object.keys(all) as Op[]).map((op) => [op, percentiles(all[op])])),
      rss: {
        first_minute_mb: firstMinute,
        last_minute_mb: lastMinute,
        growth_mb: lastMinute - firstMinute,
        second_half_slope_mb_per_min: Math.round(slope(half.map((s) => s.t_s / 60), half.map((s) => s.rss_mb)) * 100) / 100,
        max_mb: Math.max(...rssSeries.map((s) => s.rss_mb)),
      },
      load_avg_end: loadavg().map((x) => Math.round(x * 100) / 100),
      samples,
    });
  } finally {
    if (proc.exitCode === null) {
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
      if (proc.exitCode === null) proc.kill('SIGKILL');
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}
