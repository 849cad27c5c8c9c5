// A PGlite database served over the Postgres wire protocol in a process of its own, on a data dir
// that outlives it: stop it and start it again to take "Postgres" away and bring it back.
// Usage: node --import tsx test/helpers/pglite-server.ts <dataDir> <port> [templateTar]
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

const [dataDir, port, template] = process.argv.slice(2);
const fresh = !existsSync(join(dataDir, 'PG_VERSION'));
const db = await PGlite.create({
  dataDir,
  extensions: { vector },
  loadDataDir: fresh && template ? new Blob([readFileSync(template)]) : undefined,
});
const server = new PGLiteSocketServer({ db, port: Number(port), host: '127.0.0.1', maxConnections: 16 });
await server.start();
process.stdout.write(`listening ${port}\n`);
const stop = async () => {
  await server.stop();
  await db.close();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
