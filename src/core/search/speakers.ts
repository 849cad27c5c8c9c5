// Lines of dialogue ("Melanie: I signed up for a pottery class") say what their speaker did, felt
// or owns: a query that names one of the speakers among the candidates ("What activities does
// Melanie partake in?") asks about that speaker's own lines more than about the lines others
// address to them ("Wow, Melanie, great pic!"). Those lines get a boost in fusion. A query that
// names no speaker, or candidates that are no dialogue, change nothing.
import { ROLES, speakerOf } from '../passages/split.js';

// A chat role names no one a query asks about ("user", "assistant").
const ROLE = new RegExp(`^(?:${ROLES})$`);

/** The speaker of each candidate that is a line of dialogue, from its first characters (by id). */
export function lineSpeakers(heads: ReadonlyMap<string, string>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [id, head] of heads) {
    const s = speakerOf(head);
    if (s !== null && !ROLE.test(s)) out.set(id, s);
  }
  return out;
}

/** The speakers the query names, as whole words; empty when none. */
export function namedSpeakers(query: string, speakers: ReadonlyMap<string, string>): Set<string> {
  const q = ` ${query.toLowerCase().replace(/[^\p{L}\p{N}' -]+/gu, ' ').replace(/'s\b/g, '')} `;
  return new Set([...new Set(speakers.values())].filter((s) => q.includes(` ${s} `)));
}

/**
 * The fused items with the score of each line spoken by a named speaker multiplied by 1 + boost,
 * re-sorted (stable for equal scores).
 */
export function boostSpeakers<T extends { id: string; score: number }>(fused: readonly T[], speakers: ReadonlyMap<string, string>, named: ReadonlySet<string>, boost: number): T[] {
  if (!(boost > 0) || named.size === 0) return [...fused];
  const out = fused.map((f, order) => {
    const s = speakers.get(f.id);
    return { f: s !== undefined && named.has(s) ? { ...f, score: f.score * (1 + boost) } : f, order };
  });
  out.sort((a, b) => b.f.score - a.f.score || a.order - b.order);
  return out.map((o) => o.f);
}
