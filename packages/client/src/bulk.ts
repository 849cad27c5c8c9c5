// Writes any number of memories through POST /memories/bulk: chunks of at most 100, each under an
// attempt id that stays the same across retries (and across runs, given the same prefix), so the
// server stores every item once whatever was lost on the way.

export const BULK_CHUNK = 100;

export function chunk<T>(xs: readonly T[], size = BULK_CHUNK): T[][] {
  if (!Number.isInteger(size) || size < 1 || size > BULK_CHUNK) throw new RangeError(`chunk size must be 1 to ${BULK_CHUNK}`);
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += size) out.push(xs.slice(i, i + size));
  return out;
}

/** The attempt id of chunk n: "<prefix>-<n>" (the server allows [A-Za-z0-9._:-], 128 characters). */
export function attemptId(prefix: string, n: number): string {
  const id = `${prefix}-${n}`;
  if (!/^[A-Za-z0-9._:-]{1,128}$/.test(id)) throw new RangeError(`attempt id prefix may use only A-Z a-z 0-9 . _ : - (got ${JSON.stringify(prefix)})`);
  return id;
}

/** Tries of a chunk again for items that failed with a retryable code (see retryableItem). */
export const BULK_ITEM_RETRIES = 3;

/** An item the server could not finish in time (enrichment_timeout): the same attempt stores it later. */
export function retryableItem(item: { status: string; error?: { code?: string } | null }): boolean {
  return item.status === 'error' && item.error?.code === 'enrichment_timeout';
}
