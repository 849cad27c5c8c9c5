// Fault test: the real server as a child process is killed (SIGKILL) in the middle of a stream of
// bulk writes, restarted on the same data dir, and every batch is retried with its attempt id.
// The store must then hold each item exactly once and nothing else.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ADMIN = `loci_fault${Math.random().toString(36).slice(2).padEnd(20, 'x')}`;
const BATCHES = 8;
const ITEMS = 25;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));


interface Server { proc: ChildProcess; url: string; log: string[] }

async function startServer(dataDir: string): Promise<Server> {
  const port = await freePort();
  // node itself runs the server (no npx/tsx wrapper process), so SIGKILL hits the process holding the store.
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'serve'], {
    cwd: ROOT,
    env: {
      ...process.env,
      LOCI_DATA_DIR: dataDir, LOCI_PORT: String(port), LOCI_HOST: '127.0.0.1', LOCI_ADMIN_KEY: ADMIN,
      LOCI_LOG_LEVEL: 'warn', LOCI_EMBED_WORKERS: '1', LOCI_RATE_BULK: '100000', LOCI_RATE_OTHER: '100000',
      LOCI_REDIS_URL: '', LOCI_NATS_URL: '', DATABASE_URL: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log: string[] = [];
  proc.stdout!.on('data', (d) => log.push(String(d)));
  proc.stderr!.on('data', (d) => log.push(String(d)));
  const url = `http://127.0.0.1:${port}`;
  const until = Date.now() + 180_000;
  while (Date.now() < until) {
    if (proc.exitCode !== null) throw new Error(`server exited with ${proc.exitCode}: ${log.join('')}`);
    try {
      if ((await fetch(`${url}/api/v1/health`)).status === 200) return { proc, url, log };
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  proc.kill('SIGKILL');
  throw new Error(`server did not start: ${log.join('')}`);
}

function kill(s: Server): Promise<void> {
  if (s.proc.exitCode !== null || s.proc.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((r) => s.proc.once('exit', () => r()));
  s.proc.kill('SIGKILL');
  return exited;
}

const contents = (b: number) => Array.from({ length: ITEMS }, (_, i) => `Fault batch ${b} item ${i}: the standby database in Frankfurt takes over.`);

async function send(s: Server, b: number) {
  const res = await fetch(`${s.url}/api/v1/memories/bulk`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': ADMIN, 'x-bulk-attempt-id': `fault-${b}` },
    body: JSON.stringify({ tenant_id: 'default', agent_id: 'loader', items: contents(b).map((content) => ({ content })) }),
  });
  return { status: res.status, body: await res.json() as any };
}

async function allContents(s: Server): Promise<string[]> {
  const out: string[] = [];
  let cursor: string | null = null;
  do {
    const res = await fetch(`${s.url}/api/v1/memories?tenant_id=default&limit=500&include_deleted=true${cursor ? `&cursor=${cursor}` : ''}`, {
      headers: { 'x-api-key': ADMIN },
    });
    const page = await res.json() as any;
    out.push(...page.items.map((m: any) => m.content));
    cursor = page.next_cursor;
  } while (cursor);
  return out;
}

const servers: Server[] = [];
const dataDir = mkdtempSync(join(tmpdir(), 'loci-fault-'));
afterAll(async () => {
  for (const s of servers) await kill(s);
  rmSync(dataDir, { recursive: true, force: true });
});

describe('bulk writes survive a crash of the server', () => {
  it('after SIGKILL mid-stream, restart and retries with the same attempt ids store every item exactly once', async () => {
    const first = await startServer(dataDir);
    servers.push(first);
    // Two clients stream batches; the server is killed while requests are in flight.
    const acked = new Map<number, string[]>();
    const stream = async (batches: number[]) => {
      for (const b of batches) {
        try {
          const r = await send(first, b);
          if (r.status === 200) acked.set(b, r.body.results.map((x: any) => x.id));
        } catch {
          return; // the server is gone
        }
      }
    };
    const evens = [0, 2, 4, 6].filter((b) => b < BATCHES);
    const odds = [1, 3, 5, 7].filter((b) => b < BATCHES);
    const streams = Promise.all([stream(evens), stream(odds)]);
    // Kill once some batches are stored and others are under way.
    const until = Date.now() + 120_000;
    while (acked.size < 3 && Date.now() < until) await sleep(20);
    await sleep(150);
    await kill(first);
    await streams;
    expect(acked.size).toBeGreaterThanOrEqual(3);
    expect(acked.size).toBeLessThan(BATCHES);

    const second = await startServer(dataDir);
    servers.push(second);
    const survived = (await allContents(second)).length;
    expect(survived).toBeGreaterThanOrEqual(acked.size * ITEMS);
    // Every batch is retried, the acknowledged ones too; two retries of one batch race each other.
    const retries = await Promise.all([
      ...Array.from({ length: BATCHES }, (_, b) => send(second, b)),
      send(second, BATCHES - 1),
    ]);
    for (const r of retries) {
      expect(r.status).toBe(200);
      for (const x of r.body.results) expect(['created', 'duplicate_attempt']).toContain(x.status);
    }
    // Acknowledged batches resolve to the very rows acknowledged before the crash.
    for (const [b, ids] of acked) {
      expect(retries[b].body.results.map((x: any) => x.status)).toEqual(Array(ITEMS).fill('duplicate_attempt'));
      expect(retries[b].body.results.map((x: any) => x.id)).toEqual(ids);
    }
    // The retries created exactly what had not survived the crash.
    const created = retries.flatMap((r) => r.body.results).filter((r: any) => r.status === 'created').length;
    expect(created).toBe(BATCHES * ITEMS - survived);
    const [x, y] = [retries[BATCHES - 1], retries[BATCHES]];
    expect(x.body.results.map((r: any) => r.id)).toEqual(y.body.results.map((r: any) => r.id));

    const stored = await allContents(second);
    const expected = Array.from({ length: BATCHES }, (_, b) => contents(b)).flat();
    expect(stored.length).toBe(expected.length);
    expect([...stored].sort()).toEqual([...expected].sort());
    await kill(second);
  }, 600_000);
});
