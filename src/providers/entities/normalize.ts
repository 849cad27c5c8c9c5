// Entity-name normalisation, kept apart from the NLP models so the main thread can use it
// (e.g. to look up an entity named in a query) without loading them.
import { HONORIFICS } from './lexicon.js';

/** The upsert key of an entity: lowercase, no honorifics, possessive or surrounding punctuation. */
export function normalizeEntityName(name: string): string {
  let s = name.normalize('NFKC').replace(/[’‘`´]/g, "'").replace(/\s+/g, ' ').trim();
  s = stripEdges(s);
  s = s.replace(/'s$/i, '').replace(/(s)'$/i, '$1');
  s = s.toLowerCase();
  const words = s.split(' ');
  while (words.length > 1 && HONORIFICS.has(words[0].replace(/\.$/, ''))) words.shift();
  return stripEdges(words.join(' ')).replace(/\s+/g, ' ');
}

/** Drops punctuation around a name, keeping the "+"/"#" of C++ and C#. */
function stripEdges(s: string): string {
  return s.replace(/^(?:[^\p{L}\p{N}.]|\.(?!\p{L}))+/u, '').replace(/[^\p{L}\p{N}+#]+$/u, '');
}
