// Collects positional parameters while a query is assembled, so predicates compose safely.
export class Params {
  readonly values: unknown[] = [];

  /** Adds a value and returns its placeholder, with an optional cast (`$3::jsonb`). */
  add(value: unknown, cast?: string): string {
    this.values.push(value);
    return `$${this.values.length}${cast ? `::${cast}` : ''}`;
  }
}
