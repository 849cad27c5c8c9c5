// Worker thread for entity extraction: the NLP models load once per worker.
import { servePool } from '../embedder/pool.js';
import { extractSync, loadEngines } from './nlp.js';
import type { Extraction } from './types.js';

servePool<string, Extraction>(async () => {
  loadEngines();
  // Warm-up: compromise compiles its lazy lexicon and the date plugin's on the first call.
  extractSync('Alice met Bob in Paris on 5 June 2024.');
  return (texts) => ({ result: texts.map((t) => extractSync(t)) });
});
