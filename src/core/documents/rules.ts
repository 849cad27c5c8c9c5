// Pure rules of the document store: names, protected collections, the text a document
// is indexed by, and how an equality filter becomes a jsonb containment object.

export const DOC_ID_PATTERN = /^[a-z0-9][a-z0-9._-]{0,99}$/;
/** Names starting with `_` are system collections. */
export const COLLECTION_PATTERN = /^_?[a-z0-9][a-z0-9._-]{0,99}$/;
/** Collections owned by other features (skills workflow, ingest) besides the `_` ones. */
export const FEATURE_COLLECTIONS: ReadonlySet<string> = new Set(['skills', 'ingest-sources']);

/** Largest `data` (as JSON) a regular write accepts. */
export const DOC_MAX_BYTES = 1024 * 1024;
/** System writes keep ingest sources (up to the 3 MB ingest cap) whole. */
export const SYSTEM_DOC_MAX_BYTES = 4 * 1024 * 1024;
/** Only the head of the text is embedded; all of it is keyword-indexed. */
export const EMBED_MAX_CHARS = 8_000;

export const isSystemCollection = (c: string) => c.startsWith('_');
/** Collections that only their own feature may write or delete. */
export const isProtectedCollection = (c: string) => isSystemCollection(c) || FEATURE_COLLECTIONS.has(c);

export const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function collectStrings(v: unknown, out: string[]): void {
  if (typeof v === 'string') {
    const s = v.trim();
    if (s) out.push(s);
  } else if (Array.isArray(v)) {
    for (const x of v) collectStrings(x, out);
  } else if (isPlainObject(v)) {
    for (const x of Object.values(v)) collectStrings(x, out);
  }
}

/** A field by name: a literal key first, else a dotted path into nested objects. */
export function fieldAt(data: Record<string, unknown>, field: string): unknown {
  if (Object.hasOwn(data, field)) return data[field];
  let cur: unknown = data;
  for (const part of field.split('.')) {
    if (!isPlainObject(cur) || !Object.hasOwn(cur, part)) return undefined;
    cur = cur[part];
  }
  return cur;
}

/**
 * The text a document is searched by: every string value in key order (depth first), or,
 * with `textFields`, the strings under those fields in the order they are named.
 */
export function documentText(data: Record<string, unknown>, textFields?: readonly string[]): string {
  const out: string[] = [];
  if (textFields && textFields.length) for (const f of textFields) collectStrings(fieldAt(data, f), out);
  else collectStrings(data, out);
  return out.join('\n');
}

export class FilterConflictError extends Error {
  constructor(readonly key: string) {
    super(`Filter key "${key}" is given twice with different shapes`);
  }
}

/**
 * Turns an equality filter into the object for `data @> $::jsonb`. Dotted keys address nested
 * fields ({"a.b": 1} ≡ {"a": {"b": 1}}), at any depth; the two spellings merge.
 */
export function filterToContainment(filter: Record<string, unknown>): Record<string, unknown> {
  // Keys come from the caller: every object built here has no prototype, so a key such as
  // "__proto__" is an ordinary field name and never reaches Object.prototype.
  const dict = () => Object.create(null) as Record<string, unknown>;
  const out = dict();
  const put = (target: Record<string, unknown>, path: string[], value: unknown, shown: string) => {
    let cur = target;
    for (const part of path.slice(0, -1)) {
      const next = Object.hasOwn(cur, part) ? cur[part] : undefined;
      if (next === undefined) cur = cur[part] = dict();
      else if (isPlainObject(next)) cur = next;
      else throw new FilterConflictError(shown);
    }
    const last = path[path.length - 1];
    const v = isPlainObject(value) ? normalise(value, shown) : value;
    const existing = Object.hasOwn(cur, last) ? cur[last] : undefined;
    if (existing === undefined) cur[last] = v;
    else if (isPlainObject(existing) && isPlainObject(v)) merge(existing, v, shown);
    else throw new FilterConflictError(shown);
  };
  const merge = (into: Record<string, unknown>, from: Record<string, unknown>, shown: string) => {
    for (const [k, v] of Object.entries(from)) put(into, [k], v, `${shown}.${k}`);
  };
  const normalise = (obj: Record<string, unknown>, shown: string) => {
    const o = dict();
    for (const [k, v] of Object.entries(obj)) put(o, k.split('.'), v, `${shown}.${k}`);
    return o;
  };
  for (const [k, v] of Object.entries(filter)) put(out, k.split('.'), v, k);
  return out;
}
