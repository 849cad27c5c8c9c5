// Bounds on JSON that enters from outside. Every recursion over a value (ours, JSON.stringify,
// Postgres' jsonb parser) must stay shallow: a few thousand levels exhaust the embedded
// database's stack and wedge it. Checked where input enters (HTTP bodies, MCP) before parsing.

/** Deepest nesting of objects and arrays accepted anywhere in a request (`{}` is depth 1). */
export const MAX_JSON_DEPTH = 64;

/**
 * Nesting depth of a JSON text, read without parsing it (one pass, strings skipped); stops
 * counting past `limit`. Malformed text is left to the parser to reject.
 */
export function jsonTextDepth(text: string, limit = MAX_JSON_DEPTH): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) {
        max = depth;
        if (max > limit) return max;
      }
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return max;
}

/** Nesting depth of a parsed value (a scalar is 0, `{}` is 1); stops counting past `limit`. */
export function jsonDepth(v: unknown, limit = MAX_JSON_DEPTH + 1): number {
  if (typeof v !== 'object' || v === null) return 0;
  let max = 0;
  for (const child of Object.values(v)) {
    if (max >= limit) break;
    max = Math.max(max, jsonDepth(child, limit - 1));
  }
  return max + 1;
}

/** Keys that reach Object.prototype when used as a property name on a plain object. */
const PROTO_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);
export const isPrototypeKey = (k: string) => PROTO_KEYS.has(k);
