// Zip-bomb guard for the zip-based formats (docx, pptx, xlsx, odt, epub). It runs before any
// parsing library opens the archive: first the central directory is checked (entry count,
// declared total size, per-entry ratio), then every entry is inflated once with a running
// byte count, because the declared sizes are written by whoever built the file.
import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';
import { ExtractError, type ZipLimits } from './types.js';

interface YauzlEntry {
  fileName: string;
  compressedSize: number;
  uncompressedSize: number;
  compressionMethod: number;
  isEncrypted(): boolean;
}
interface YauzlZipFile {
  entryCount: number;
  readEntry(): void;
  openReadStream(entry: YauzlEntry, cb: (err: Error | null, stream: Readable) => void): void;
  close(): void;
  on(event: 'entry', cb: (entry: YauzlEntry) => void): this;
  on(event: 'end', cb: () => void): this;
  on(event: 'error', cb: (err: Error) => void): this;
}
interface Yauzl {
  fromBuffer(
    buf: Buffer,
    opts: { lazyEntries: boolean; validateEntrySizes: boolean; decodeStrings: boolean; strictFileNames: boolean },
    cb: (err: Error | null, zip: YauzlZipFile) => void,
  ): void;
}

// yauzl is CommonJS without bundled types.
const yauzl = createRequire(import.meta.url)('yauzl') as Yauzl;

/** Entries below this size cannot do harm whatever their ratio (a run of blank XML compresses well). */
const RATIO_MIN_BYTES = 1024 * 1024;

const bomb = (msg: string) => new ExtractError('zip_bomb', msg);

function open(buf: Buffer): Promise<YauzlZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.fromBuffer(buf, { lazyEntries: true, validateEntrySizes: true, decodeStrings: true, strictFileNames: false }, (err, zip) =>
      err ? reject(new ExtractError('extraction_failed', `not a readable zip archive: ${err.message}`)) : resolve(zip),
    ),
  );
}

function listEntries(zip: YauzlZipFile, limits: ZipLimits): Promise<YauzlEntry[]> {
  return new Promise((resolve, reject) => {
    const entries: YauzlEntry[] = [];
    let declaredTotal = 0;
    zip.on('entry', (e) => {
      declaredTotal += e.uncompressedSize;
      if (declaredTotal > limits.maxTotalBytes) {
        return reject(bomb(`declared uncompressed size exceeds ${limits.maxTotalBytes} bytes`));
      }
      if (e.uncompressedSize >= RATIO_MIN_BYTES && e.uncompressedSize / Math.max(e.compressedSize, 1) > limits.maxRatio) {
        return reject(bomb(`entry ${e.fileName} has a compression ratio above ${limits.maxRatio}`));
      }
      entries.push(e);
      zip.readEntry();
    });
    zip.on('end', () => resolve(entries));
    zip.on('error', (err) => reject(new ExtractError('extraction_failed', `corrupt zip archive: ${err.message}`)));
    zip.readEntry();
  });
}

function inflate(zip: YauzlZipFile, entry: YauzlEntry, budget: { left: number; limit: number }, keep: boolean): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (err, stream) => {
      if (err) return reject(new ExtractError('extraction_failed', `cannot read ${entry.fileName}: ${err.message}`));
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => {
        budget.left -= chunk.length;
        if (budget.left < 0) {
          stream.destroy();
          return reject(bomb(`archive inflates to more than ${budget.limit} bytes`));
        }
        if (keep) chunks.push(chunk);
      });
      stream.on('error', (e: Error) =>
        // yauzl refuses an entry that inflates past its declared size: the header lied.
        reject(/too many bytes|too few bytes/.test(e.message) ? bomb(`entry ${entry.fileName}: ${e.message}`) : new ExtractError('extraction_failed', e.message)),
      );
      stream.on('end', () => resolve(keep ? Buffer.concat(chunks) : undefined));
    });
  });
}

/**
 * Checks the archive and inflates every entry once within `limits`. Returns the entries
 * `keep` selects (metadata, or an EPUB's chapters) so callers need not inflate them again.
 */
export async function guardZip(buf: Buffer, limits: ZipLimits, keep: (name: string) => boolean = () => false): Promise<Map<string, Buffer>> {
  const zip = await open(buf);
  try {
    if (zip.entryCount > limits.maxEntries) throw bomb(`archive has ${zip.entryCount} entries (limit ${limits.maxEntries})`);
    const entries = await listEntries(zip, limits);
    const kept = new Map<string, Buffer>();
    const budget = { left: limits.maxTotalBytes, limit: limits.maxTotalBytes };
    for (const e of entries) {
      if (e.fileName.endsWith('/')) continue;
      if (e.isEncrypted()) throw new ExtractError('extraction_failed', 'encrypted archives are not supported');
      const data = await inflate(zip, e, budget, keep(e.fileName));
      if (data) kept.set(e.fileName, data);
    }
    return kept;
  } finally {
    zip.close();
  }
}
