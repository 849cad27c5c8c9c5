// Starts the real app on an ephemeral port for integration tests: real PGlite (or the pg
// driver over the wire when LOCI_TEST_DB=pg), the real embedder, real HTTP.
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import pino from 'pino';
import { loadConfig, type Config } from '../../src/config.js';
import { createServices, type ServiceOverrides, type Services } from '../../src/services.js';
import { buildApp } from '../../src/app.js';
import { LOCAL_OPERATOR } from '../../src/core/caller.js';
import { PgliteDb } from '../../src/store/pglite.js';
import { PgDb } from '../../src/store/pg.js';
import type { Db } from '../../src/store/db.js';
import { startWorker } from '../../src/infra/worker.js';

export interface TestApp {
  url: string;
  services: Services;
  config: Config;
  adminKey: string;
  /** Mints a key through the service (tenant-scoped unless agent given). */
  key(tenant: string, opts?: { agent?: string; trust?: number; readable?: string[]; fleet?: string }): Promise<string>;
  api(method: string, path: string, opts?: { key?: string | null; body?: unknown; headers?: Record<string, string>; raw?: string }): Promise<ApiResponse>;
  close(): Promise<void>;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

async function pgOverSocket(): Promise<{ db: Db; stop: () => Promise<void> }> {
  const worker = startWorker(new URL('./pglite-socket-worker.ts', import.meta.url), {
    workerData: { template: inject('pgliteTemplate') },
  });
  const port = await new Promise<number>((resolve, reject) => {
    worker.once('message', (m) => resolve(m.port));
    worker.once('error', reject);
  });
  // One connection: PGlite has one session, so a pool of one keeps transactions whole.
  const db = new PgDb(`postgres://postgres@127.0.0.1:${port}/postgres`, 1);
  return {
    db,
    stop: async () => {
      await db.close();
      worker.postMessage('stop');
      await new Promise((r) => worker.once('message', r));
      await worker.terminate();
    },
  };
}

export async function startTestApp(env: Record<string, string> = {}, overrides: ServiceOverrides = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'loci-app-'));
  const config = loadConfig({
    LOCI_DATA_DIR: dataDir,
    LOCI_LOG_LEVEL: 'silent',
    LOCI_EMBED_WORKERS: '1',
    LOCI_EMBED_QUERY_WORKERS: '0', // a model copy less per app; the reserved worker has its own test
    // An in-memory test database restarted by its watchdog loses its data: only a statement stuck
    // far beyond any load on a shared 2-core machine may trip it here.
    LOCI_DB_STATEMENT_TIMEOUT_MS: '120000',
    // Generous budgets: tests exercise rate limits explicitly where they mean to.
    // Keys are required as on a non-loopback address; the keyless loopback mode is tested on its own.
    LOCI_KEYLESS_LOOPBACK: 'false',
    LOCI_RATE_WRITE: '100000', LOCI_RATE_BULK: '100000', LOCI_RATE_SEARCH: '100000', LOCI_RATE_OTHER: '100000', LOCI_RATE_UNAUTHENTICATED: '100000',
    ...env,
  });
  let db: Db;
  let stopDb = async () => {};
  if (process.env.LOCI_TEST_DB === 'pg') {
    const s = await pgOverSocket();
    db = s.db;
    stopDb = s.stop;
  } else {
    db = new PgliteDb(undefined, readFileSync(inject('pgliteTemplate')), { statementTimeoutMs: config.dbStatementTimeoutMs });
  }
  const services = await createServices(config, { db, log: pino({ level: 'silent' }), ...overrides });
  const admin = await services.keys.create(LOCAL_OPERATOR, { tenant_id: config.standaloneTenant, trust_level: 3, name: 'test-admin' });
  const app = await buildApp(services);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const addr = app.server.address();
  const url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;

  const api: TestApp['api'] = async (method, path, opts = {}) => {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    const key = opts.key === undefined ? admin.key : opts.key;
    if (key) headers['x-api-key'] = key;
    let body: string | undefined = opts.raw;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    } else if (opts.raw !== undefined) headers['content-type'] ??= 'application/json';
    const res = await fetch(url + path, { method, headers, body });
    const text = await res.text();
    let parsed: any = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = text;
    }
    return { status: res.status, headers: res.headers, body: parsed, text };
  };

  return {
    url, services, config, adminKey: admin.key, api,
    async key(tenant, opts = {}) {
      const k = await services.keys.create(LOCAL_OPERATOR, {
        tenant_id: tenant, agent_id: opts.agent ?? null, fleet_id: opts.fleet ?? null, trust_level: opts.trust ?? 1, readable_tenants: opts.readable ?? [],
      });
      return k.key;
    },
    async close() {
      await app.close();
      await services.close();
      await stopDb();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs fn with some settings of a running app changed (routes read them per request), then restores them. */
export async function withConfig<T>(t: TestApp, patch: Partial<Config>, fn: () => Promise<T>): Promise<T> {
  const saved = { ...t.services.config };
  Object.assign(t.services.config, patch);
  try {
    return await fn();
  } finally {
    Object.assign(t.services.config, saved);
  }
}
