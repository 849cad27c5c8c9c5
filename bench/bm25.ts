// Plain BM25 (k1 1.2, b 0.75) over the texts a benchmark wrote, as the reference beside the
// service's own ranking in the same run. Words are Postgres's English lexemes (Snowball stemming,
// stopwords removed), read from the benchmark server's database; the ranking itself is pure.
import type { Queryable } from '../src/store/db.js';

export interface Bm25Params { k1: number; b: number }
export const BM25_DEFAULTS: Bm25Params = { k1: 1.2, b: 0.75 };

/** A document as lexeme → term frequency. */
export type Bag = ReadonlyMap<string, number>;

export class Bm25Index {
  private readonly docs: { id: string; bag: Bag; len: number }[] = [];
  private readonly df = new Map<string, number>();
  private totalLen = 0;

  constructor(private readonly p: Bm25Params = BM25_DEFAULTS) {}

  add(id: string, bag: Bag) {
    let len = 0;
    for (const [term, tf] of bag) {
      len += tf;
      this.df.set(term, (this.df.get(term) ?? 0) + 1);
    }
    this.docs.push({ id, bag, len });
    this.totalLen += len;
  }

  get size() { return this.docs.length; }

  idf(term: string): number {
    const n = this.df.get(term) ?? 0;
    const N = this.docs.length;
    return Math.log(1 + (N - n + 0.5) / (n + 0.5));
  }

  /** Ids of the k best-scoring documents holding at least one query term, best first (ties by insertion order). */
  search(queryTerms: readonly string[], k: number): string[] {
    const terms = [...new Set(queryTerms)].filter((t) => this.df.has(t));
    if (terms.length === 0 || this.docs.length === 0) return [];
    const avg = this.totalLen / this.docs.length || 1;
    const { k1, b } = this.p;
    const scored: { i: number; s: number }[] = [];
    this.docs.forEach((d, i) => {
      let s = 0;
      for (const t of terms) {
        const tf = d.bag.get(t);
        if (!tf) continue;
        s += this.idf(t) * (tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * d.len) / avg));
      }
      if (s > 0) scored.push({ i, s });
    });
    scored.sort((x, y) => y.s - x.s || x.i - y.i);
    return scored.slice(0, k).map((x) => this.docs[x.i].id);
  }
}

/** The English lexemes of each text with their counts (Postgres to_tsvector), in input order. */
export async function lexemeBags(db: Queryable, texts: readonly string[]): Promise<Map<string, number>[]> {
  const out = texts.map(() => new Map<string, number>());
  for (let start = 0; start < texts.length; start += 500) {
    const part = texts.slice(start, start + 500);
    const { rows } = await db.query<{ i: number; lexeme: string; n: number }>(
      `SELECT d.i::int AS i, t.lexeme, cardinality(t.positions)::int AS n
       FROM unnest($1::text[]) WITH ORDINALITY AS d(txt, i), unnest(to_tsvector('english', d.txt)) AS t`, [part]);
    for (const r of rows) out[start + Number(r.i) - 1].set(r.lexeme, Math.max(1, Number(r.n)));
  }
  return out;
}

/** The lexemes of a query, repeated words once. */
export async function queryLexemes(db: Queryable, query: string): Promise<string[]> {
  const { rows } = await db.query<{ l: string[] }>(`SELECT tsvector_to_array(to_tsvector('english', $1)) AS l`, [query]);
  return rows[0]?.l ?? [];
}
