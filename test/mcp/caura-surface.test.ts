// An agent prompt written for Caura's MCP tools works with `caura_` → `loci_`: every argument
// Caura's tools take is an argument of ours with the same default, and the same ones are required.
// The table is Caura's tools/list (core-api mcp_server.py) for the nine tools Loci serves.
import { describe, expect, it } from 'vitest';
import { loadRegistry } from '../../src/mcp/registry.js';
import { toMcpTool } from '../../src/mcp/server.js';

const NONE = undefined;
/** Caura's arguments per tool, with their defaults (NONE: no default, or null). */
const CAURA: Record<string, { required: string[]; args: Record<string, unknown> }> = {
  write: { required: [], args: { content: NONE, items: NONE, agent_id: 'mcp-agent', fleet_id: NONE, visibility: NONE, memory_type: NONE, weight: NONE, source_uri: NONE, run_id: NONE, metadata: NONE, status: NONE, write_mode: NONE } },
  recall: { required: ['query'], args: { query: NONE, agent_id: 'mcp-agent', filter_agent_id: NONE, memory_type: NONE, status: NONE, fleet_ids: NONE, include_brief: false, top_k: 5 } },
  list: { required: [], args: { agent_id: 'mcp-agent', scope: 'agent', fleet_id: NONE, written_by: NONE, memory_type: NONE, status: NONE, weight_min: NONE, weight_max: NONE, created_after: NONE, created_before: NONE, sort: 'created_at', order: 'desc', limit: 25, cursor: NONE, include_deleted: false } },
  manage: { required: ['op'], args: { op: NONE, memory_id: NONE, memory_ids: NONE, status: NONE, content: NONE, memory_type: NONE, weight: NONE, title: NONE, metadata: NONE, source_uri: NONE, agent_id: 'mcp-agent' } },
  doc: { required: ['op'], args: { op: NONE, collection: NONE, doc_id: NONE, data: NONE, where: NONE, order_by: NONE, order: 'asc', limit: 20, offset: 0, agent_id: 'mcp-agent', fleet_id: NONE, query: NONE, top_k: 5 } },
  entity_get: { required: ['entity_id'], args: { entity_id: NONE } },
  stats: { required: [], args: { scope: 'agent', fleet_id: NONE, agent_id: 'mcp-agent', memory_type: NONE, status: NONE, include_deleted: false } },
  keystones: { required: [], args: { agent_id: 'mcp-agent', fleet_id: NONE } },
  keystones_set: { required: ['op', 'doc_id'], args: { op: NONE, doc_id: NONE, title: NONE, content: NONE, scope: NONE, weight: NONE, fleet_id: NONE, agent_id: NONE, author_user_id: NONE } },
};
/** Caura's op values of op-dispatched tools. */
const CAURA_OPS: Record<string, string[]> = {
  manage: ['read', 'update', 'transition', 'delete', 'bulk_delete', 'lineage'],
  doc: ['write', 'read', 'query', 'delete', 'list_collections', 'search'],
  keystones_set: ['set', 'delete'],
};

describe("Caura's tool surface, with our prefix", () => {
  it('serves exactly these tools, each taking every argument of its Caura twin with the same default', async () => {
    const tools = (await loadRegistry()).tools.map(toMcpTool);
    expect(tools.map((t) => t.name).sort()).toEqual(Object.keys(CAURA).map((n) => `loci_${n}`).sort());
    for (const [name, caura] of Object.entries(CAURA)) {
      const ours = tools.find((t) => t.name === `loci_${name}`)!.inputSchema as { properties: Record<string, { default?: unknown; enum?: string[] }>; required?: string[] };
      expect(ours.required ?? [], name).toEqual(caura.required);
      for (const [arg, dflt] of Object.entries(caura.args)) {
        expect(ours.properties, `loci_${name} lacks ${arg}`).toHaveProperty(arg);
        // agent_id: Caura's literal default is what ours falls back to when the key names no agent.
        if (arg !== 'agent_id') expect(ours.properties[arg].default, `loci_${name}.${arg}`).toEqual(dflt);
      }
      if (CAURA_OPS[name]) expect(ours.properties.op.enum, name).toEqual(expect.arrayContaining(CAURA_OPS[name]));
    }
  });
});
