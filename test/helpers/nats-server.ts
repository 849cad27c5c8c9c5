// A private nats-server on a random loopback port, for tests that need a server configuration the
// shared one does not have (users with restricted permissions). Needs the nats-server binary.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const HAS_NATS_SERVER = spawnSync('nats-server', ['--version'], { stdio: 'ignore' }).status === 0;

export interface PrivateNats {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts nats-server with JetStream and the given extra configuration. Clients that connect
 * without credentials act as the user named by `no_auth_user` in `extra`, if any.
 */
export async function startPrivateNats(extra = ''): Promise<PrivateNats> {
  const dir = mkdtempSync(join(tmpdir(), 'loci-nats-'));
  const conf = join(dir, 'nats.conf');
  writeFileSync(conf, `listen: "127.0.0.1:-1"\njetstream { store_dir: "${join(dir, 'js')}" }\n${extra}\n`);
  const child: ChildProcess = spawn('nats-server', ['-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
  const port = await new Promise<number>((resolve, reject) => {
    let log = '';
    const timer = setTimeout(() => reject(new Error(`nats-server did not start: ${log}`)), 10_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      const m = /Listening for client connections on [^:\s]+:(\d+)/.exec(log);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`nats-server exited with ${code}: ${log}`));
    });
  });
  child.stderr!.resume();
  return {
    url: `nats://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A user that may do everything except request messages from pull consumers. */
export const NO_PULL_USER = `
no_auth_user: loci
authorization {
  users = [
    { user: loci, password: unused, permissions: { publish: { allow: [">"], deny: ["$JS.API.CONSUMER.MSG.NEXT.>"] }, subscribe: ">" } }
  ]
}`;
