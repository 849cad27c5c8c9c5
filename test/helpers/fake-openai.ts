// A fake OpenAI-compatible server on loopback, for tests only: answers /v1/chat/completions and
// /v1/embeddings from handlers the test supplies, and records the requests it received.
import { createServer, type IncomingMessage, type Server } from 'node:http';

export interface FakeRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: any;
}

export type FakeHandler = (req: FakeRequest) => { status?: number; body?: unknown; delayMs?: number } | Promise<{ status?: number; body?: unknown; delayMs?: number }>;

export interface FakeOpenAI {
  url: string;
  requests: FakeRequest[];
  /** Replaces the handler of chat completions. */
  onChat(h: FakeHandler): void;
  onEmbeddings(h: FakeHandler): void;
  close(): Promise<void>;
}

/** A chat completion body whose reply is `content`. */
export const chatReply = (content: string) => ({ choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] });

export async function startFakeOpenAI(): Promise<FakeOpenAI> {
  const requests: FakeRequest[] = [];
  let chat: FakeHandler = () => ({ body: chatReply('ok') });
  let embeddings: FakeHandler = () => ({ status: 404, body: { error: 'no embeddings handler' } });
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    let body: any = null;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null');
    } catch {
      body = null;
    }
    const r: FakeRequest = { path: req.url ?? '', headers: req.headers, body };
    requests.push(r);
    const handler = r.path.endsWith('/chat/completions') ? chat : r.path.endsWith('/embeddings') ? embeddings : null;
    const out = handler ? await handler(r) : { status: 404, body: { error: 'not found' } };
    if (out.delayMs) await new Promise((ok) => setTimeout(ok, out.delayMs));
    if (res.destroyed) return;
    res.writeHead(out.status ?? 200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(out.body ?? {}));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    onChat: (h) => { chat = h; },
    onEmbeddings: (h) => { embeddings = h; },
    close: () => new Promise((ok) => { server.closeAllConnections(); server.close(() => ok()); }),
  };
}
