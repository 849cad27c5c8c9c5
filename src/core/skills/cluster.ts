// Forge's clustering: groups recent memories of many agents that describe the same practice,
// by embedding similarity strengthened by shared entities. Pure and deterministic (ties are
// broken by id), so the same memories always give the same clusters.

export interface ClusterItem {
  id: string;
  agent_id: string;
  fleet_id: string | null;
  memory_type: string;
  content: string;
  /** ISO time the memory describes (ts_valid_start, else written). */
  observed_at: string;
  domain: string | null;
  vector: ArrayLike<number>;
  /** Normalised names of the entities it mentions. */
  entities: string[];
}

export interface ClusterParams {
  /** Average affinity (cosine + entityWeight × entity Jaccard) two groups need to be merged. */
  link: number;
  entityWeight: number;
  /**
   * Mean embedding of generic text under the same model: removed from every vector first, so
   * the similarity left is about content rather than the style all short notes share.
   */
  background?: ArrayLike<number> | null;
}

/** Chosen on the development split of `npm run bench forge` with the background removed (docs/skills.md). */
export const DEFAULT_CLUSTER_PARAMS: ClusterParams = { link: 0.55, entityWeight: 0.3 };

export interface Cluster {
  members: ClusterItem[];
  /** Mean affinity of each member to the others, same order as members. */
  centrality: number[];
}

function normalise(v: ArrayLike<number>, minus?: ArrayLike<number> | null): Float64Array {
  const out = new Float64Array(v.length);
  let n = 0;
  for (let i = 0; i < v.length; i++) {
    out[i] = v[i] - (minus && minus.length === v.length ? minus[i] : 0);
    n += out[i] * out[i];
  }
  const s = n > 0 ? 1 / Math.sqrt(n) : 0;
  for (let i = 0; i < v.length; i++) out[i] *= s;
  return out;
}

function dot(a: Float64Array, b: Float64Array): number {
  let s = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) s += a[i] * b[i];
  return s;
}

export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (!a.size || !b.size) return 0;
  let inter = 0;
  for (const x of a) if (b.has(x)) inter++;
  return inter / (a.size + b.size - inter);
}

/**
 * Average-linkage clustering cut at `link`: two groups merge while the mean affinity between
 * their members reaches it, so a cluster holds together as a whole instead of chaining through
 * single close pairs. Nearest-neighbour chain: O(n²) time and memory. Returns clusters of two
 * or more, largest first.
 */
export function clusterMemories(items: ClusterItem[], params: ClusterParams = DEFAULT_CLUSTER_PARAMS): Cluster[] {
  const sorted = [...items].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const n = sorted.length;
  const vecs = sorted.map((m) => normalise(m.vector, params.background));
  const ents = sorted.map((m) => new Set(m.entities));
  const aff = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const a = dot(vecs[i], vecs[j]) + params.entityWeight * jaccard(ents[i], ents[j]);
      aff[i * n + j] = a;
      aff[j * n + i] = a;
    }
  }
  const original = aff.slice();
  const size = new Array<number>(n).fill(1);
  const groups: number[][] = sorted.map((_, i) => [i]);
  const active = new Uint8Array(n).fill(1);
  let remaining = n;
  const chain: number[] = [];
  while (remaining > 1) {
    if (!chain.length) {
      let first = 0;
      while (!active[first]) first++;
      chain.push(first);
    }
    const a = chain[chain.length - 1];
    const prev = chain.length > 1 ? chain[chain.length - 2] : -1;
    let best = -1;
    let bestAff = -Infinity;
    for (let c = 0; c < n; c++) {
      if (c === a || !active[c]) continue;
      const v = aff[a * n + c];
      // Ties go to the chain's previous group, then to the lowest index: the chain always ends.
      if (v > bestAff || (v === bestAff && c === prev)) {
        best = c;
        bestAff = v;
      }
    }
    if (bestAff < params.link) {
      // Nothing is close enough, and merging never raises an average: this group is final.
      active[a] = 0;
      remaining--;
      chain.pop();
      continue;
    }
    if (best !== prev) {
      chain.push(best);
      continue;
    }
    chain.pop();
    chain.pop();
    const [keep, gone] = a < best ? [a, best] : [best, a];
    for (let c = 0; c < n; c++) {
      if (!active[c] || c === keep || c === gone) continue;
      const v = (size[keep] * aff[keep * n + c] + size[gone] * aff[gone * n + c]) / (size[keep] + size[gone]);
      aff[keep * n + c] = v;
      aff[c * n + keep] = v;
    }
    size[keep] += size[gone];
    groups[keep].push(...groups[gone]);
    groups[gone] = [];
    active[gone] = 0;
    remaining--;
  }

  const clusters: Cluster[] = [];
  for (const g of groups) {
    if (g.length < 2) continue;
    g.sort((x, y) => x - y);
    const centrality = g.map((i) => {
      let sum = 0;
      for (const j of g) if (j !== i) sum += original[i * n + j];
      return sum / (g.length - 1);
    });
    clusters.push({ members: g.map((i) => sorted[i]), centrality });
  }
  return clusters.sort((a, b) => b.members.length - a.members.length || (a.members[0].id < b.members[0].id ? -1 : 1));
}

/** Members from the most to the least central. */
export function byCentrality(c: Cluster): ClusterItem[] {
  return c.members
    .map((m, i) => ({ m, s: c.centrality[i] }))
    .sort((a, b) => b.s - a.s || (a.m.id < b.m.id ? -1 : 1))
    .map((x) => x.m);
}

export function clusterStats(c: Cluster) {
  const times = c.members.map((m) => Date.parse(m.observed_at)).filter(Number.isFinite);
  const fleets = new Set(c.members.map((m) => m.fleet_id));
  return {
    cluster_size: c.members.length,
    distinct_agents: new Set(c.members.map((m) => m.agent_id)).size,
    agents: [...new Set(c.members.map((m) => m.agent_id))].sort(),
    window_start: new Date(Math.min(...times)).toISOString(),
    window_end: new Date(Math.max(...times)).toISOString(),
    /** The one fleet every member belongs to, else null (tenant-wide). */
    fleet_id: fleets.size === 1 ? [...fleets][0] : null,
  };
}

/** Affinity of two memories under the given parameters (used to group shared actions). */
export function similarity(a: ClusterItem, b: ClusterItem): number {
  return dot(normalise(a.vector), normalise(b.vector));
}

/** Mean of several vectors (the background direction of a model). */
export function meanVector(vs: ArrayLike<number>[]): Float64Array {
  const out = new Float64Array(vs[0]?.length ?? 0);
  for (const v of vs) for (let i = 0; i < out.length; i++) out[i] += v[i] / vs.length;
  return out;
}
