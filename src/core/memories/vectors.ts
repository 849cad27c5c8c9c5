// The vector a stored memory gets. A model that reads only a window of a text (USE-Lite: its
// first ~500 characters, 128 tokens) spends most of a long memory's write on that one call, which
// runs on one worker thread while the other waits: ~80 ms for the window, against ~50 ms for its
// two halves embedded side by side on two workers. So a text longer than the window is embedded as
// the window's two halves, and its vector is their mean (normalised). The mean reads the same words
// the window did (cosine to the window's own vector 0.85–0.95 on LoCoMo text); the text beyond the
// window reaches search through the memory's passages, as before. Shorter texts, and models that
// read a whole text, are embedded as they are.
import type { Embedder } from '../../providers/embedder/types.js';
import { normalize } from '../../providers/embedder/vector.js';

/** Where a half may end, as a share of the window: near its middle, so both halves cost alike. */
const CUT_FROM = 0.35;
const CUT_TO = 0.65;

/**
 * The two halves of a text's window when the text is longer than the window (null otherwise):
 * cut at the line end, else the sentence end, else the space nearest the window's middle.
 */
export function windowHalves(text: string, windowChars: number | undefined): [string, string] | null {
  if (windowChars === undefined || text.length <= windowChars) return null;
  const head = text.slice(0, windowChars);
  const mid = head.length / 2;
  const lo = Math.floor(head.length * CUT_FROM);
  const hi = Math.ceil(head.length * CUT_TO);
  const nearest = (re: RegExp): number | null => {
    let best: number | null = null;
    for (const m of head.slice(lo, hi).matchAll(re)) {
      const at = lo + m.index + m[0].length;
      if (best === null || Math.abs(at - mid) < Math.abs(best - mid)) best = at;
    }
    return best;
  };
  const cut = nearest(/\n+/g) ?? nearest(/[.!?…]["')\]]*\s+/gu) ?? nearest(/\s+/g) ?? Math.round(mid);
  const a = head.slice(0, cut).trim();
  const b = head.slice(cut).trim();
  return a && b ? [a, b] : null;
}

/** The stored vectors of these texts (memories' index texts), in order; see the module comment. */
export async function memoryVectors(embedder: Pick<Embedder, 'embed' | 'windowChars'>, texts: string[]): Promise<Float32Array[]> {
  const halves = texts.map((t) => windowHalves(t, embedder.windowChars));
  // One call for all: the embedder spreads its texts over its workers (a single memory's two halves
  // go to two of them).
  const flat = texts.flatMap((t, i) => halves[i] ?? [t]);
  const vectors = await embedder.embed(flat);
  let at = 0;
  return halves.map((h) => {
    if (!h) return vectors[at++];
    const [a, b] = [vectors[at], vectors[at + 1]];
    at += 2;
    const mean = new Float32Array(a.length);
    for (let i = 0; i < a.length; i++) mean[i] = a[i] + b[i];
    return normalize(mean);
  });
}
