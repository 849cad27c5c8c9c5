// `loci keys create|list|revoke` against a real embedded data directory.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const dataDir = mkdtempSync(join(tmpdir(), 'loci-cli-'));
const loci = (...args: string[]) =>
  run(process.execPath, ['bin/loci.js', ...args], { env: { ...process.env, LOCI_DATA_DIR: dataDir }, timeout: 60_000 });

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('loci keys', () => {
  it('creates, lists and revokes keys; only a hash is stored', async () => {
    const created = await loci('keys', 'create', '--tenant', 'acme', '--agent', 'planner', '--fleet', 'red', '--trust', '2', '--name', 'cli');
    const json = JSON.parse(created.stdout.slice(0, created.stdout.lastIndexOf('}') + 1));
    expect(json).toMatchObject({ tenant_id: 'acme', agent_id: 'planner', fleet_id: 'red', trust_level: 2, name: 'cli' });
    expect(json.key).toMatch(/^loci_/);

    const listed = await loci('keys', 'list', '--tenant', 'acme');
    expect(listed.stdout).toContain(json.id);
    expect(listed.stdout).toContain('fleet=red');
    expect(listed.stdout).toContain('active');
    expect(listed.stdout).not.toContain(json.key);

    await loci('keys', 'revoke', json.id);
    expect((await loci('keys', 'list')).stdout).toMatch(new RegExp(`${json.id}.*revoked`));
  }, 180_000); // four CLI processes, each opening the embedded database

  it('refuses a bad trust level', async () => {
    await expect(loci('keys', 'create', '--tenant', 'acme', '--trust', '7')).rejects.toMatchObject({ code: 1 });
  });

  it('refuses a data directory held by a running process', async () => {
    // Claim the directory for this (live) test process, as a running server would.
    writeFileSync(join(dataDir, 'loci.pid'), String(process.pid));
    await expect(loci('keys', 'list')).rejects.toMatchObject({ stderr: expect.stringContaining('in use by process') });
    rmSync(join(dataDir, 'loci.pid'));
  });
});
