// File → text for ingest. Each extraction runs in its own worker thread with a wall-clock
// limit and a heap limit: parsers of untrusted documents can loop, allocate without bound
// or block for seconds, and none of that may reach the event loop. Plain text formats are
// decoded inline: that is a linear pass with no parser to misbehave.
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../../infra/worker.js';
import { GateFull } from '../../infra/gate.js';
import { mimeOf, resolveFormat } from './formats.js';
import { extractResolved } from './run.js';
import {
  DEFAULT_TIMEOUT_MS,
  ExtractError,
  type ExtractErrorCode,
  type ExtractFormat,
  type ExtractOptions,
  type ExtractResult,
} from './types.js';
import type { ExtractJob } from './extract-worker.js';

export { ExtractError, DEFAULT_MAX_CHARS, DEFAULT_TIMEOUT_MS, DEFAULT_ZIP_LIMITS } from './types.js';
export type { ExtractErrorCode, ExtractFormat, ExtractOptions, ExtractResult, ZipLimits } from './types.js';
export { extractInline } from './run.js';
export { rtfToText } from './rtf.js';
export { htmlToText } from './html.js';
export { normaliseText } from './text.js';

const INLINE_FORMATS = new Set(['txt', 'md', 'csv']);
const workerExt = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
const workerUrl = new URL(`./extract-worker${workerExt}`, import.meta.url);

function runInWorker(buf: Buffer, format: ExtractFormat, charset: string | undefined, opts: ExtractOptions): Promise<ExtractResult> {
  // A private copy: the caller's Buffer may be a view into a shared pool, and the copy is transferred, not cloned.
  const bytes = new Uint8Array(buf.byteLength);
  bytes.set(buf);
  const job: ExtractJob = {
    bytes,
    format,
    charset,
    options: { maxChars: opts.maxChars, zipLimits: opts.zipLimits },
  };
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;

  return new Promise<ExtractResult>((resolve, reject) => {
    let worker: Worker | undefined;
    let settled = false;
    let leave = () => {};
    const finish = (err: ExtractError | null, result?: ExtractResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker?.terminate();
      leave();
      if (err) reject(err);
      else resolve(result!);
    };
    const timer = setTimeout(() => finish(new ExtractError('timeout', `extraction took longer than ${timeoutMs} ms`)), timeoutMs);

    const start = () => {
      try {
        worker = startWorker(workerUrl, {
          workerData: job,
          transferList: [bytes.buffer],
          resourceLimits: { maxOldGenerationSizeMb: opts.maxHeapMb ?? 512 },
          stdout: true,
          stderr: true,
        });
      } catch (err) {
        finish(new ExtractError('extraction_failed', `cannot start extraction worker: ${(err as Error).message}`));
        return;
      }
      // Parser libraries print warnings for malformed input; they are not worth a log line each.
      worker.stdout.resume();
      worker.stderr.resume();
      worker.on('message', (m: { ok: true; result: ExtractResult } | { ok: false; code: ExtractErrorCode; message: string }) =>
        m.ok ? finish(null, m.result) : finish(new ExtractError(m.code, m.message)),
      );
      worker.on('error', (err: Error & { code?: string }) =>
        finish(
          err.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new ExtractError('too_large', 'extraction ran out of memory')
            : new ExtractError('extraction_failed', err.message),
        ),
      );
      worker.on('exit', (code) => finish(new ExtractError('extraction_failed', `extraction worker exited with code ${code}`)));
    };

    // A worker starts only with a place; the wait counts against the timeout.
    (opts.workers ? opts.workers.enter() : Promise.resolve(() => {})).then((release) => {
      leave = release;
      if (settled) release(); // timed out while waiting
      else start();
    }, (err) => finish(err instanceof GateFull
      ? new ExtractError('busy', 'every extraction worker is busy and the queue is full')
      : new ExtractError('extraction_failed', String(err))));
  });
}

/**
 * Extracts normalised text from an uploaded or fetched file. Dispatches on the declared
 * content type, checked against the magic bytes. Throws ExtractError: unsupported_type,
 * content_type_mismatch, zip_bomb, timeout, too_large, busy or extraction_failed.
 */
export async function extractText(
  buf: Buffer,
  declaredContentType: string,
  filename?: string,
  opts: ExtractOptions = {},
): Promise<ExtractResult> {
  // The type check runs here (file-type reads headers only), so a refused file costs no worker.
  const format = await resolveFormat(buf, declaredContentType, filename);
  const { charset } = mimeOf(declaredContentType);
  if (INLINE_FORMATS.has(format)) return extractResolved(format, buf, charset, opts);
  return runInWorker(buf, format, charset, opts);
}
