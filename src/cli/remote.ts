// What every command that talks to a running Loci shares: connection options, the client, output.
import type { Command } from 'commander';
import { LociClient, LociConnectionError, LociError, type RetryInfo } from '@loci/client';
import { loadConfig } from '../config.js';

export interface RemoteOptions {
  url?: string;
  key?: string;
  tenant?: string;
  agent?: string;
  json?: boolean;
}

/** Adds --url, --key, --tenant, --agent and --json to a command. */
export function remoteOptions(cmd: Command): Command {
  return cmd
    .option('--url <url>', 'the Loci server (default LOCI_URL, else LOCI_HOST:LOCI_PORT)')
    .option('--key <key>', 'API key (default LOCI_API_KEY)')
    .option('--tenant <id>', "tenant (default: the key's)")
    .option('--agent <id>', "agent writing and viewing (default: the key's, else default)")
    .option('--json', 'machine-readable output on stdout');
}

export function serverUrl(env: NodeJS.ProcessEnv = process.env): string {
  if (env.LOCI_URL) return env.LOCI_URL;
  const c = loadConfig(env);
  return `http://${c.host === '0.0.0.0' ? '127.0.0.1' : c.host}:${c.port}`;
}

export function clientFor(o: RemoteOptions, env: NodeJS.ProcessEnv = process.env): LociClient {
  return new LociClient({
    baseUrl: o.url ?? serverUrl(env),
    apiKey: o.key ?? env.LOCI_API_KEY,
    tenantId: o.tenant,
    agentId: o.agent,
    onRetry: (r: RetryInfo) => {
      const why = r.status === null ? 'connection lost' : `HTTP ${r.status}`;
      process.stderr.write(`retrying ${r.method.toUpperCase()} ${r.path} in ${(r.delayMs / 1000).toFixed(1)} s (${why})\n`);
    },
  });
}

export const out = (s: string): void => {
  process.stdout.write(s.endsWith('\n') ? s : `${s}\n`);
};
export const printJson = (v: unknown): void => out(JSON.stringify(v, null, 2));

/** Runs a command's body; an API or connection failure is one line on stderr and exit code 1. */
export async function run(fn: () => Promise<number | void>): Promise<void> {
  try {
    const code = await fn();
    if (typeof code === 'number') process.exitCode = code;
  } catch (err) {
    if (err instanceof LociError || err instanceof LociConnectionError) {
      process.stderr.write(`loci: ${err.message}\n`);
      process.exitCode = 1;
      return;
    }
    throw err;
  }
}

/** One line of a memory for people: id, type, weight, status and the start of its content. */
export function memoryLine(m: { id: string; memory_type: string; weight: number; status?: string; content: string }, width = 100): string {
  const text = m.content.replace(/\s+/g, ' ');
  const cut = text.length > width ? `${text.slice(0, width - 1)}…` : text;
  return `${m.id}  ${m.memory_type.padEnd(12)} ${m.weight.toFixed(2)}  ${(m.status ?? '').padEnd(10)} ${cut}`;
}
