// Worker entry: runs one extraction (format already resolved) and posts the result or a symbolic error back.
import { parentPort, workerData } from 'node:worker_threads';
import { extractResolved } from './run.js';
import { ExtractError, type ExtractFormat, type ExtractOptions } from './types.js';

export interface ExtractJob {
  bytes: Uint8Array;
  format: ExtractFormat;
  charset?: string;
  options: ExtractOptions;
}

const job = workerData as ExtractJob;
const buf = Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength);

extractResolved(job.format, buf, job.charset, job.options).then(
  (result) => parentPort!.postMessage({ ok: true, result }),
  (err: unknown) =>
    parentPort!.postMessage({
      ok: false,
      code: err instanceof ExtractError ? err.code : 'extraction_failed',
      message: err instanceof Error ? err.message : String(err),
    }),
);
