// The tool registry: every module under tools/ exports `tool` (or `tools`), one record per tool
// (see tool.ts). Adding a tool is adding a module there. The MCP server (HTTP and stdio) and
// GET /api/v1/tool-descriptions are generated from this list.
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ToolSpec } from './tool.js';

export const TOOL_PREFIX = 'loci_';

export interface Registry {
  /** In tools/list order. */
  tools: readonly ToolSpec[];
  get(name: string): ToolSpec | undefined;
}

const TOOLS_DIR = new URL('./tools/', import.meta.url);
let loading: Promise<Registry> | undefined;

/** The registry, loaded once per process (the modules are code: nothing in them changes). */
export function loadRegistry(): Promise<Registry> {
  loading ??= load();
  return loading;
}

async function load(): Promise<Registry> {
  // Source under tsx, compiled JS after a build: take whichever this module itself is.
  const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  const files = readdirSync(fileURLToPath(TOOLS_DIR)).filter((f) => f.endsWith(ext) && !f.endsWith('.d.ts')).sort();
  const specs: ToolSpec[] = [];
  for (const f of files) {
    const mod = (await import(new URL(f, TOOLS_DIR).href)) as { tool?: ToolSpec; tools?: ToolSpec[] };
    specs.push(...(mod.tools ?? []), ...(mod.tool ? [mod.tool] : []));
  }
  return makeRegistry(specs);
}

/** Checks the records and orders them; a malformed tool stops the service from starting. */
export function makeRegistry(specs: ToolSpec[]): Registry {
  const byName = new Map<string, ToolSpec>();
  for (const t of specs) {
    const problem = !t.name?.startsWith(TOOL_PREFIX) ? `a name starting with ${TOOL_PREFIX}`
      : byName.has(t.name) ? 'a unique name'
      : typeof t.handler !== 'function' ? 'a handler'
      : t.input?.type !== 'object' ? 'an object input schema'
      : !t.description ? 'a description'
      : !t.rest || (typeof t.rest === 'object' && Object.keys(t.rest).length === 0) ? 'a REST twin'
      : null;
    if (problem) throw new Error(`tool ${t.name ?? '(unnamed)'} needs ${problem}`);
    byName.set(t.name, t);
  }
  const tools = [...byName.values()].sort((a, b) => (a.order ?? 100) - (b.order ?? 100) || a.name.localeCompare(b.name));
  return { tools, get: (name) => byName.get(name) };
}

/** Every REST twin of a tool as `METHOD /path`. */
export const restTwins = (t: ToolSpec): string[] => (typeof t.rest === 'string' ? [t.rest] : Object.values(t.rest));
