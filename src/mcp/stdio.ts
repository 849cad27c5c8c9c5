// `loci mcp`: the MCP server on stdin/stdout, for a harness that starts it as a command.
//  - LOCI_URL set: a proxy to that running Loci's /mcp, authenticated with LOCI_API_KEY.
//  - otherwise: Loci itself on the embedded data dir (or DATABASE_URL), as LOCI_API_KEY's caller,
//    or without a key as the standalone tenant at trust 1 (LOCI_AGENT_ID names the agent).
// stdout carries the protocol only: everything else the process prints goes to stderr.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema, GetPromptRequestSchema, ListPromptsRequestSchema, ListToolsRequestSchema, type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import pino from 'pino';
import type { Config } from '../config.js';
import { type Caller, TRUST } from '../core/caller.js';
import { keyCaller } from '../core/keys.js';
import { problemBody } from '../http/errors.js';
import { DataDirInUseError } from '../store/dir-lock.js';
import { PACKAGE_VERSION } from '../version.js';
import { loadRegistry } from './registry.js';
import { createMcpServer, sessionInstructions } from './server.js';

/** A refusal to start: printed as one line on stderr, exit code 1. */
export class McpStartError extends Error {}

/** Takes stdout for the protocol and sends every other write there to stderr. */
function claimStdout(): { write(chunk: string): boolean; once(event: 'drain', fn: () => void): unknown } {
  const out = process.stdout;
  const write = out.write.bind(out) as (chunk: string) => boolean;
  // Logs, worker threads' console output and libraries that print must not corrupt the protocol.
  out.write = ((chunk: unknown, ...rest: unknown[]) => (process.stderr.write as (...a: unknown[]) => boolean)(chunk, ...rest)) as typeof out.write;
  return { write, once: (event, fn) => out.once(event, fn) };
}

export async function runStdio(config: Config, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const protocol = claimStdout();
  const log = pino({ level: config.logLevel === 'info' ? 'warn' : config.logLevel }, pino.destination(2));
  const stopping: (() => Promise<void>)[] = [];
  const stop = async (code = 0) => {
    for (const fn of stopping.reverse()) await fn().catch(() => undefined);
    process.exit(code);
  };
  const server = env.LOCI_URL ? await proxyServer(env, stopping) : await embeddedServer(config, env, log, stopping);
  stopping.push(() => server.close());
  // The harness closing our stdin (or ending us) ends the session.
  process.stdin.on('end', () => void stop());
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  await server.connect(new StdioServerTransport(process.stdin, protocol as unknown as NodeJS.WriteStream));
}

async function embeddedServer(config: Config, env: NodeJS.ProcessEnv, log: pino.Logger, stopping: (() => Promise<void>)[]): Promise<Server> {
  const { createServices } = await import('../services.js');
  const { ensureAdminKey } = await import('../server.js');
  let services;
  try {
    services = await createServices(config, { log });
  } catch (err) {
    if (err instanceof DataDirInUseError) {
      throw new McpStartError(
        `data directory ${err.dir} is held by process ${err.pid} (a running Loci server?); ` +
          'stop it, or set LOCI_URL and LOCI_API_KEY to use that server');
    }
    throw err;
  }
  stopping.push(() => services.close());
  const created = await ensureAdminKey(services);
  if (created) log.warn(`created the admin key; it is in ${config.dataDir}/admin.key`);
  const caller = await stdioCaller(config, env, services.keys);
  const registry = await loadRegistry();
  const warn = (err: unknown) => log.warn({ err }, 'mcp');
  const instructions = await sessionInstructions(services, caller, env.LOCI_FLEET_ID || undefined, warn);
  return createMcpServer(registry, { services, caller }, { instructions, log: warn });
}

/** Who the embedded server acts for: LOCI_API_KEY's caller, else the standalone tenant at trust 1. */
async function stdioCaller(config: Config, env: NodeJS.ProcessEnv, keys: import('../core/keys.js').KeyService): Promise<Caller> {
  const raw = env.LOCI_API_KEY?.trim();
  if (raw) {
    const key = await keys.resolve(raw);
    if (!key) throw new McpStartError('LOCI_API_KEY is not an active key of this data directory');
    return keyCaller(key);
  }
  if (config.mode !== 'standalone') throw new McpStartError('LOCI_MODE=multitenant needs LOCI_API_KEY');
  return {
    tenantId: config.standaloneTenant, agentId: env.LOCI_AGENT_ID || null, trust: TRUST.standard,
    source: 'standalone', readableTenants: [], authenticated: true,
  };
}

/** A stdio server answering from a running Loci's /mcp. */
async function proxyServer(env: NodeJS.ProcessEnv, stopping: (() => Promise<void>)[]): Promise<Server> {
  const base = env.LOCI_URL!.replace(/\/+$/, '');
  let url: URL;
  try {
    url = new URL(base.endsWith('/mcp') ? base : `${base}/mcp`);
  } catch {
    throw new McpStartError(`LOCI_URL is not a URL: ${env.LOCI_URL}`);
  }
  if (env.LOCI_FLEET_ID) url.searchParams.set('fleet_id', env.LOCI_FLEET_ID);
  const headers: Record<string, string> = env.LOCI_API_KEY ? { 'x-api-key': env.LOCI_API_KEY.trim() } : {};
  const client = new Client({ name: 'loci-mcp-proxy', version: PACKAGE_VERSION });
  try {
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  } catch (err) {
    const code = (err as { code?: number }).code;
    throw new McpStartError(code === 401
      ? `${url.origin} refused LOCI_API_KEY (401)`
      : `cannot reach Loci at ${url.href}: ${(err as Error).message}`);
  }
  stopping.push(() => client.close());
  const instructions = client.getInstructions();
  const prompts = !!client.getServerCapabilities()?.prompts;
  const server = new Server(
    { name: 'loci', version: PACKAGE_VERSION },
    { capabilities: { tools: {}, ...(prompts ? { prompts: {} } : {}) }, ...(instructions ? { instructions } : {}) },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => client.listTools());
  if (prompts) {
    // Active skills, as the server lists them (skill-prompts.ts).
    server.setRequestHandler(ListPromptsRequestSchema, async (req) => client.listPrompts(req.params));
    server.setRequestHandler(GetPromptRequestSchema, async (req) => client.getPrompt(req.params));
  }
  server.setRequestHandler(CallToolRequestSchema, async (req): Promise<CallToolResult> => {
    try {
      return (await client.callTool({ name: req.params.name, arguments: req.params.arguments })) as CallToolResult;
    } catch (err) {
      // Refused before MCP (429, 401, an over-deep body): the REST body the server answered with.
      const status = (err as { code?: number }).code;
      const body = typeof status === 'number' && status >= 400
        ? restBody(err as Error) ?? problemBody(status, 'Request refused', (err as Error).message)
        : problemBody(502, 'Bad Gateway', `Loci at ${url.origin} did not answer: ${(err as Error).message}`);
      return { content: [{ type: 'text', text: JSON.stringify(body) }], isError: true };
    }
  });
  return server;
}

/** The JSON body an HTTP error of the client transport quotes at the end of its message, if any. */
function restBody(err: Error): Record<string, unknown> | null {
  const m = /(\{.*\})\s*$/s.exec(err.message);
  if (!m) return null;
  try {
    const body = JSON.parse(m[1]);
    return typeof body === 'object' && body !== null && ('status' in body || 'detail' in body) ? body : null;
  } catch {
    return null;
  }
}
