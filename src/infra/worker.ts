// Starts a worker thread from a module next to the caller. Under a TypeScript runtime
// (tsx, vitest) a .ts worker entry is loaded through tsx's register API: Node 20 does not
// apply an inherited --import loader to a worker's entry module.
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** tsx's API resolved from here: an eval'd worker resolves bare names from the working directory, which may be anywhere. */
const TSX_API = (() => {
  try {
    return import.meta.resolve('tsx/esm/api');
  } catch {
    return 'tsx/esm/api';
  }
})();

export function startWorker(url: URL, options: WorkerOptions = {}): Worker {
  if (!url.pathname.endsWith('.ts')) return new Worker(url, options);
  const boot = `import(${JSON.stringify(TSX_API)}).then(({ register }) => { register(); return import(${JSON.stringify(url.href)}); })`;
  return new Worker(boot, { ...options, eval: true });
}
