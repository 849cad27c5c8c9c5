// Test fake of an OpenAI-compatible /v1/embeddings server on 127.0.0.1. Vectors are bags of
// hashed words with a few synonyms folded together, so texts that share no word can still be
// close ("automobile" ~ "car"): enough to see a vector search work without a real model.
import { createServer, type IncomingMessage, type Server } from 'node:http';

const SYNONYMS: Record<string, string> = { automobile: 'car', vehicle: 'car', cars: 'car', sedan: 'car' };

export function fakeEmbedding(text: string, dim: number): number[] {
  const v = new Array<number>(dim).fill(0);
  v[0] = 0.01; // never a zero vector
  for (const raw of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    const word = SYNONYMS[raw] ?? raw;
    let h = 2166136261;
    for (const c of word) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
    v[1 + (h % (dim - 1))] += 1;
  }
  return v;
}

export interface FakeEmbeddingsServer {
  /** Base URL, e.g. http://127.0.0.1:1234/v1 */
  url: string;
  dim: number;
  /** Inputs of every request answered with vectors, in order. */
  served: string[][];
  /** Answer 400 to every request once this many have been served with vectors (null: never). */
  failAfter: number | null;
  close(): Promise<void>;
}

export function startFakeEmbeddings(dim: number): Promise<FakeEmbeddingsServer> {
  let server: Server;
  const state: FakeEmbeddingsServer = {
    url: '', dim, served: [], failAfter: null,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
  server = createServer(async (req: IncomingMessage, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    if (req.method !== 'POST' || !req.url?.endsWith('/embeddings')) {
      res.writeHead(404).end();
      return;
    }
    if (state.failAfter !== null && state.served.length >= state.failAfter) {
      res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"message":"fake embeddings server refuses on purpose"}}');
      return;
    }
    const json = JSON.parse(body) as { input: string[]; model: string };
    state.served.push(json.input);
    const data = json.input.map((t, index) => ({ object: 'embedding', index, embedding: fakeEmbedding(t, state.dim) }));
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data, model: json.model }));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      state.url = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
      resolve(state);
    }),
  );
}
