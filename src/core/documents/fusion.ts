// Reciprocal-rank fusion of ranked candidate lists (Cormack et al., 2009): each list adds
// weight / (k + rank) for every id it holds (weight 1 unless given); ranks are 1-based.
// Pure, so it is tested without a database. Shared by document and memory search.

export const RRF_K = 60;

export interface Fused {
  id: string;
  score: number;
  /** 1-based rank in each input list, null where the list does not hold the id. */
  ranks: (number | null)[];
}

export function reciprocalRankFusion(lists: readonly (readonly string[])[], k = RRF_K, weights?: readonly number[]): Fused[] {
  const byId = new Map<string, Fused>();
  lists.forEach((list, li) => {
    list.forEach((id, i) => {
      let f = byId.get(id);
      if (!f) byId.set(id, (f = { id, score: 0, ranks: lists.map(() => null) }));
      // An id listed twice in one list counts once, at its best rank.
      if (f.ranks[li] !== null) return;
      f.ranks[li] = i + 1;
      f.score += (weights?.[li] ?? 1) / (k + i + 1);
    });
  });
  const best = (f: Fused) => Math.min(...f.ranks.map((r) => r ?? Infinity));
  // Ties: the better single rank first, then earlier lists, then id for a stable order.
  return [...byId.values()].sort((a, b) =>
    b.score - a.score || best(a) - best(b) || firstList(a) - firstList(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

const firstList = (f: Fused) => {
  const i = f.ranks.findIndex((r) => r !== null);
  return i < 0 ? Infinity : i;
};
