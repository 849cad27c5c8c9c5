// Starts a worker thread from a module next to the caller. Under a TypeScript runtime
// (tsx, vitest) a .ts worker entry is loaded through tsx's register API: Node 20 does not
// apply an inherited --import loader to a worker's entry module.
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

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

/**
 * Lowers the scheduling priority of the calling thread (Linux: a nice value per thread), so the
 * threads serving requests get the cores first when everything is busy. Elsewhere, or when the
 * system refuses, nothing changes: it only matters under contention.
 */
export function niceThisThread(nice: number): boolean {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(tid) || tid <= 0) return false;
    setPriority(tid, nice);
    return true;
  } catch {
    return false;
  }
}
