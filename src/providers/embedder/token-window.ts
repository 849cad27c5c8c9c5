// USE-Lite reads the first 128 tokens of a text; the rest changes nothing in its vector but still
// costs: the library's tokenizer is quadratic in the text's length and the graph takes every
// token in. So a long text is cut, before it reaches the model, to a prefix that ends between
// words and still holds more than those 128 tokens: the same vector, found sooner.
//
// Exact because the model's pieces never span a space (no vocabulary piece holds the word
// separator after its first character): a word's pieces are the same in any text, so a prefix
// that ends between words starts with the same tokens as the whole text.

/** Tokens the model reads. */
export const MODEL_TOKENS = 128;
/** Characters tried first: 128 tokens of English run to 480–540 characters. */
const FIRST_TRY = 640;

/**
 * The shortest prefix of `text`, tried from FIRST_TRY characters and growing by half, that ends
 * before a space and encodes to more than `tokens` tokens; the whole text when none does.
 */
export function modelWindow(text: string, encode: (s: string) => ArrayLike<number>, tokens = MODEL_TOKENS): string {
  for (let n = FIRST_TRY; n < text.length; n = Math.ceil(n * 1.5)) {
    const cut = text.lastIndexOf(' ', n);
    if (cut <= 0) continue;
    const prefix = text.slice(0, cut);
    if (encode(prefix).length > tokens) return prefix;
  }
  return text;
}

/**
 * The tokens of modelWindow(text): the prefix's tokens as modelWindow already encoded them (a
 * 640-character prefix takes ~5 ms to encode), the whole text's encoded when it is the window.
 */
export function windowTokens<T extends ArrayLike<number>>(text: string, encode: (s: string) => T, tokens = MODEL_TOKENS): T {
  let last: { text: string; ids: T } | undefined;
  const window = modelWindow(text, (s) => {
    last = { text: s, ids: encode(s) };
    return last.ids;
  }, tokens);
  return last?.text === window ? last.ids : encode(window);
}
