// MCP clients for the tests: the SDK's own Client over Streamable HTTP, and over stdio against the
// real `loci mcp` process (bin/loci.js), plus a call helper that parses the JSON text result.
import { spawn } from 'node:child_process';
import { expect } from 'vitest';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';

export const BIN = fileURLToPath(new URL('../../bin/loci.js', import.meta.url));
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface ToolResult {
  isError: boolean;
  body: any;
}

export type Call = (name: string, args?: Record<string, unknown>) => Promise<ToolResult>;

export async function httpClient(url: string, headers: Record<string, string>, query = ''): Promise<Client> {
  const client = new Client({ name: 'loci-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp${query}`), { requestInit: { headers } }));
  return client;
}

/** Environment of a `loci mcp` child: quiet, one embedder worker, nothing inherited from the test run but the basics. */
export function mcpEnv(env: Record<string, string>): Record<string, string> {
  return { ...getDefaultEnvironment(), LOCI_LOG_LEVEL: 'warn', LOCI_EMBED_WORKERS: '1', NO_COLOR: '1', ...env };
}

export interface StdioSession {
  client: Client;
  transport: StdioClientTransport;
  stderr: () => string;
}

export async function stdioClient(env: Record<string, string>): Promise<StdioSession> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp'], env: mcpEnv(env), stderr: 'pipe', cwd: ROOT });
  let err = '';
  transport.stderr?.on('data', (d) => (err += String(d)));
  const client = new Client({ name: 'loci-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport, stderr: () => err };
}

/** Runs `loci mcp` expecting it to refuse to start: its exit code and what it printed. */
export function failedStart(env: Record<string, string>, timeoutMs = 90_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'mcp'], { env: mcpEnv(env), cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += String(d)));
    child.stderr.on('data', (d) => (stderr += String(d)));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`loci mcp did not exit within ${timeoutMs} ms; stderr: ${stderr}`));
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export function caller(client: Client): Call {
  return async (name, args = {}) => {
    const r = await client.callTool({ name, arguments: args });
    const content = r.content as { type: string; text: string }[];
    expect(content).toHaveLength(1);
    expect(content[0].type).toBe('text');
    return { isError: r.isError === true, body: JSON.parse(content[0].text) };
  };
}

/** A result that must have succeeded. */
export async function ok(call: Call, name: string, args: Record<string, unknown> = {}): Promise<any> {
  const r = await call(name, args);
  expect(r.isError, `${name} ${JSON.stringify(args)} → ${JSON.stringify(r.body)}`).toBe(false);
  return r.body;
}

/** A result that must have failed with this REST status (422: the {detail} body). */
export async function refused(call: Call, status: number, name: string, args: Record<string, unknown> = {}): Promise<any> {
  const r = await call(name, args);
  expect(r.isError, `${name} ${JSON.stringify(args)} → ${JSON.stringify(r.body)}`).toBe(true);
  if (status === 422) expect(r.body.detail, JSON.stringify(r.body)).toBeInstanceOf(Array);
  else expect(r.body, JSON.stringify(r.body)).toMatchObject({ type: 'about:blank', status });
  return r.body;
}

/** JSON nested `depth` levels deep. */
export function nested(depth: number): unknown {
  let v: unknown = 'leaf';
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}
