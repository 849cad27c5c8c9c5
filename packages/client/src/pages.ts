// Async iteration over cursor-paged lists: follows next_cursor until the server says there is no more.

export interface CursorPage<T> {
  items: T[];
  next_cursor: string | null;
}

/** Yields each page, fetching the next only when the caller asks for it. */
export async function* pages<T>(fetchPage: (cursor: string | undefined) => Promise<CursorPage<T>>): AsyncGenerator<CursorPage<T>> {
  let cursor: string | undefined;
  const seen = new Set<string>();
  for (;;) {
    const page = await fetchPage(cursor);
    yield page;
    if (!page.next_cursor || page.items.length === 0) return;
    // A cursor handed out twice would loop forever: stop instead.
    if (seen.has(page.next_cursor)) throw new Error(`cursor ${page.next_cursor} repeated`);
    seen.add(page.next_cursor);
    cursor = page.next_cursor;
  }
}

/** Yields each item of every page. */
export async function* items<T>(fetchPage: (cursor: string | undefined) => Promise<CursorPage<T>>): AsyncGenerator<T> {
  for await (const page of pages(fetchPage)) yield* page.items;
}
