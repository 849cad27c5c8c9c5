// Shared pieces of the benchmarks: a real server on a temp data dir, timing, percentiles, results.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { loadConfig } from '../src/config.js';
import { createServices, type Services } from '../src/services.js';
import { buildApp } from '../src/app.js';
import { LOCAL_OPERATOR } from '../src/core/caller.js';

export interface BenchServer {
  url: string;
  key: string;
  services: Services;
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

/**
 * A real server on a fresh temp data dir, removed at close; or on `opts.dataDir`, kept at close
 * (a benchmark reusing what an earlier run wrote).
 */
export async function startBenchServer(env: Record<string, string> = {}, opts: { dataDir?: string } = {}): Promise<BenchServer> {
  const keep = opts.dataDir !== undefined;
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'loci-bench-'));
  if (keep) mkdirSync(dataDir, { recursive: true });
  const config = loadConfig({
    ...process.env,
    LOCI_DATA_DIR: dataDir,
    LOCI_LOG_LEVEL: 'silent',
    LOCI_RATE_WRITE: '1000000', LOCI_RATE_BULK: '1000000', LOCI_RATE_SEARCH: '1000000', LOCI_RATE_OTHER: '1000000',
    LOCI_QUOTA_PER_TENANT: '10000000',
    ...env,
  });
  const services = await createServices(config, { log: pino({ level: 'silent' }) });
  const { key } = await services.keys.create(LOCAL_OPERATOR, { tenant_id: 'default', trust_level: 3, name: 'bench' });
  const app = await buildApp(services);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const addr = app.server.address();
  const url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  return {
    url, key, services,
    async call(method, path, body) {
      const res = await fetch(url + path, {
        method,
        headers: { 'x-api-key': key, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: body !== undefined ? JSON.stringify(body) : undefined,
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    },
    async close() {
      await app.close();
      await services.close();
      if (!keep) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Memories per status after the detector ran: a search hides outdated rows by default, so a
 * benchmark of ordinary writes should find (nearly) every memory active.
 */
export async function statusCounts(srv: BenchServer): Promise<Record<string, number>> {
  const { rows } = await srv.services.db.query<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM memories GROUP BY status ORDER BY status');
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}

export function percentiles(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
  const round = (x: number) => Math.round(x * 100) / 100;
  return {
    n: s.length,
    p50_ms: round(at(50)),
    p95_ms: round(at(95)),
    p99_ms: round(at(99)),
    mean_ms: round(s.reduce((a, b) => a + b, 0) / Math.max(1, s.length)),
    max_ms: round(s[s.length - 1] ?? 0),
  };
}

/** Times fn n times sequentially; returns latency percentiles in ms. */
export async function timeIt(n: number, fn: (i: number) => Promise<void>) {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn(i);
    samples.push(performance.now() - t);
  }
  return percentiles(samples);
}

export function machine() {
  return { cpus: cpus().length, cpu_model: cpus()[0]?.model, mem_gb: Math.round(totalmem() / 2 ** 30), node: process.version };
}

export function writeResult(name: string, result: object): string {
  const dir = new URL('./results/', import.meta.url).pathname;
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify({ name, at: new Date().toISOString(), machine: machine(), ...result }, null, 2) + '\n');
  return file;
}

/** Writes the result (writeResult), prints it and where it went, and returns it. */
export function reportResult<T extends object>(name: string, result: T): T {
  const file = writeResult(name, result);
  console.log(JSON.stringify(result, null, 2));
  console.log(`written ${file}`);
  return result;
}
