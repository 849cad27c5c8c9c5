// Lines of dialogue ("Melanie: I signed up for a pottery class") say what their speaker did, felt
// or owns: a query that names one of the speakers among the candidates ("What activities does
// Melanie partake in?") asks about that speaker's own lines more than about the lines others
// address to them ("Wow, Melanie, great pic!"). Those lines get a boost in fusion. A query that
// names no speaker, or candidates that are no dialogue, change nothing.
import { speakerOf } from '../passages/split.js';

/** The speakers of the candidates (by id) that the query names, as whole words; empty when none. */
export function namedSpeakers(query: string, heads: ReadonlyMap<string, string>): Set<string> {
  const speakers = new Set<string>();
  for (const head of heads.values()) {
    const s = speakerOf(head);
    if (s) speakers.add(s);
  }
  const q = ` ${query.toLowerCase().replace(/[^\p{L}\p{N}' -]+/gu, ' ').replace(/'s\b/g, '')} `;
  return new Set([...speakers].filter((s) => !ROLE.test(s) && q.includes(` ${s} `)));
}

// A chat role names no one a query asks about ("user", "assistant").
const ROLE = /^(?:user|assistant|human|ai|bot|system|agent)$/;

/**
 * The fused items with the score of each line spoken by a named speaker multiplied by 1 + boost,
 * re-sorted (stable for equal scores).
 */
export function boostSpeakers<T extends { id: string; score: number }>(fused: readonly T[], heads: ReadonlyMap<string, string>, named: ReadonlySet<string>, boost: number): T[] {
  if (!(boost > 0) || named.size === 0) return [...fused];
  const out = fused.map((f, order) => {
    const head = heads.get(f.id);
    const s = head === undefined ? null : speakerOf(head);
    return { f: s !== null && named.has(s) ? { ...f, score: f.score * (1 + boost) } : f, order };
  });
  out.sort((a, b) => b.f.score - a.f.score || a.order - b.order);
  return out.map((o) => o.f);
}
