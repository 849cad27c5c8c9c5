// Consecutive groups under a limit: how work is cut into short transactions on the embedded
// database (bulk storage, passages) and background texts into short embedder jobs.

/**
 * Consecutive groups of `items`, in order, each with at most `most.items` items and a total
 * `weight` of at most `most.weight`; an item heavier than that alone forms a group.
 */
export function consecutiveGroups<T>(items: readonly T[], weight: (item: T) => number, most: { items?: number; weight: number }): T[][] {
  const out: T[][] = [];
  let cur: T[] = [];
  let total = 0;
  for (const item of items) {
    const w = weight(item);
    if (cur.length && (cur.length === most.items || total + w > most.weight)) {
      out.push(cur);
      cur = [];
      total = 0;
    }
    cur.push(item);
    total += w;
  }
  if (cur.length) out.push(cur);
  return out;
}
