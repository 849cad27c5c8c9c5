// One interface for every embedder. Vectors are unit length so cosine = dot product.
export interface Embedder {
  /** Stable model id stored next to every vector, e.g. "use-lite" or "openai:text-embedding-3-small". */
  readonly modelId: string;
  readonly dim: number;
  /**
   * Set when the model reads only the start of a text: about this many characters of English are
   * read, and a longer text's vector is that of its start. Unset: the whole text is read.
   */
  readonly windowChars?: number;
  /** Loads the model (idempotent). Throws with a clear message when it cannot. */
  init(): Promise<void>;
  /**
   * Embeds many texts, batched internally. Order of the output matches the input. `urgent`: someone
   * is waiting on it (a search's query); it goes ahead of queued ordinary work where the embedder queues.
   */
  embed(texts: string[], opts?: { urgent?: boolean }): Promise<Float32Array[]>;
  close(): Promise<void>;
}
