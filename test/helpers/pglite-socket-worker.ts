// Serves a PGlite database over the Postgres wire protocol (pglite-socket), so the
// node-postgres driver path is tested for real without a pgvector-enabled server.
import { parentPort, workerData } from 'node:worker_threads';
import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { pg_textsearch } from '@electric-sql/pglite-pg_textsearch';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

const { template } = workerData as { template?: string };
const db = await PGlite.create({
  extensions: { vector, pg_textsearch },
  loadDataDir: template ? new Blob([readFileSync(template)]) : undefined,
});
const server = new PGLiteSocketServer({ db, port: 0, host: '127.0.0.1' });
await server.start();
const addr = (server as any).server?.address?.() ?? null;
parentPort!.postMessage({ port: addr?.port ?? (server as any).port });
parentPort!.on('message', async (m) => {
  if (m === 'stop') {
    await server.stop();
    await db.close();
    parentPort!.postMessage('stopped');
  }
});
