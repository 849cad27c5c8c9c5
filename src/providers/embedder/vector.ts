// Small vector helpers shared by the embedders.

/** Scales v to unit length in place (cosine = dot product downstream). A zero vector stays zero. */
export function normalize(v: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i] * v[i];
  const norm = Math.sqrt(sum);
  if (norm > 0 && Math.abs(norm - 1) > 1e-7) for (let i = 0; i < v.length; i++) v[i] /= norm;
  return v;
}

export function dot(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) throw new Error(`dimension mismatch: ${a.length} vs ${b.length}`);
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/** Splits items into contiguous chunks of at most `max` items, keeping order. */
export function chunk<T>(items: T[], max: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += max) out.push(items.slice(i, i + max));
  return out;
}
