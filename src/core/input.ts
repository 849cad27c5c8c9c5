// What every string, id and instant from outside must be before it reaches Postgres. Checked
// once where input enters (the HTTP parser and validators, the MCP tool inputs), so no request
// can turn into a database error: a value Postgres cannot hold is the caller's 4xx.

/** A canonical uuid: what Postgres' uuid type and our ids agree on (no `urn:uuid:`, braces or bare hex). */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (s: string) => UUID_PATTERN.test(s);

/** Postgres accepts UTC offsets up to ±15:59. */
const MAX_OFFSET_MINUTES = 15 * 60 + 59;
const OFFSET = /([+-])(\d\d)(?::?(\d\d))?$/;

/**
 * Whether an RFC 3339 date-time (already checked for shape) is an instant Postgres can store:
 * a year from 0001 (Postgres has no year 0) and an offset within ±15:59. Four-digit years keep
 * it far below Postgres' upper bound (294276).
 */
export function isStorableInstant(s: string): boolean {
  const date = /^(\d{4})-(\d\d)-(\d\d)/.exec(s);
  if (!date) return false;
  const [y, m, d] = [Number(date[1]), Number(date[2]), Number(date[3])];
  // Date.parse rolls 2021-02-29 over to March; Postgres refuses it.
  if (y < 1 || m < 1 || m > 12 || d < 1 || d > new Date(Date.UTC(2000, m, 0)).getUTCDate() - (m === 2 && !isLeap(y) ? 1 : 0)) return false;
  const off = /[zZ]$/.test(s) ? null : OFFSET.exec(s);
  if (off && Number(off[2]) * 60 + Number(off[3] ?? 0) > MAX_OFFSET_MINUTES) return false;
  return !Number.isNaN(Date.parse(s));
}

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/** Why a string cannot be stored as text: Postgres text holds no NUL, and jsonb no lone surrogate. */
export type StringFault = 'nul' | 'surrogate';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function stringFault(s: string): StringFault | null {
  if (s.includes('\u0000')) return 'nul';
  if (LONE_SURROGATE.test(s)) return 'surrogate';
  return null;
}

export const STRING_FAULT_MESSAGE: Record<StringFault, string> = {
  nul: 'Strings may not contain NUL (\\u0000) characters',
  surrogate: 'Strings must be valid Unicode (a lone surrogate is not)',
};

export interface FaultyString {
  /** Where the string is: keys and indexes from the value's root; a faulty key is located at itself. */
  path: (string | number)[];
  fault: StringFault;
  input: string;
}

/** Every string (values and object keys) in a parsed JSON value that cannot be stored, at most `max`. */
export function faultyStrings(value: unknown, max = 20): FaultyString[] {
  const out: FaultyString[] = [];
  const walk = (v: unknown, path: (string | number)[]) => {
    if (out.length >= max) return;
    if (typeof v === 'string') {
      const fault = stringFault(v);
      if (fault) out.push({ path, fault, input: v });
    } else if (Array.isArray(v)) {
      v.forEach((x, i) => walk(x, [...path, i]));
    } else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        const fault = stringFault(k);
        if (fault) out.push({ path: [...path, k], fault, input: k });
        walk(x, [...path, k]);
      }
    }
  };
  walk(value, []);
  return out;
}

/**
 * Whether a JSON text may hold a faulty string: only an escape can put NUL or a lone surrogate
 * into parsed JSON (raw control characters are invalid JSON, and decoding the body as UTF-8 turns
 * broken bytes into U+FFFD). A cheap scan that spares walking every body.
 */
export const mayHoldFaultyStrings = (text: string) => /\\u(?:0000|[dD][89a-fA-F])/.test(text);
