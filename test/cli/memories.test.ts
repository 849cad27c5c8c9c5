// `loci memories …` and `loci ingest` run as real processes against a live server.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { LociClient, type MemoryInput } from '../../packages/client/src/index.js';

const exec = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'loci-cli-mem-'));
let t: TestApp;
let adminKey: string;

beforeAll(async () => {
  t = await startTestApp();
  adminKey = await t.key('cli-src', { trust: 3 });
});
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

const env = (key: string) => ({ ...process.env, LOCI_URL: t.url, LOCI_API_KEY: key });

/** Runs the real binary; resolves with stdout, stderr and the exit code (never throws on a non-zero exit). */
async function loci(key: string, args: string[], input?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, ['bin/loci.js', ...args], { env: env(key), timeout: 120_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }));
    child.stdin!.end(input ?? '');
  });
}

/** What must survive export → import: everything but the server's ids, timestamps and counters. */
function comparable(m: Record<string, unknown>) {
  const { id: _i, tenant_id: _t, created_at: _c, updated_at: _u, entity_links, subject_entity_id: _s, recall_count: _r,
    last_recalled_at: _l, supersedes_id: _p, deleted_at, ...rest } = m;
  return JSON.stringify({
    ...rest,
    deleted: !!deleted_at,
    entities: (entity_links as { name: string; entity_type: string; role: string }[]).map((e) => `${e.name}/${e.entity_type}/${e.role}`).sort(),
  }, Object.keys({ ...rest, deleted: 0, entities: 0 }).sort());
}

const exported = (file: string) => readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));

describe('loci memories', () => {
  it('adds, searches, recalls and lists, for people and with --json', async () => {
    const key = await t.key('cli-basic');
    const added = await loci(key, ['memories', 'add', '--agent', 'alice', '--type', 'decision', '--json', 'We', 'chose', 'Postgres', '16', 'for', 'staging']);
    expect(added.code).toBe(0);
    const m = JSON.parse(added.stdout);
    expect(m).toMatchObject({ agent_id: 'alice', memory_type: 'decision', content: 'We chose Postgres 16 for staging' });
    expect((await loci(key, ['memories', 'add', '-'], 'Bob prefers dark mode in every editor\n')).stdout).toMatch(/^added [0-9a-f-]{36} /);

    const search = await loci(key, ['memories', 'search', 'staging', 'database']);
    expect(search.stdout.split('\n')[0]).toContain(m.id);
    const recall = JSON.parse((await loci(key, ['memories', 'recall', '--json', 'which database does staging use'])).stdout);
    expect(recall.memories.map((x: { id: string }) => x.id)).toContain(m.id);
    const listed = (await loci(key, ['memories', 'list', '--json'])).stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(listed).toHaveLength(2);

    const refused = await loci(key, ['memories', 'add', '--tenant', 'someone-else', 'not mine']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^loci: POST \/api\/v1\/memories: 403/);
    expect(refused.stderr).not.toContain('[object Object]');
  }, 180_000);

  it('exports a tenant and imports it elsewhere with nothing lost, resuming after a kill', async () => {
    // A tenant with a bit of everything: types, weights, metadata, private and shared rows, statuses, a soft delete.
    const c = new LociClient({ baseUrl: t.url, apiKey: adminKey });
    const types = ['fact', 'decision', 'preference', 'task', 'episode'] as const;
    const seed: MemoryInput[] = Array.from({ length: 240 }, (_, i) => ({
      content: `Seed memory ${i}: service ${i * 31 % 97} answers on port ${8000 + i} in region r${i % 7}`,
      agent_id: i % 3 === 0 ? 'alice' : 'bob',
      memory_type: types[i % types.length],
      weight: Math.round(((i % 10) / 10) * 100) / 100,
      metadata: { seq: i, nested: { even: i % 2 === 0 } },
      visibility: i % 11 === 0 ? 'scope_agent' : 'scope_team',
      ...(i % 13 === 0 ? { status: 'pending' as const } : {}),
      ...(i % 17 === 0 ? { title: `Custom title ${i}`, source_uri: `https://example.test/${i}` } : {}),
    }));
    const w = await c.memories.writeMany(seed, { agent_id: 'bob' });
    expect(w.errors).toBe(0);
    await c.memories.setStatus(w.results[5].id!, 'outdated');
    await c.memories.setStatus(w.results[7].id!, 'archived');
    await c.memories.delete(w.results[9].id!);

    const src = join(dir, 'src.jsonl');
    const exp = await loci(adminKey, ['memories', 'export', '--include-deleted', '-o', src]);
    expect(exp.code).toBe(0);
    expect(exp.stderr).toContain('export [');
    const source = exported(src);
    expect(source).toHaveLength(240);

    // Import into another tenant, killed once its first chunk is recorded.
    const checkpoint = `${src}.import-state.json`;
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'memories', 'import', src, '--tenant', 'cli-dst'], { env: env(adminKey) });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise((r) => child.once('exit', r));
    while (!existsSync(checkpoint) && child.exitCode === null) await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGKILL');
    await exited;
    const saved = JSON.parse(readFileSync(checkpoint, 'utf8'));
    expect(saved.chunks_done, stderr).toBeGreaterThanOrEqual(1);
    expect(saved.chunks_done).toBeLessThan(3);

    const resumed = await loci(adminKey, ['memories', 'import', src, '--tenant', 'cli-dst', '--json']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/resuming: \d+ of 240 already written/);
    expect(existsSync(checkpoint)).toBe(false);

    const dst = join(dir, 'dst.jsonl');
    expect((await loci(adminKey, ['memories', 'export', '--include-deleted', '--tenant', 'cli-dst', '-o', dst])).code).toBe(0);
    const copy = exported(dst);
    expect(copy.map(comparable).sort()).toEqual(source.map(comparable).sort());

    // A second run writes nothing new.
    expect((await loci(adminKey, ['memories', 'import', src, '--tenant', 'cli-dst'])).code).toBe(0);
    expect((await c.admin.memoryStats({ tenant_id: 'cli-dst', include_deleted: true })).total_including_deleted).toBe(240);
  }, 300_000);
});

describe('loci ingest', () => {
  it('previews a file, writes nothing unless confirmed, then writes its facts', async () => {
    const key = await t.key('cli-ingest');
    const file = join(dir, 'notes.md');
    writeFileSync(file, '# Platform notes\n\nThe billing service runs on Kubernetes in eu-west-1.\n\n' +
      'Deployments happen every Tuesday after the change review.\n\nThe on-call rotation changes every Monday at 9am.\n');
    const preview = JSON.parse((await loci(key, ['ingest', file, '--json'])).stdout);
    expect(preview.facts.length).toBeGreaterThanOrEqual(2);

    const declined = await loci(key, ['ingest', file], 'n\n');
    expect(declined.code).toBe(0);
    expect(declined.stderr).toContain(`Write ${preview.facts.length} memories? [y/N]`);
    expect(declined.stderr).toContain('nothing written');
    const c = new LociClient({ baseUrl: t.url, apiKey: key });
    expect((await c.memories.stats()).total).toBe(0);

    const confirmed = await loci(key, ['ingest', file], 'y\n');
    expect(confirmed.code, confirmed.stderr).toBe(0);
    expect(confirmed.stdout).toMatch(new RegExp(`wrote ${preview.facts.length} memories`));
    expect((await c.memories.stats()).total).toBe(preview.facts.length);

    // Facts already stored are left out of the preview: a second run has nothing to write.
    const again = JSON.parse((await loci(key, ['ingest', file, '--yes', '--json'])).stdout);
    expect(again.facts).toEqual([]);
    expect((await c.memories.stats()).total).toBe(preview.facts.length);
  }, 180_000);
});
