// A PGlite database served over the Postgres wire protocol in a process of its own, on a data dir
// that outlives it: stop it and start it again to take "Postgres" away and bring it back.
// Usage: node --import tsx test/helpers/pglite-server.ts <dataDir> <port> [templateTar]
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { pg_textsearch } from '@electric-sql/pglite-pg_textsearch';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

const [dataDir, port, template] = process.argv.slice(2);
const fresh = !existsSync(join(dataDir, 'PG_VERSION'));
const db = await PGlite.create({
  dataDir,
  // The same extensions as the embedded store: the template was migrated with both.
  extensions: { vector, pg_textsearch },
  loadDataDir: fresh && template ? new Blob([readFileSync(template)]) : undefined,
});
// pglite-socket queues connections' messages one by one and keeps a transaction's messages
// together, but not an extended-protocol sequence (Parse … Sync) outside one: two connections
// would then share PGlite's one unnamed statement. Until its Sync, a sequence counts as a
// transaction, so the queue keeps serving the connection that began it.
const SEQUENCE = new Set([0x50, 0x42, 0x44, 0x45, 0x43, 0x48]); // Parse Bind Describe Execute Close Flush
let inSequence = false;
const inTransaction = db.isInTransaction.bind(db);
const exec = db.execProtocolRawStream.bind(db);
db.isInTransaction = () => inTransaction() || inSequence;
db.execProtocolRawStream = (async (message: Uint8Array, opts: any) => {
  const type = message[0];
  try {
    return await exec(message, opts);
  } finally {
    if (SEQUENCE.has(type)) inSequence = true;
    else if (type === 0x53 || type === 0x51 || type === 0x58) inSequence = false; // Sync, Query, Terminate
  }
}) as typeof db.execProtocolRawStream;
// A connection that goes away mid-sequence is rolled back by the queue: its sequence ends there.
const execSql = db.exec.bind(db);
db.exec = ((sql: string, opts?: any) => {
  if (sql === 'ROLLBACK') inSequence = false;
  return execSql(sql, opts);
}) as typeof db.exec;
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
