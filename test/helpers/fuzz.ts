// Arbitraries for the fuzz suites: values shaped by a JSON schema (OpenAPI operation or MCP tool),
// mixed with hostile ones — NUL and lone surrogates, unicode edge cases, SQL and HTML payloads,
// path traversal, uuid spellings Postgres refuses, instants timestamptz cannot hold, huge and
// deep JSON, keys that name Object.prototype.
import fc from 'fast-check';

/** JSON nested `depth` levels deep, as text (deeper than JSON.stringify can go). */
export const deepJsonText = (depth: number) => '{"a":'.repeat(depth) + '"leaf"' + '}'.repeat(depth);

export const hostileStrings = [
  'a\u0000b', '\u0000', '\ud800', 'x\udc00y', '\ud83d', '\uffff', '\ufeffBOM', '\u202eRTL override', 'zero\u200bwidth',
  'e\u0301\u0301\u0301', '😀'.repeat(50), '\u0085\u2028\u2029', '\t\r\n', ' ', '',
  "'; DROP TABLE memories; --", "' OR '1'='1", '1; SELECT pg_sleep(30)', '$1', '%s%n', '\\', '"',
  '<script>alert(1)</script>', '<img src=x onerror=alert(1)>', '{{7*7}}',
  '../../../../etc/passwd', '..\\..\\windows', '%2e%2e%2f', '/', '.', '..', '_system', 'ingest-sources', 'skills',
  'urn:uuid:6ba7b810-9dad-11d1-80b4-00c04fd430c8', '{6ba7b810-9dad-11d1-80b4-00c04fd430c8}', '6ba7b8109dad11d180b400c04fd430c8',
  '00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff', '6BA7B810-9DAD-11D1-80B4-00C04FD430C8',
  '0000-01-01T00:00:00Z', '+275760-09-13T00:00:00Z', '2020-01-01T00:00:00+16:00', '9999-12-31T23:59:59.999999-15:59',
  '2021-02-29T00:00:00Z', '-000001-01-01T00:00:00Z', '1970-01-01', 'NaN', 'Infinity', '-0', '1e999',
  '__proto__', 'constructor', 'prototype', '__proto__.system', 'a.__proto__.x', 'constructor.prototype.system',
];

const longString = fc.constantFrom(10_001, 70_000, 300_000).map((n) => 'x'.repeat(n));

export const hostileNumbers = [-1, 0, -0, 0.5, 1.5, 1e308, -1e308, 2 ** 53 + 1, -(2 ** 31) - 1, 2 ** 31, 1e-300];

/** An object whose own key is `__proto__` (JSON.parse makes it an own property; JSON.stringify keeps it). */
const protoObjects = [JSON.parse('{"__proto__":{"system":true}}'), JSON.parse('{"constructor":{"prototype":{"system":true}}}'), { 'a.__proto__.b': 1 }];

const nested = (depth: number): unknown => {
  let v: unknown = 'leaf';
  for (let i = 0; i < depth; i++) v = depth % 2 ? { a: v } : [v];
  return v;
};

export const hostileString = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...hostileStrings) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: longString },
);

/** Any hostile JSON value. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: hostileString },
  { weight: 2, arbitrary: fc.constantFrom(...hostileNumbers) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(null, true, false, [], {}, [null], ...protoObjects) },
  { weight: 1, arbitrary: fc.constantFrom(64, 65, 300, 2_000).map(nested) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

export interface Seeds {
  /** Values a field of this name is given most of the time, so requests get past the first checks. */
  byName: Record<string, unknown[]>;
}

type Schema = Record<string, any>;

const typesOf = (s: Schema): string[] => (Array.isArray(s.type) ? s.type : s.type ? [s.type] : []);

/** A value for `schema` (often valid, often not), for a field named `name`. */
export function valueFor(schema: Schema | undefined, seeds: Seeds, name = '', depth = 0): fc.Arbitrary<unknown> {
  const hostile = depth > 2 ? fc.constantFrom<unknown>(...hostileStrings.slice(0, 12)) : hostileValue;
  const seeded = Object.hasOwn(seeds.byName, name) ? seeds.byName[name] : null;
  const shaped = shapedFor(schema ?? {}, seeds, depth);
  const parts: fc.WeightedArbitrary<unknown>[] = [{ weight: 4, arbitrary: shaped }, { weight: 3, arbitrary: hostile }];
  if (seeded?.length) parts.push({ weight: 6, arbitrary: fc.constantFrom(...seeded) });
  return fc.oneof(...parts);
}

function shapedFor(s: Schema, seeds: Seeds, depth: number): fc.Arbitrary<unknown> {
  if (s.anyOf || s.oneOf) return fc.oneof(...(s.anyOf ?? s.oneOf).map((x: Schema) => shapedFor(x, seeds, depth)));
  if (s.allOf) return shapedFor(Object.assign({}, ...s.allOf), seeds, depth);
  if (s.enum) return fc.constantFrom(...s.enum);
  if (s.const !== undefined) return fc.constant(s.const);
  const types = typesOf(s).filter((t) => t !== 'null');
  const t = types[0];
  if (t === 'string') {
    if (s.format === 'uuid') return fc.uuid();
    if (s.format === 'date-time') return fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString());
    const max = Math.min(s.maxLength ?? 60, 60);
    return fc.string({ unit: 'grapheme', minLength: s.minLength ?? 0, maxLength: Math.max(max, s.minLength ?? 0) });
  }
  if (t === 'integer') return fc.integer({ min: (s.minimum ?? -5) - 1, max: Math.min(s.maximum ?? 1000, 10_000) + 1 });
  if (t === 'number') return fc.double({ min: (s.minimum ?? -5) - 1, max: (s.maximum ?? 1000) + 1, noNaN: true });
  if (t === 'boolean') return fc.boolean();
  if (t === 'array') {
    if (depth > 3) return fc.constant([]);
    return fc.array(valueFor(s.items, seeds, '', depth + 1), { maxLength: Math.min(s.maxItems ?? 4, 4) });
  }
  if (t === 'object' || s.properties) {
    if (depth > 3) return fc.constant({});
    const props: Record<string, Schema> = s.properties ?? {};
    const names = Object.keys(props);
    if (!names.length) return fc.dictionary(hostileString.filter((k) => k.length < 100), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
    const model: Record<string, fc.Arbitrary<unknown>> = {};
    for (const n of names) model[n] = valueFor(props[n], seeds, n, depth + 1);
    const required = (s.required ?? []) as string[];
    return fc.tuple(fc.record(model, { requiredKeys: required }), fc.option(fc.tuple(hostileString, hostileValue), { freq: 6 }))
      .map(([o, extra]) => (extra ? { ...o, [extra[0]]: extra[1] } : o));
  }
  return fc.jsonValue({ maxDepth: 2 });
}

/** Bodies no schema describes: deep, truncated, not JSON at all, or huge. */
export const rawBody = fc.oneof(
  fc.constantFrom(65, 2_000, 20_000).map(deepJsonText),
  fc.constantFrom('{', '{"tenant_id":', '[]', 'null', '"x"', '1e999', 'nul', '\u0000', '{"a":1,"a":2}', '{"__proto__":{"x":1}}'),
  fc.constant(`[${'1,'.repeat(200_000)}1]`),
);

/** Header values a client can send at all (printable ASCII), some hostile. */
export const headerValue = fc.oneof(
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 300 }),
  fc.constantFrom("' OR 1=1 --", '../../x', 'urn:uuid:6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'x'.repeat(5_000)),
);

/** A path or query value as sent, percent-encoded; a lone surrogate goes as its (invalid) UTF-8 bytes. */
export function urlPart(v: unknown): string {
  const s = typeof v === 'string' ? v : JSON.stringify(v) ?? '';
  try {
    return encodeURIComponent(s);
  } catch {
    return '%ED%A0%80' + encodeURIComponent(s.replace(/[\ud800-\udfff]/g, ''));
  }
}
