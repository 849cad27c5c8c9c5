// Hosts PGlite in its own thread: an in-process PGlite blocks the event loop for
// the whole length of every query. Messages: {id, op, sql?, params?} → {id, ok, result|error}.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type SerializerOptions } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { pg_textsearch } from '@electric-sql/pglite-pg_textsearch';
import { PreparedStatements } from './pglite-prepared.js';

interface Request {
  id: number;
  op: 'query' | 'exec' | 'close' | 'dump' | 'local';
  sql?: string;
  params?: unknown[];
  /** op 'local': the set_config statement run first, in the same transaction. */
  set?: { sql: string; params: string[] };
}

const { dataDir, loadFrom } = workerData as { dataDir?: string; loadFrom?: Uint8Array };

const ready = PGlite.create({
  dataDir,
  extensions: { vector, pg_textsearch },
  loadDataDir: loadFrom ? new Blob([loadFrom]) : undefined,
});

let statements: PreparedStatements | undefined;

// The owner starts statement clocks only once the database is open (initdb or recovery may take seconds).
void ready.then(() => parentPort!.postMessage({ ready: true }), () => undefined);

let vectorOid: Promise<number | null> | undefined;

/** Vector parameters given as bytes (vectorParam) go over as binary; text literals stay text. */
async function vectorSerializer(db: PGlite): Promise<SerializerOptions> {
  vectorOid ??= db.query<{ oid: number }>(`SELECT oid FROM pg_type WHERE typname = 'vector'`)
    .then((r) => r.rows[0]?.oid ?? null, () => null);
  const oid = await vectorOid;
  if (oid === null) {
    vectorOid = undefined; // the extension is not created yet (before the first migration): look again later
    return {};
  }
  // PGlite binds a Uint8Array in binary format; its typings only know text serializers.
  return { [oid]: ((x: unknown) => (x instanceof Uint8Array ? x : String(x))) as (x: unknown) => string };
}

function serializeError(err: any) {
  return {
    message: String(err?.message ?? err),
    code: err?.code,
    detail: err?.detail,
    constraint: err?.constraint,
  };
}

parentPort!.on('message', async (msg: Request) => {
  try {
    const db = await ready;
    statements ??= new PreparedStatements(db);
    if (msg.op === 'close') {
      await db.close();
      parentPort!.postMessage({ id: msg.id, ok: true, result: null });
      return;
    }
    if (msg.op === 'dump') {
      // A tarball of the data dir: tests start many databases from one migrated template.
      const blob = await db.dumpDataDir('none');
      const bytes = new Uint8Array(await blob.arrayBuffer());
      parentPort!.postMessage({ id: msg.id, ok: true, result: bytes }, [bytes.buffer]);
      return;
    }
    if (msg.op === 'exec') {
      await db.exec(msg.sql!);
      await statements.forgetAll();
      parentPort!.postMessage({ id: msg.id, ok: true, result: { rows: [], rowCount: 0 } });
      return;
    }
    const params = msg.params ?? [];
    const binary = params.some((p) => p instanceof Uint8Array);
    const options = binary ? { serializers: await vectorSerializer(db) } : undefined;
    const res = msg.op === 'local'
      ? await db.transaction(async (tx) => {
          await tx.query(msg.set!.sql, msg.set!.params);
          return tx.query(msg.sql!, params, options);
        })
      : await statements.query(msg.sql!, params, options?.serializers);
    parentPort!.postMessage({
      id: msg.id,
      ok: true,
      result: { rows: res.rows, rowCount: res.affectedRows ?? res.rows.length },
    });
  } catch (err) {
    parentPort!.postMessage({ id: msg.id, ok: false, error: serializeError(err) });
  }
});
