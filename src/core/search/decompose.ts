// Query decomposition without an LLM: a question that joins clauses ("Where did she go and what
// did she buy?") or coordinates names ("What do Jon and Gina both like?") asks for evidence that
// sits in different memories; one ranking of the whole question favours memories matching most of
// it, so the evidence of one part may never reach the top. Each part is searched on its own as
// well (service.ts). Pure: tested without a database.

const QUESTION_WORDS = 'what|when|where|who|whom|whose|why|how|which|did|does|do|is|are|was|were|has|have|had|can|could|would|will';
/** "…, and what …", "… and when …", "…; …": a new clause starts. */
const CLAUSE_BREAK = new RegExp(`\\s*(?:;|,?\\s+(?:and|or|but)\\s+(?=(?:${QUESTION_WORDS})\\b))\\s*`, 'i');
/** "A, B and C", "A and B", "A & B" of single words (names, things): a coordination. */
const COORDINATION = /\b((?:[\p{L}\p{N}'’-]+,\s+)*[\p{L}\p{N}'’-]+),?\s+(?:and|or|&)\s+([\p{L}\p{N}'’-]+)\b/iu;
/** Words that mark the coordination as joint ("both", "together", "in common"); dropped from the parts. */
const JOINT = /\b(?:both|together|each|in common|same)\b/gi;
const STOP = new Set(['a', 'an', 'the', 'of', 'to', 'in', 'on', 'at', 'for', 'with', 'and', 'or', 'is', 'are', 'was', 'were', 'be', 'do', 'does', 'did', 'has', 'have', 'had',
  'what', 'when', 'where', 'who', 'why', 'how', 'which', 'her', 'his', 'their', 'she', 'he', 'they', 'it', 'i', 'you', 'we', 'my', 'your']);

const contentWords = (s: string) => (s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => !STOP.has(w));
const tidy = (s: string) => s.replace(JOINT, ' ').replace(/\s+/g, ' ').replace(/\s+([?.!,])/g, '$1').trim();

/**
 * The parts of a question worth searching on their own (never the question itself); empty when it
 * has one part. Clauses are split first; then in each, a coordination of single words yields one
 * part per conjunct, the rest of the clause kept ("What do Jon and Gina like?" → "What do Jon
 * like?", "What do Gina like?"). Parts without a content word are dropped.
 */
export function decomposeQuery(query: string, maxParts = 4): string[] {
  const clauses = query.split(CLAUSE_BREAK).map((c) => c.trim()).filter(Boolean);
  const parts: string[] = [];
  for (const clause of clauses) {
    const m = COORDINATION.exec(clause);
    // "Melanie and her kids" coordinates phrases, not words: left whole.
    if (!m || [...m[1].split(/,\s+/), m[2]].some((c) => STOP.has(c.toLowerCase()))) {
      parts.push(tidy(clause));
      continue;
    }
    const conjuncts = [...m[1].split(/,\s+/), m[2]];
    const before = clause.slice(0, m.index);
    const after = clause.slice(m.index + m[0].length);
    for (const c of conjuncts) parts.push(tidy(`${before}${c}${after}`));
  }
  const seen = new Set<string>([query.trim().toLowerCase()]);
  const out: string[] = [];
  for (const p of parts) {
    const key = p.toLowerCase();
    if (seen.has(key) || contentWords(p).length === 0) continue;
    seen.add(key);
    out.push(p);
  }
  return out.length >= 2 || (out.length === 1 && clauses.length > 1) ? out.slice(0, maxParts) : [];
}
