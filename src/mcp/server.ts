// The MCP server of one caller: tools/list and tools/call from the registry, and `instructions`
// carrying the caller's keystones. Transport-free: http.ts serves it on /mcp, stdio.ts on stdio.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Caller } from '../core/caller.js';
import { keystoneInstructions } from '../core/keystones.js';
import type { Services } from '../services.js';
import { PACKAGE_VERSION } from '../version.js';
import { callTool } from './call.js';
import { registerSkillPrompts } from './skill-prompts.js';
import type { Registry } from './registry.js';
import type { ToolContext } from './tool.js';

const ABOUT = 'Loci: persistent memory shared by your agents. Recall before answering about past work or decisions ' +
  '(loci_recall); store durable facts, decisions and preferences as they appear (loci_write). Your identity comes from your key.';

/** The server's instructions: what Loci is for, then the caller's keystones, heaviest first. */
export async function sessionInstructions(s: Services, caller: Caller, fleetId?: string, log?: (err: unknown) => void): Promise<string> {
  try {
    const rules = keystoneInstructions(await s.keystones.list(caller, { fleet_id: fleetId }));
    return rules ? `${ABOUT}\n\n${rules}` : ABOUT;
  } catch (err) {
    // No keystones reachable (e.g. no tenant for this caller): the session still starts.
    log?.(err);
    return ABOUT;
  }
}

/** Keywords left out of the listing: length bounds of strings, which agents never come near and pay for. */
const UNLISTED = new Set(['minLength', 'maxLength']);
const isEmptyObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0;

/** A tool as tools/list shows it: its argument schema less length bounds (still enforced) and empty `properties`. */
export const toMcpTool = (t: Registry['tools'][number]): Tool => ({
  name: t.name,
  description: t.description,
  inputSchema: JSON.parse(JSON.stringify(t.input, function (this: Record<string, unknown>, k, v) {
    if (UNLISTED.has(k) && typeof v === 'number') return undefined;
    // `{}` as the properties of a free-form object says nothing; the schema root keeps its own.
    if (k === 'properties' && isEmptyObject(v) && this.additionalProperties === true) return undefined;
    return v;
  })),
});

export function createMcpServer(registry: Registry, ctx: ToolContext, opts: { instructions?: string; log?: (err: unknown) => void } = {}): Server {
  const server = new Server(
    { name: 'loci', version: PACKAGE_VERSION },
    { capabilities: { tools: {}, prompts: {} }, ...(opts.instructions ? { instructions: opts.instructions } : {}) },
  );
  const tools = registry.tools.map(toMcpTool);
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => callTool(registry, ctx, req.params.name, req.params.arguments, opts.log));
  registerSkillPrompts(server, ctx);
  return server;
}
