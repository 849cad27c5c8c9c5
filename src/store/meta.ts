// Which embedder wrote the stored vectors. Starting with another one would mix
// incomparable vectors, so it is refused until `loci reembed` migrates them.
import type { Db } from './db.js';
import type { Embedder } from '../providers/embedder/types.js';

export class EmbedderMismatchError extends Error {}

export async function getMeta(db: Db, key: string): Promise<string | null> {
  const { rows } = await db.query<{ value: string }>('SELECT value FROM loci_meta WHERE key = $1', [key]);
  return rows[0]?.value ?? null;
}

export async function setMeta(db: Db, key: string, value: string): Promise<void> {
  await db.query(
    'INSERT INTO loci_meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value',
    [key, value],
  );
}

export async function checkEmbedderMatches(db: Db, embedder: Embedder): Promise<void> {
  const model = await getMeta(db, 'embedding_model');
  const dim = await getMeta(db, 'embedding_dim');
  if (model === null) {
    await setMeta(db, 'embedding_model', embedder.modelId);
    await setMeta(db, 'embedding_dim', String(embedder.dim));
    return;
  }
  if (model !== embedder.modelId || Number(dim) !== embedder.dim) {
    throw new EmbedderMismatchError(
      `The stored memories were embedded with "${model}" (${dim}-d) but the configured embedder is ` +
        `"${embedder.modelId}" (${embedder.dim}-d). Run \`loci reembed\` to re-embed everything with the ` +
        `configured embedder, or configure the original one.`,
    );
  }
}
