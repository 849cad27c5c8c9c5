// GET /api/v1/tool-descriptions, generated from the tool registry: `{name: description}`, or with
// enriched=true `{name: {description, stm_only, input_schema, trust_level}}`.
import type { Registry } from './registry.js';

export interface EnrichedDescription {
  description: string;
  stm_only: boolean;
  input_schema: unknown;
  trust_level: number;
}

export function toolDescriptions(registry: Registry, enriched: boolean): Record<string, string | EnrichedDescription> {
  const out: Record<string, string | EnrichedDescription> = Object.create(null);
  for (const t of registry.tools) {
    out[t.name] = enriched
      ? { description: t.description, stm_only: t.stm_only, input_schema: JSON.parse(JSON.stringify(t.input)), trust_level: t.trust }
      : t.description;
  }
  return out;
}
