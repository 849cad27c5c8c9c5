// `loci reembed` end to end: data written with the built-in embedder (512-d), a start with an
// OpenAI-compatible one (a fake server on loopback, 1536-d) refused, an interrupted reembed that
// leaves the store as it was, a resumed one that finishes, and a server that then searches by vector.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeEmbeddings, type FakeEmbeddingsServer } from '../helpers/fake-embeddings.js';
import { freePort } from '../helpers/free-port.js';

const run = promisify(execFile);
const dataDir = mkdtempSync(join(tmpdir(), 'loci-reembed-'));
const ADMIN_KEY = 'loci_reembedtestadminkey0000000000000000';
const CLI = ['--import', 'tsx', 'src/main.ts'];

let fake: FakeEmbeddingsServer;

/** The environment of a CLI run: this data dir, nothing inherited that picks another embedder. */
function env(embedder: 'use-lite' | 'openai', extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('LOCI_') && k !== 'DATABASE_URL') base[k] = v;
  return {
    ...base, LOCI_DATA_DIR: dataDir, LOCI_ADMIN_KEY: ADMIN_KEY, LOCI_LOG_LEVEL: 'warn', LOCI_EMBED_WORKERS: '1',
    LOCI_EMBEDDER: embedder,
    ...(embedder === 'openai'
      ? { LOCI_EMBEDDINGS_URL: fake.url, LOCI_EMBEDDINGS_MODEL: 'fake-embed', LOCI_EMBEDDINGS_DIM: String(fake.dim) }
      : {}),
    ...extra,
  };
}

const loci = (e: NodeJS.ProcessEnv, ...args: string[]) => run(process.execPath, [...CLI, ...args], { env: e, timeout: 120_000 });


interface Server {
  api(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  stop(): Promise<void>;
}

/** Starts `loci serve` and waits until it answers; rejects with its stderr if it exits first. */
async function serve(e: NodeJS.ProcessEnv): Promise<Server> {
  const port = await freePort();
  const proc: ChildProcess = spawn(process.execPath, [...CLI, 'serve'], { env: { ...e, LOCI_PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  proc.stderr!.on('data', (c) => (stderr += c));
  proc.stdout!.resume();
  const exited = new Promise<number>((r) => proc.once('exit', (code) => r(code ?? -1)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    const code = await Promise.race([exited, new Promise<null>((r) => setTimeout(() => r(null), 250))]);
    if (code !== null) throw Object.assign(new Error(`loci serve exited with ${code}: ${stderr}`), { code, stderr });
    const ok = await fetch(`${url}/api/v1/health`).then((r) => r.ok, () => false);
    if (ok) break;
    if (Date.now() > deadline) {
      proc.kill('SIGKILL');
      throw new Error(`loci serve did not answer: ${stderr}`);
    }
  }
  return {
    async api(method, path, body) {
      const res = await fetch(url + path, {
        method,
        headers: { 'x-api-key': ADMIN_KEY, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    },
    async stop() {
      proc.kill('SIGTERM');
      expect(await exited).toBe(0);
    },
  };
}

const MEMORIES = [
  'Priya prefers tea over coffee in the morning.',
  'The quarterly review is scheduled for Thursday.',
  'Backups of the billing database run nightly at 02:00.',
  'Marco is allergic to peanuts.',
  'The staging cluster runs in Frankfurt.',
];
const memoryIds: string[] = [];

beforeAll(async () => {
  fake = await startFakeEmbeddings(1536);
});

afterAll(async () => {
  await fake?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('loci reembed', () => {
  it('writes memories and documents with the built-in embedder', async () => {
    const s = await serve(env('use-lite'));
    try {
      for (const content of MEMORIES) {
        const r = await s.api('POST', '/api/v1/memories', { tenant_id: 'default', agent_id: 'a1', content });
        expect(r.status).toBe(201);
        memoryIds.push(r.body.id);
      }
      expect((await s.api('DELETE', `/api/v1/memories/${memoryIds[4]}?tenant_id=default`)).status).toBe(204);
      for (const [doc_id, data] of [
        ['car', { text: 'My car needs new tyres before winter.' }],
        ['garden', { text: 'The tomatoes in the garden are ripe.' }],
        ['counter', { n: 1 }],
      ] as const) {
        const r = await s.api('POST', '/api/v1/documents', { tenant_id: 'default', collection: 'notes', doc_id, data });
        expect(r.status).toBe(201);
      }
      const m = await s.api('GET', `/api/v1/memories/${memoryIds[0]}?tenant_id=default`);
      expect(m.body.embedding_model).toBe('use-lite');
      expect(m.body.embedding).toHaveLength(512);
    } finally {
      await s.stop();
    }
  }, 180_000);

  it('refuses to start with another embedder, naming `loci reembed`', async () => {
    const err = await serve(env('openai')).then(async (s) => {
      await s.stop();
      return null;
    }, (e) => e);
    expect(err).not.toBeNull();
    expect(err.code).toBe(1);
    expect(err.stderr).toContain('loci reembed');
    expect(err.stderr).toContain('"use-lite" (512-d)');
    expect(err.stderr).toContain('"openai:fake-embed" (1536-d)');
  }, 120_000);

  let firstRun: string[] = [];

  it('leaves the store unchanged when interrupted', async () => {
    // The probe request and one batch of two memories succeed; the next batch is refused.
    fake.served = [];
    fake.failAfter = 2;
    const err = await loci(env('openai'), 'reembed', '--batch-size', '2').then(() => null, (e) => e);
    expect(err?.code).toBe(1);
    expect(err.stderr).toContain('fake embeddings server refuses on purpose');
    firstRun = fake.served.slice(1).flat();
    expect(firstRun).toHaveLength(2);

    // Still the old embedder's store: the same refusal, now saying the reembed can resume.
    fake.failAfter = null;
    const again = await serve(env('openai')).then(async (s) => {
      await s.stop();
      return null;
    }, (e) => e);
    expect(again?.stderr).toContain('"use-lite" (512-d)');
    expect(again.stderr).toContain('running it again resumes');
  }, 120_000);

  it('resumes where it stopped and finishes, with a progress bar on stderr', async () => {
    fake.served = [];
    const r = await loci(env('openai'), 'reembed', '--batch-size', '2');
    expect(r.stdout).toContain('Re-embedded 3 memories and 2 documents with "openai:fake-embed" (1536-d)');
    expect(r.stdout).toContain('they were "use-lite" (512-d)');
    expect(r.stderr).toMatch(/memories\s+\[#+\] 100%\s+5\/5/);
    expect(r.stderr).toMatch(/documents\s+\[#+\] 100%\s+2\/2/);
    expect(r.stderr).toContain('building vector index memories_embedding');
    const texts = fake.served.slice(1).flat();
    expect(texts).toHaveLength(5);
    for (const t of firstRun) expect(texts).not.toContain(t);
    // Between the two runs every memory (the deleted one too) and every document with text, once each.
    expect([...firstRun, ...texts].sort()).toEqual(
      [...MEMORIES, 'My car needs new tyres before winter.', 'The tomatoes in the garden are ripe.'].sort());
  }, 120_000);

  it('starts with the new embedder and searches by vector at the new dimension', async () => {
    const s = await serve(env('openai'));
    try {
      for (const [id, q] of [[memoryIds[0], ''], [memoryIds[4], '&include_deleted=true']]) {
        const m = await s.api('GET', `/api/v1/memories/${id}?tenant_id=default${q}`);
        expect(m.status).toBe(200);
        expect(m.body.embedding_model).toBe('openai:fake-embed');
        expect(m.body.embedding).toHaveLength(1536);
      }
      // "automobile" shares no word with the car note: only the vector leg can find it.
      const hits = await s.api('POST', '/api/v1/documents/search', { tenant_id: 'default', query: 'automobile', top_k: 3 });
      expect(hits.status).toBe(200);
      expect(hits.body.items[0].doc_id).toBe('car');
      expect(hits.body.items[0].similarity).toBeGreaterThan(0.2);
      const w = await s.api('POST', '/api/v1/memories', { tenant_id: 'default', agent_id: 'a1', content: 'A new memory at 1536 dimensions.' });
      expect(w.status).toBe(201);
      // A long memory is indexed as passages too: their vector column follows the new dimension.
      const long = Array.from({ length: 12 }, (_, i) => `Section ${i} of the runbook covers step ${i} of the failover drill in detail.`).join(' ');
      expect((await s.api('POST', '/api/v1/memories', { tenant_id: 'default', agent_id: 'a1', content: long })).status).toBe(201);
      const found = await s.api('POST', '/api/v1/search', { tenant_id: 'default', query: 'failover drill step 7', top_k: 3 });
      expect(found.status).toBe(200);
    } finally {
      await s.stop();
    }
  }, 120_000);

  it('has nothing to do a second time', async () => {
    const r = await loci(env('openai'), 'reembed');
    expect(r.stdout).toContain('Nothing to do');
  }, 120_000);
});
