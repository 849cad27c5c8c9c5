// Content normalisation and hashing: the hash is what exact-duplicate detection compares.
import { createHash } from 'node:crypto';
import { invalid } from '../errors.js';
import { CONTENT_MAX } from './types.js';

/** Length in characters (code points), as a client counts them. */
export function charLength(s: string): number {
  // Code points never outnumber UTF-16 units, so the cheap length settles most cases.
  return s.length <= CONTENT_MAX ? s.length : Array.from(s).length;
}

/** Trims content and enforces 1..CONTENT_MAX characters; loc names the field for the 422. */
export function normaliseContent(raw: string, loc: (string | number)[] = ['body', 'content']): string {
  const content = raw.trim();
  if (content.length === 0) {
    throw invalid(loc, 'Content must not be empty or whitespace only', 'string_too_short', raw, { min_length: 1 });
  }
  if (charLength(content) > CONTENT_MAX) {
    throw invalid(loc, `Content should have at most ${CONTENT_MAX} characters after trimming`, 'string_too_long',
      `${content.slice(0, 50)}…`, { max_length: CONTENT_MAX });
  }
  return content;
}

export const contentHash = (content: string): string => createHash('sha256').update(content, 'utf8').digest('hex');

/** The text that is embedded and from which entities are extracted. */
export const indexText = (title: string | null | undefined, content: string): string =>
  title && title.trim() ? `${title.trim()}\n${content}` : content;
