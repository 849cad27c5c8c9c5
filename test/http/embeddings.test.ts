// An OpenAI-compatible embedder (a fake server on loopback): the model id and dimension stored
// with every vector, a fresh store sized to the embedder, and query embeddings served from the LRU.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { startFakeEmbeddings, type FakeEmbeddingsServer } from '../helpers/fake-embeddings.js';

let t: TestApp;
let fake: FakeEmbeddingsServer;

beforeAll(async () => {
  fake = await startFakeEmbeddings(64);
  // No LOCI_EMBEDDINGS_DIM: the dimension is learned from the first response. The test store
  // was migrated at 512-d and holds no vectors, so it is resized to 64-d on first start.
  t = await startTestApp({ LOCI_EMBEDDER: 'openai', LOCI_EMBEDDINGS_URL: fake.url, LOCI_EMBEDDINGS_MODEL: 'fake-embed' });
});

afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe('OpenAI-compatible embedder', () => {
  it('stores the model id and dimension with every memory and document vector', async () => {
    const m = await t.api('POST', '/api/v1/memories', { body: { tenant_id: 'e1', agent_id: 'a', content: 'My car is blue.' } });
    expect(m.status).toBe(201);
    const detail = await t.api('GET', `/api/v1/memories/${m.body.id}?tenant_id=e1`);
    expect(detail.body.embedding_model).toBe('openai:fake-embed');
    expect(detail.body.embedding).toHaveLength(64);
    expect((await t.api('POST', '/api/v1/documents', { body: { tenant_id: 'e1', collection: 'c', doc_id: 'd', data: { t: 'A red automobile.' } } })).status).toBe(201);
    const { rows } = await t.services.db.query(
      `SELECT embedding_model, vector_dims(embedding) AS dims FROM documents WHERE tenant_id = 'e1'`);
    expect(rows).toEqual([{ embedding_model: 'openai:fake-embed', dims: 64 }]);
    const meta = await t.services.db.query(`SELECT key, value FROM loci_meta WHERE key LIKE 'embedding_%' ORDER BY key`);
    expect(meta.rows).toEqual([{ key: 'embedding_dim', value: '64' }, { key: 'embedding_model', value: 'openai:fake-embed' }]);
  });

  it('embeds a repeated search query once (LRU of query embeddings)', async () => {
    const query = 'which automobile is red';
    const before = t.services.queryEmbedder.stats();
    for (let i = 0; i < 3; i++) {
      const r = await t.api('POST', '/api/v1/documents/search', { body: { tenant_id: 'e1', query } });
      expect(r.status).toBe(200);
      expect(r.body.items[0].doc_id).toBe('d');
    }
    expect(fake.served.flat().filter((x) => x === query)).toHaveLength(1);
    const after = t.services.queryEmbedder.stats();
    expect(after.hits - before.hits).toBe(2);
    expect(after.misses - before.misses).toBe(1);
  });
});
