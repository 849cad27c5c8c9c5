// One record per tool of the tool-call surface. The MCP server and the
// /api/v1/tool-descriptions endpoint are both generated from this list.
export interface ToolSpec {
  name: string;
  description: string;
  /** True when the tool only touches short-term (working) memory of the session. */
  stm_only: boolean;
}

export const TOOL_SPECS: ToolSpec[] = [
  { name: 'loci_remember', stm_only: false, description: 'Store a memory (a fact, decision, preference, task, …) for this agent or its team. Entities are extracted and contradictions with older memories are detected after the write.' },
  { name: 'loci_recall', stm_only: false, description: 'Hybrid recall (vector + keyword + entity) over stored memories, with a context summary citing memory ids.' },
  { name: 'loci_search', stm_only: false, description: 'Search memories and return the ranked matches without a summary.' },
  { name: 'loci_forget', stm_only: false, description: 'Soft-delete a memory by id.' },
  { name: 'loci_update', stm_only: false, description: 'Change the content, title or metadata of a memory; changed content is re-embedded.' },
  { name: 'loci_contradictions', stm_only: false, description: 'Show which memories a memory superseded or was superseded by.' },
  { name: 'loci_doc', stm_only: false, description: 'Documents in collections: op = write | read | query | search | delete over a collection.' },
  { name: 'loci_keystones', stm_only: false, description: 'The mandatory policy rules (keystones) that apply to this agent.' },
  { name: 'loci_entities', stm_only: false, description: 'List entities of the knowledge graph, optionally filtered by type or name.' },
  { name: 'loci_stats', stm_only: false, description: 'Counts of memories by type, agent and status.' },
];
