// `loci reembed`: opens the store and the configured embedder (no HTTP, no bus), re-embeds
// everything with a progress bar on stderr and prints a summary on stdout.
import type { Config } from '../config.js';
import { openDb } from '../services.js';
import { migrate } from '../store/migrate.js';
import { storedEmbeddingDim } from '../store/meta.js';
import { createEmbedder } from '../providers/embedder/index.js';
import { reembed, type ReembedEvent } from '../core/reembed.js';
import { ProgressBar } from './progress.js';

export async function runReembed(config: Config, opts: { batchSize: number }): Promise<void> {
  const db = openDb(config);
  const embedder = createEmbedder(config);
  try {
    await embedder.init();
    // The schema keeps the stored dimension until the swap at the end resizes it.
    await migrate(db, { embeddingDim: (await storedEmbeddingDim(db)) ?? embedder.dim });
    const bars = new Map<string, ProgressBar>();
    const onProgress = (e: ReembedEvent) => {
      if (e.phase === 'embed') {
        let bar = bars.get(e.table);
        if (!bar) bars.set(e.table, (bar = new ProgressBar(process.stderr, e.table.padEnd(9))));
        bar.update(e.done, e.total);
        return;
      }
      for (const b of bars.values()) b.finish();
      process.stderr.write(e.phase === 'swap' ? `replacing the vectors of ${e.table}…\n` : `building vector index ${e.index}…\n`);
    };
    const r = await reembed(db, embedder, { batchSize: opts.batchSize, onProgress });
    for (const b of bars.values()) b.finish();
    const target = `"${r.to.model}" (${r.to.dim}-d)`;
    if (r.upToDate) {
      process.stdout.write(`Nothing to do: the stored vectors are already embedded with ${target}.\n`);
      return;
    }
    const counts = Object.entries(r.embedded).map(([t, n]) => `${n} ${t === 'memory_passages' ? 'search passages' : t}`).join(' and ');
    const was = r.from.model ? `; they were "${r.from.model}" (${r.from.dim}-d)` : '';
    process.stdout.write(`Re-embedded ${counts} with ${target}${was}. The server can start with this embedder now.\n`);
  } finally {
    await embedder.close().catch(() => undefined);
    await db.close();
  }
}
