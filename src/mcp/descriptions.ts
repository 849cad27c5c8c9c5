// Tool descriptions served at /api/v1/tool-descriptions, generated from the tool registry.
import { TOOL_SPECS } from './registry.js';

export function toolDescriptions(enriched: boolean): Record<string, string | { description: string; stm_only: boolean }> {
  const out: Record<string, string | { description: string; stm_only: boolean }> = {};
  for (const t of TOOL_SPECS) out[t.name] = enriched ? { description: t.description, stm_only: t.stm_only } : t.description;
  return out;
}
