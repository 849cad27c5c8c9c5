// Holds a provider of a running test app at a point the test chooses.
import { vi } from 'vitest';
import type { TestApp } from './app.js';

/** Holds every embedder call until release() (which also restores the embedder); spy counts the calls. */
export function holdEmbedder(t: TestApp) {
  let open!: () => void;
  const gate = new Promise<void>((r) => { open = r; });
  const embed = t.services.embedder.embed.bind(t.services.embedder);
  const spy = vi.spyOn(t.services.embedder, 'embed').mockImplementation(async (texts: string[]) => {
    await gate;
    return embed(texts);
  });
  return {
    spy,
    release: () => {
      open();
      spy.mockRestore();
    },
  };
}
