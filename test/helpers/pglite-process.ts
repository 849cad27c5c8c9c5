// Starts and stops test/helpers/pglite-server.ts as a child process (see there).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface PgliteProcess {
  url: string;
  /** Stops the server process (the data dir stays). */
  stop(): Promise<void>;
  /** Starts it again on the same port and data dir. */
  start(): Promise<void>;
  /** Stops it and removes the data dir. */
  close(): Promise<void>;
}


export async function startPgliteProcess(template: string): Promise<PgliteProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'loci-pgproc-'));
  const port = await freePort();
  let child: ChildProcess | null = null;

  const start = () => new Promise<void>((resolve, reject) => {
    const c = spawn(process.execPath, ['--import', 'tsx', 'test/helpers/pglite-server.ts', join(dir, 'db'), String(port), template], {
      cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    const timer = setTimeout(() => reject(new Error(`PGlite server did not start: ${log}`)), 120_000);
    c.stdout!.on('data', (d) => {
      log += String(d);
      if (log.includes('listening')) {
        clearTimeout(timer);
        child = c;
        resolve();
      }
    });
    c.stderr!.on('data', (d) => (log += String(d)));
    c.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`PGlite server exited with ${code}: ${log}`));
    });
  });

  const stop = async () => {
    const c = child;
    child = null;
    if (!c || c.exitCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill('SIGTERM');
    await exited;
  };

  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop,
    start,
    async close() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
