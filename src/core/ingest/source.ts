// Where the text of an ingest comes from: a URL (SSRF-safe fetch, then extraction by the
// response's content type), an uploaded file (extraction by its declared type, checked
// against its magic bytes) or text in the request. Provider errors become API errors here,
// so every ingest entry point answers the same status for the same failure.
import { DomainError, invalid, unavailable } from '../errors.js';
import type { Gate } from '../../infra/gate.js';
import { ExtractError, extractText, normaliseText, type ExtractFormat } from '../../providers/extract/index.js';
import { FetchError, safeFetch, type Resolver } from '../../providers/fetch.js';

export interface SourceLimits {
  /** Cap on a fetched body, an uploaded file and the extracted text, in bytes. */
  maxBytes: number;
  fetchTimeoutMs: number;
  extractTimeoutMs: number;
  /** Hosts, IPs or CIDRs a URL may reach although private (LOCI_FETCH_ALLOW). */
  allowList: string[];
  /** DNS resolution for URL ingest (the system resolver when absent). */
  resolve?: Resolver;
  /** The service's places for extraction workers (LOCI_EXTRACT_WORKERS): a global cap, not one per upload. */
  workers?: Gate;
}

export interface SourceText {
  text: string;
  format: ExtractFormat;
  title?: string;
  /** The URL the text was read from, after redirects. */
  url?: string;
}

export const tooLarge = (what: string, bytes: number | null, limit: number) =>
  new DomainError(413, 'Payload Too Large',
    `${what} ${bytes === null ? 'exceeds' : `is ${bytes} bytes; that exceeds`} the ingest limit of ${limit} bytes`, { limit });

/** Rule 3: the size is checked again on what came out, whatever the request's length said. */
function checkExtracted(text: string, limits: SourceLimits): void {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > limits.maxBytes) throw tooLarge('The extracted text', bytes, limits.maxBytes);
}

function extractionError(err: unknown, loc: (string | number)[], limits: SourceLimits): Error {
  if (!(err instanceof ExtractError)) return err as Error;
  switch (err.code) {
    case 'unsupported_type':
    case 'content_type_mismatch':
      return new DomainError(415, 'Unsupported Media Type', `Cannot ingest this content: ${err.message}`, { reason: err.code });
    case 'zip_bomb':
    case 'too_large':
      return new DomainError(413, 'Payload Too Large', `The document expands beyond what ingest accepts: ${err.message}`,
        { reason: err.code, limit: limits.maxBytes });
    case 'timeout':
      return invalid(loc, `The document could not be read within ${limits.extractTimeoutMs} ms`, 'extraction_timeout');
    case 'busy':
      return unavailable('Every document extraction worker is busy; retry later', 2);
    default:
      return invalid(loc, `The document could not be read: ${err.message}`, 'extraction_failed');
  }
}

async function extract(buf: Buffer, contentType: string, filename: string | undefined, loc: (string | number)[], limits: SourceLimits) {
  try {
    // One character more than the cap tells "fits" from "was cut".
    return await extractText(buf, contentType, filename, { timeoutMs: limits.extractTimeoutMs, maxChars: limits.maxBytes + 1, workers: limits.workers });
  } catch (err) {
    throw extractionError(err, loc, limits);
  }
}

/** Text given in the request body. */
export function sourceFromContent(content: string, limits: SourceLimits): SourceText {
  const bytes = Buffer.byteLength(content, 'utf8');
  if (bytes > limits.maxBytes) throw tooLarge('content', bytes, limits.maxBytes);
  return { text: normaliseText(content), format: 'txt' };
}

/** An uploaded file, dispatched on its declared content type (checked against its bytes). */
export async function sourceFromFile(buf: Buffer, contentType: string, filename: string | undefined, limits: SourceLimits): Promise<SourceText> {
  if (buf.length > limits.maxBytes) throw tooLarge('The file', buf.length, limits.maxBytes);
  if (buf.length === 0) throw invalid(['body', 'file'], 'The file is empty', 'missing');
  const r = await extract(buf, contentType, filename, ['body', 'file'], limits);
  checkExtracted(r.text, limits);
  return { text: r.text, format: r.format, ...(r.title ? { title: r.title } : {}) };
}

function fetchError(err: unknown, limits: SourceLimits): Error {
  if (!(err instanceof FetchError)) return err as Error;
  const loc = ['body', 'url'];
  switch (err.code) {
    case 'bad_url':
    case 'bad_scheme':
      return invalid(loc, err.message, 'url_parsing');
    case 'blocked_address':
      return invalid(loc, `The URL is refused: ${err.message}. Only public addresses are fetched unless LOCI_FETCH_ALLOW names the host`, 'url_blocked');
    case 'dns_error':
      return invalid(loc, err.message, 'url_unresolvable');
    case 'too_large':
      return tooLarge('The fetched document', null, limits.maxBytes);
    case 'timeout':
      return new DomainError(504, 'Gateway Timeout', `Fetching the URL took longer than ${limits.fetchTimeoutMs} ms`);
    default:
      return new DomainError(502, 'Bad Gateway', `Fetching the URL failed: ${err.message}`,
        { reason: err.code, ...(err.status !== undefined ? { upstream_status: err.status } : {}) });
  }
}

/** The last path segment of a URL: a file name extension helps when the server sends a generic type. */
function urlFilename(url: string): string | undefined {
  try {
    const last = new URL(url).pathname.split('/').pop();
    return last ? decodeURIComponent(last) : undefined;
  } catch {
    return undefined;
  }
}

/** A URL, fetched under the SSRF guard and extracted by the response's content type. */
export async function sourceFromUrl(url: string, limits: SourceLimits): Promise<SourceText> {
  let res;
  try {
    res = await safeFetch(url, {
      allowList: limits.allowList, maxBytes: limits.maxBytes, timeoutMs: limits.fetchTimeoutMs, resolve: limits.resolve,
    });
  } catch (err) {
    throw fetchError(err, limits);
  }
  // A server that names no type is treated as sending a generic one: the bytes and file name decide.
  const r = await extract(res.body, res.contentType || 'application/octet-stream', urlFilename(res.url), ['body', 'url'], limits);
  checkExtracted(r.text, limits);
  return { text: r.text, format: r.format, url: res.url, ...(r.title ? { title: r.title } : {}) };
}
