// Shared types and the error of the extraction provider.
import type { Gate } from '../../infra/gate.js';

export type ExtractFormat = 'md' | 'txt' | 'csv' | 'html' | 'pdf' | 'docx' | 'pptx' | 'xlsx' | 'odt' | 'epub' | 'rtf';

export interface ExtractResult {
  text: string;
  format: ExtractFormat;
  title?: string;
  /** Set when the text was cut at `maxChars`. */
  truncated?: boolean;
}

export interface ExtractOptions {
  /** Output cap in characters (default 3,000,000). */
  maxChars?: number;
  /** Wall-clock limit for one extraction, worker start included (default 20 s). */
  timeoutMs?: number;
  /** Heap limit of the extraction worker in MB (default 512). */
  maxHeapMb?: number;
  zipLimits?: Partial<ZipLimits>;
  /**
   * Places for extraction workers, shared by every extraction of the service: a worker starts only
   * with a place (waiting counts against timeoutMs); with every place taken and the queue full the
   * extraction fails at once with `busy`.
   */
  workers?: Gate;
}

export interface ZipLimits {
  maxEntries: number;
  maxTotalBytes: number;
  maxRatio: number;
}

export const DEFAULT_ZIP_LIMITS: ZipLimits = { maxEntries: 2000, maxTotalBytes: 50 * 1024 * 1024, maxRatio: 200 };
export const DEFAULT_MAX_CHARS = 3_000_000;
export const DEFAULT_TIMEOUT_MS = 20_000;

export type ExtractErrorCode =
  | 'unsupported_type'
  | 'content_type_mismatch'
  | 'zip_bomb'
  | 'timeout'
  | 'too_large'
  | 'busy'
  | 'extraction_failed';

export class ExtractError extends Error {
  readonly code: ExtractErrorCode;
  constructor(code: ExtractErrorCode, message: string) {
    super(message);
    this.name = 'ExtractError';
    this.code = code;
  }
}
