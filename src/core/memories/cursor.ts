// Keyset cursor: opaque base64url of "<created_at ISO>|<id>". The timestamp keeps the
// database's microseconds: a millisecond ISO would repeat or skip rows created in the same ms.
import { invalid } from '../errors.js';
import { isStorableInstant, UUID_PATTERN as UUID } from '../input.js';

export interface CursorKey {
  createdAt: string;
  id: string;
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;

export function encodeCursor(k: CursorKey): string {
  return Buffer.from(`${k.createdAt}|${k.id}`, 'utf8').toString('base64url');
}

export function decodeCursor(raw: string): CursorKey {
  const bad = () => invalid(['query', 'cursor'], 'Invalid cursor: pass back the next_cursor of a previous page', 'value_error', raw);
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(raw)) throw bad();
  const text = Buffer.from(raw, 'base64url').toString('utf8');
  const sep = text.indexOf('|');
  if (sep < 0) throw bad();
  const createdAt = text.slice(0, sep);
  const id = text.slice(sep + 1);
  if (!ISO.test(createdAt) || !isStorableInstant(createdAt) || !UUID.test(id)) throw bad();
  return { createdAt, id: id.toLowerCase() };
}
