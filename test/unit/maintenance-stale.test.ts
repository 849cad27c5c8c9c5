// When the embedded database's statistics check analyses a table again (pure rule).
import { describe, expect, it } from 'vitest';
import { staleTables } from '../../src/store/maintenance.js';

const names = (xs: { relname: string }[]) => xs.map((x) => x.relname);

describe('staleTables', () => {
  it('takes a table once more than 50 rows + 10 % of it changed', () => {
    const kept = new Map<string, number>();
    expect(names(staleTables([
      { relname: 'a', changed: 50, live: 0 },
      { relname: 'b', changed: 51, live: 0 },
      { relname: 'c', changed: 1050, live: 10_000 },
      { relname: 'd', changed: 1051, live: 10_000 },
    ], kept))).toEqual(['b', 'd']);
  });

  it('counts from the count kept after an ANALYZE by columns, which leaves the view as it was', () => {
    const kept = new Map([['memories', 12_000]]);
    expect(staleTables([{ relname: 'memories', changed: 12_000 + 10_050, live: 100_000 }], kept)).toEqual([]);
    expect(names(staleTables([{ relname: 'memories', changed: 12_000 + 10_051, live: 100_000 }], kept))).toEqual(['memories']);
  });

  it('counts from zero when the view was reset by a whole-table ANALYZE since', () => {
    const kept = new Map([['memories', 12_000]]);
    expect(names(staleTables([{ relname: 'memories', changed: 10_051, live: 100_000 }], kept))).toEqual(['memories']);
    expect(staleTables([{ relname: 'memories', changed: 400, live: 100_000 }], kept)).toEqual([]);
  });
});
