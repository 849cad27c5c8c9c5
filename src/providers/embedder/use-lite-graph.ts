// USE-Lite's graph holds two data-dependent steps (TensorFlow's `Where`): which of the input
// tokens fall within the model's 128 positions, and where the real tokens of a batch are in its
// padded [texts × positions] grid. Because of them TF.js runs the graph with executeAsync, which
// walks it node by node through promises. Both only depend on the texts' token counts, known
// before the graph runs, so they are computed here and given as inputs at the nodes that read
// them. The graph then runs with `execute`: one pass in a cached order, the same vectors bit for
// bit, ~2 ms less of a one-text call's ~20 ms. A graph without these nodes (another model
// version) keeps the library's own path.

/** The few TF.js calls used here; its typings do not resolve from the embeddings package. */
export interface TensorLike {
  dispose(): void;
  arraySync(): unknown;
}
export interface TfLike {
  tensor1d(values: number[], dtype: 'int32'): TensorLike;
  tensor2d(values: number[], shape: [number, number], dtype: 'int32'): TensorLike;
}
export interface GraphModelLike {
  execute(feed: Record<string, TensorLike>, output: string): TensorLike;
  executor?: { graph?: { nodes?: Record<string, unknown>; outputs?: { name: string }[] } };
}

const ENCODER = 'module_apply_default/Encoder_en/KonaTransformer/';
/** The input entries kept by ClipToMaxLength (positions < MAX_POSITIONS), as a flat index list. */
const CLIPPED = `${ENCODER}ClipToMaxLength/Reshape`;
/** [k, 2] (text, position) of every real token in the padded grid, row-major. */
const TOKEN_CELLS = `${ENCODER}Encode/TransformerStack/Layer_1/TransformerLayer/FFN/StoreMask/ToInt32`;
/** [k] the position column of TOKEN_CELLS. */
const TOKEN_POSITIONS = `${ENCODER}Encode/TransformerStack/Layer_0/AddTimingSignal/strided_slice_2`;
/** ClipToMaxLength's bound (its `Less/y` constant). */
const MAX_POSITIONS = 128;

/** The feeds of one batch of token id lists: the graph's inputs and the two computed steps. */
export function graphFeeds(tokens: readonly (readonly number[])[]) {
  const indices: number[] = [];
  const values: number[] = [];
  const clipped: number[] = [];
  const cells: number[] = [];
  const positions: number[] = [];
  let entry = 0;
  tokens.forEach((ids, text) => {
    ids.forEach((id, pos) => {
      indices.push(text, pos);
      values.push(id);
      // Token ids are ≥ 0 and the grid's padding is -1, so a text's real cells are its kept
      // positions; listed text by text, as TF's Where lists a grid (row-major).
      if (pos < MAX_POSITIONS) {
        clipped.push(entry);
        cells.push(text, pos);
        positions.push(pos);
      }
      entry++;
    });
  });
  return { indices, values, clipped, cells, positions };
}

/**
 * A synchronous runner for `model` (token id lists → vectors as nested arrays), or null when its
 * graph lacks the nodes this relies on.
 */
export function graphRunner(tf: TfLike, model: GraphModelLike): ((tokens: number[][]) => number[][]) | null {
  const graph = model.executor?.graph;
  const output = graph?.outputs?.length === 1 ? graph.outputs[0].name : undefined;
  const nodes = graph?.nodes;
  if (!output || !nodes || ![CLIPPED, TOKEN_CELLS, TOKEN_POSITIONS].every((n) => n in nodes)) return null;
  return (tokens) => {
    const f = graphFeeds(tokens);
    const feed: Record<string, TensorLike> = {
      indices: tf.tensor2d(f.indices, [f.values.length, 2], 'int32'),
      values: tf.tensor1d(f.values, 'int32'),
      [CLIPPED]: tf.tensor1d(f.clipped, 'int32'),
      [TOKEN_CELLS]: tf.tensor2d(f.cells, [f.positions.length, 2], 'int32'),
      [TOKEN_POSITIONS]: tf.tensor1d(f.positions, 'int32'),
    };
    try {
      const out = model.execute(feed, output);
      try {
        return out.arraySync() as number[][];
      } finally {
        out.dispose();
      }
    } finally {
      for (const t of Object.values(feed)) t.dispose();
    }
  };
}
